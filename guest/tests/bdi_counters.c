// SPDX-License-Identifier: GPL-2.0
/*
 * bdi_counters - the harness sees real per-device writeback state.
 *
 * On each data disk: write N MiB to a new file and check that this disk's
 * counters in /sys/kernel/debug/bdi/<maj:min>/stats move by about N MiB
 * (BdiDirtied, BdiReclaimable + BdiWriteback) while the other disks' do
 * not; after sync, BdiWritten has moved by about N MiB and reclaimable +
 * writeback are back near 0; after drop_caches the file reads back intact.
 *
 * Tolerances: the debugfs values are percpu counter reads, off by at most
 * a batch per CPU (a few hundred kB here); ext4 metadata and the journal
 * add to what is written, never take away.
 */
#include "pddt.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLACK_KB 512LL		/* percpu read error, both directions */

struct disk {
	char name[32];
	char mnt[64];
	struct bdi_stats before;
};

static long long outstanding(const struct bdi_stats *s)
{
	return bdi_stat(s, "BdiReclaimable") + bdi_stat(s, "BdiWriteback");
}

static long long delta(const struct bdi_stats *a, const struct bdi_stats *b,
		       const char *key)
{
	return bdi_stat(b, key) - bdi_stat(a, key);
}

static int test_disk(struct disk *disks, int nr, int me, long long mib)
{
	struct disk *d = &disks[me];
	long long want = mib * 1024, got, lost;
	struct bdi_stats mid, after;
	char file[128], name[96];
	uint64_t seed = 0x5eed0000 + me;
	int fd, fails = 0, err;

	snprintf(file, sizeof(file), "%s/bdi_counters.dat", d->mnt);
	sync();
	for (int i = 0; i < nr; i++)
		if (bdi_stats_read(disks[i].mnt, &disks[i].before))
			pddt_die("no bdi stats for %s", disks[i].mnt);

	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		pddt_die("open %s", file);
	err = pddt_write_pattern(fd, mib << 20, seed, 1 << 20);
	close(fd);
	snprintf(name, sizeof(name), "bdi_counters.%s.write", d->name);
	if (pddt_check(name, !err, "%lld MiB to %s: %s", mib, file,
		       err ? strerror(-err) : "ok"))
		return 1;

	bdi_stats_read(d->mnt, &mid);
	got = delta(&d->before, &mid, "BdiDirtied");
	snprintf(name, sizeof(name), "bdi_counters.%s.dirtied", d->name);
	fails += pddt_check(name, got >= want - SLACK_KB &&
			    got <= want + want / 8 + 2 * SLACK_KB,
			    "BdiDirtied moved %lld kB for %lld kB written",
			    got, want);

	got = outstanding(&mid) - outstanding(&d->before);
	snprintf(name, sizeof(name), "bdi_counters.%s.outstanding", d->name);
	fails += pddt_check(name, got >= want - SLACK_KB &&
			    got <= want + want / 8 + 2 * SLACK_KB,
			    "BdiReclaimable+BdiWriteback rose %lld kB for %lld kB written",
			    got, want);

	for (int i = 0; i < nr; i++) {
		struct bdi_stats other;

		if (i == me)
			continue;
		bdi_stats_read(disks[i].mnt, &other);
		got = delta(&disks[i].before, &other, "BdiDirtied");
		snprintf(name, sizeof(name), "bdi_counters.%s.isolated_from_%s",
			 d->name, disks[i].name);
		fails += pddt_check(name, got <= 2 * SLACK_KB,
				    "%s BdiDirtied moved %lld kB while %s was written",
				    disks[i].name, got, d->name);
	}

	sync();
	bdi_stats_read(d->mnt, &after);
	got = delta(&d->before, &after, "BdiWritten");
	snprintf(name, sizeof(name), "bdi_counters.%s.written", d->name);
	fails += pddt_check(name, got >= want - SLACK_KB &&
			    got <= want + want / 4 + 8 * SLACK_KB,
			    "BdiWritten moved %lld kB for %lld kB written",
			    got, want);

	got = outstanding(&after);
	snprintf(name, sizeof(name), "bdi_counters.%s.clean_after_sync", d->name);
	fails += pddt_check(name, got <= SLACK_KB,
			    "BdiReclaimable+BdiWriteback %lld kB after sync", got);

	pddt_drop_caches();
	lost = pddt_verify_pattern(file, mib << 20, seed);
	snprintf(name, sizeof(name), "bdi_counters.%s.readback", d->name);
	fails += pddt_check(name, lost == 0, "%lld bytes differ after drop_caches%s",
			    lost, lost < 0 ? " (unreadable or wrong size)" : "");
	unlink(file);
	return fails;
}

int main(int argc, char **argv)
{
	const char *env = getenv("PDDT_DISKS");
	long long mib = argc > 1 ? atoll(argv[1]) : 16;
	struct disk disks[8];
	char list[256], *tok, *save;
	int nr = 0, fails = 0;

	if (!env || !*env)
		pddt_die("PDDT_DISKS is not set");
	if (mib <= 0)
		pddt_die("usage: bdi_counters [MiB > 0]");
	snprintf(list, sizeof(list), "%s", env);
	for (tok = strtok_r(list, " ", &save); tok && nr < 8;
	     tok = strtok_r(NULL, " ", &save), nr++) {
		snprintf(disks[nr].name, sizeof(disks[nr].name), "%s", tok);
		snprintf(disks[nr].mnt, sizeof(disks[nr].mnt), "/mnt/%s", tok);
	}
	for (int i = 0; i < nr; i++)
		fails += test_disk(disks, nr, i, mib);
	return fails ? 1 : 0;
}
