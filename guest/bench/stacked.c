// SPDX-License-Identifier: GPL-2.0
/*
 * stacked - streaming writes through stacked devices while the disks under
 * them are busy: the seeds' stacked-device deadlock.
 *
 * 1. loop: a loop device over a file on the slow disk; a streaming writer
 *    on the loop device beside one on the slow disk itself.
 * 2. fuse: pddt-fuse, a passthrough FUSE mount over the fast disk; a
 *    streaming writer on the FUSE mount beside one on the fast disk itself.
 * Each phase's writers must keep going (a writer that writes nothing for
 * the whole phase is a deadlock); figures, over a window of what the
 * devices wrote (bench_window_open(), the longer of the two devices'):
 * what the stacked device wrote (the loop device's sectors, the FUSE mount's
 * BdiWritten) and what the disk under it wrote (both writers' data), each
 * writer's longest write(), and whether the stacked writer's data read
 * back intact after sync and drop_caches (1 or 0).
 */
#include "bench.h"
#include "pddt.h"

#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define LOOP_IMG	"/mnt/slow/stacked-loop.img"
#define LOOP_MNT	"/mnt/stacked-loop"
#define FUSE_LOWER	"/mnt/fast/stacked-fuse"
#define FUSE_MNT	"/mnt/stacked-fuse"
#define WRAP		(128ULL << 20)
#define SEED		0x57ac

struct phase {
	const char *name;	/* loop or fuse */
	const char *upper, *lower;	/* the stacked writer's file, the other's */
	const char *disk;	/* the disk under both */
	size_t chunk;
};

static void run(const struct bench *b, const struct phase *ph, double warm)
{
	struct pddt_stream *st = pddt_shared(2 * sizeof(*st));
	struct bench_window wu, wl;
	char m[64], disk_dir[256];
	uint64_t u0, l0;
	pid_t pu, pl;
	int ran;

	pl = pddt_stream_start(ph->lower, SEED + 1, WRAP, ph->chunk, &st[1]);
	pu = pddt_stream_start(ph->upper, SEED, WRAP, ph->chunk, &st[0]);
	sleep(warm);
	st[0].max_write_ms = 0;
	st[1].max_write_ms = 0;
	u0 = st[0].bytes;
	l0 = st[1].bytes;
	pddt_disk_path(ph->disk, ".", disk_dir, sizeof(disk_dir));
	bench_window_open(b, ph->upper, -1, 4, &wu);
	bench_window_open(b, disk_dir, pddt_disk_bps(ph->disk), 4, &wl);
	wu.secs = wl.secs = wu.secs > wl.secs ? wu.secs : wl.secs;
	snprintf(m, sizeof(m), "%s_rate", ph->name);
	bench_metric(b, m, bench_window_rate(&wu), "MiB/s");
	snprintf(m, sizeof(m), "%s_lower_disk_rate", ph->name);
	bench_metric(b, m, bench_window_rate(&wl), "MiB/s");
	snprintf(m, sizeof(m), "%s_window", ph->name);
	bench_metric(b, m, wu.secs, "s");
	ran = pddt_stream_stop(pu);
	ran &= pddt_stream_stop(pl);
	snprintf(m, sizeof(m), "%s_longest_write", ph->name);
	bench_metric(b, m, st[0].max_write_ms, "ms");
	snprintf(m, sizeof(m), "%s_lower_longest_write", ph->name);
	bench_metric(b, m, st[1].max_write_ms, "ms");
	snprintf(m, sizeof(m), "%s_writers_ran", ph->name);
	bench_metric(b, m, ran && st[0].bytes > u0 && st[1].bytes > l0, "bool");

	bench_data_intact(b, ph->name, ph->upper, SEED);
	unlink(ph->upper);
	unlink(ph->lower);
	sync();
	munmap(st, 2 * sizeof(*st));
}

int main(int argc, char **argv)
{
	static const struct phase loop = {
		"loop", LOOP_MNT "/stream.dat", "/mnt/slow/stacked.dat", "slow", 64 << 10
	};
	static const struct phase fuse = {
		"fuse", FUSE_MNT "/stream.dat", "/mnt/fast/stacked.dat", "fast", 1 << 20
	};
	double warm;
	char dev[32];
	struct bench b;
	pid_t daemon;

	bench_init(&b, "stacked", argc, argv);
	warm = bench_len(&b, 3, 3);

	if (pddt_loop_setup(LOOP_IMG, 256LL << 20, LOOP_MNT, dev, sizeof(dev)))
		pddt_die("cannot set up a loop device on the slow disk");
	run(&b, &loop, warm);
	pddt_loop_teardown(LOOP_IMG, LOOP_MNT, dev);

	daemon = pddt_fuse_setup(FUSE_LOWER, FUSE_MNT);
	if (daemon < 0)
		pddt_die("pddt-fuse did not mount %s", FUSE_MNT);
	run(&b, &fuse, warm);
	pddt_fuse_teardown(FUSE_LOWER, FUSE_MNT, daemon);
	return 0;
}
