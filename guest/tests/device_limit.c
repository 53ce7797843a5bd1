// SPDX-License-Identifier: GPL-2.0
/*
 * device_limit - per-device dirty limits, off and on in one boot.
 *
 * 1. vm.dirty_device_limit_ms takes 0..60000; anything else is EINVAL and
 *    leaves the value as it was.
 * 2. A streaming writer on the slow disk and one on the fast disk. The slow
 *    disk's dirty and writeback pages (BdiReclaimable + BdiWriteback) are
 *    sampled beside its share (BdiDirtyThresh) and its limit
 *    (BdiDirtyLimit). Off, the limit reads 0 and the slow disk holds far
 *    more than its share. On, it is held at its limit: the mechanism
 *    throttles its writer past the freerun ceiling of the limit. The limit
 *    moves with the disk's bandwidth estimate; when it drops under what the
 *    disk holds, the writer goes on at 1/8 of the balanced rate and the
 *    excess drains at 7/8 of the disk's bandwidth, within about the time
 *    the limit stands for (ON_MS). So a sample is compared with the highest
 *    limit of the last DRAIN_MS, and may exceed it only by what dirtiers
 *    dirty between two checks (SLACK_KB). Both writers' files are read back
 *    after sync and drop_caches.
 * Throughputs are printed for information only: timing belongs to the
 * bench.
 */
#include "pddt.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIMIT_MS "/proc/sys/vm/dirty_device_limit_ms"

#define DIRTY_KB	(64 << 10)	/* vm.dirty_bytes */
#define BG_KB		(32 << 10)	/* vm.dirty_background_bytes */
#define WARMUP_S	8	/* bandwidths and shares adapt to the disks */
#define SETTLE_MAX_S	45	/* on: then at most this long to reach the limit */
#define SAMPLES		48
#define SAMPLE_MS	250
#define SLACK_KB	1024
#define DRAIN_MS	1250	/* ON_MS, and 1/8 more for the writer's 1/8 */
#define FAST_WRAP	(512ULL << 20)	/* the fast writer rewrites its file */
#define ON_MS		1000

static int test_sysctl(void)
{
	static const char *const good[] = { "0", "1", "60000", "1000\n" };
	static const struct pddt_bad_input bad[] = {
		{ "negative", "-1" }, { "too_large", "60001" },
		{ "huge", "99999999999999999999" }, { "non_numeric", "abc" },
		{ "trailing_junk", "5x" }, { "empty_line", "\n" }, { "empty", "" },
	};

	return pddt_check_int_sysctl("device_limit.sysctl", LIMIT_MS,
				     good, sizeof(good) / sizeof(good[0]),
				     bad, sizeof(bad) / sizeof(bad[0]), ON_MS);
}

struct sample {
	long long dirty, thresh, limit;	/* kB */
};

/* The highest limit of samples @i and those of the DRAIN_MS before it. */
static long long recent_limit(const struct sample *s, int i)
{
	long long max = 0;

	for (int j = i; j >= 0 && (i - j) * SAMPLE_MS <= DRAIN_MS; j--)
		if (s[j].limit > max)
			max = s[j].limit;
	return max;
}

/* Stop a streaming writer; 1 if it was running until then. */
static int stop(pid_t pid)
{
	int st;

	kill(pid, SIGTERM);
	waitpid(pid, &st, 0);
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM;
}

static int verify(const char *mode, const char *who, const char *file, uint64_t seed)
{
	struct stat sb;
	long long bad;
	char name[96];

	bad = stat(file, &sb) ? -1 : pddt_verify_pattern(file, sb.st_size, seed);
	snprintf(name, sizeof(name), "device_limit.%s.%s_data_intact", mode, who);
	unlink(file);
	return pddt_check(name, bad == 0 && sb.st_size > 0,
			  "%lld MiB read back, %lld bytes differ",
			  (long long)sb.st_size >> 20, bad);
}

static int run_mode(int ms)
{
	const char *mode = ms ? "on" : "off";
	struct pddt_stream *st = pddt_shared(2 * sizeof(*st));
	struct sample s[SAMPLES];
	double dirty[SAMPLES], limit[SAMPLES];
	char slow_f[] = "/mnt/slow/stream.dat", fast_f[] = "/mnt/fast/stream.dat";
	char name[96], val[16];
	pid_t slow, fast;
	uint64_t slow0, fast0;
	double t0, t;
	int over = 0, unlimited = 0, above_share = 0, fails = 0, ran;
	long long max_limit = 0;

	snprintf(val, sizeof(val), "%d", ms);
	if (pddt_write_file(LIMIT_MS, val))
		pddt_die("cannot set %s to %d", LIMIT_MS, ms);
	slow = fork();
	if (!slow)
		pddt_stream_writer(slow_f, 0x510e, 0, 64 << 10, &st[0]);
	fast = fork();
	if (!fast)
		pddt_stream_writer(fast_f, 0xfa57, FAST_WRAP, 1 << 20, &st[1]);
	sleep(WARMUP_S);
	/*
	 * On, the slow disk's limit drops from the initial bandwidth estimate
	 * to its own within the warm-up; what it holds above the new limit
	 * then drains at 7/8 of its bandwidth. Polled, with a bound; if it
	 * never gets there the check below says so.
	 */
	t0 = pddt_now();
	while (ms && pddt_now() - t0 < SETTLE_MAX_S) {
		struct bdi_stats b;

		if (bdi_stats_read("/mnt/slow", &b))
			pddt_die("no bdi stats for /mnt/slow");
		if (bdi_stat(&b, "BdiReclaimable") + bdi_stat(&b, "BdiWriteback") <=
		    bdi_stat(&b, "BdiDirtyLimit") + SLACK_KB)
			break;
		usleep(250000);
	}
	printf("pddt: device limit %d ms: slow disk at its limit %.1f s after the warm-up\n",
	       ms, pddt_now() - t0);

	st[0].max_write_ms = 0;
	st[1].max_write_ms = 0;
	slow0 = st[0].bytes;
	fast0 = st[1].bytes;
	t0 = pddt_now();
	for (int i = 0; i < SAMPLES; i++) {
		struct bdi_stats b;

		if (bdi_stats_read("/mnt/slow", &b))
			pddt_die("no bdi stats for /mnt/slow");
		s[i].dirty = bdi_stat(&b, "BdiReclaimable") + bdi_stat(&b, "BdiWriteback");
		s[i].thresh = bdi_stat(&b, "BdiDirtyThresh");
		s[i].limit = bdi_stat(&b, "BdiDirtyLimit");
		dirty[i] = s[i].dirty;
		limit[i] = s[i].limit;
		over += s[i].dirty > recent_limit(s, i) + SLACK_KB;
		unlimited += s[i].limit == 0;
		above_share += s[i].dirty > 2 * s[i].thresh;
		if (s[i].limit > max_limit)
			max_limit = s[i].limit;
		usleep(SAMPLE_MS * 1000);
	}
	t = pddt_now() - t0;
	printf("pddt: device limit %d ms: slow disk beside a streaming fast one: %.1f MiB/s, "
	       "longest 64 KiB write %.0f ms; fast disk %.1f MiB/s, longest 1 MiB write %.0f ms\n",
	       ms, (st[0].bytes - slow0) / t / (1 << 20), st[0].max_write_ms,
	       (st[1].bytes - fast0) / t / (1 << 20), st[1].max_write_ms);
	ran = stop(slow) & stop(fast);
	pddt_sort(dirty, SAMPLES);
	pddt_sort(limit, SAMPLES);
	printf("pddt: device limit %d ms: slow disk dirty+writeback p50 %.0f kB, max %.0f kB; "
	       "limit p50 %.0f kB; share (BdiDirtyThresh) last %lld kB\n",
	       ms, dirty[SAMPLES / 2], dirty[SAMPLES - 1], limit[SAMPLES / 2],
	       s[SAMPLES - 1].thresh);

	snprintf(name, sizeof(name), "device_limit.%s.writers_ran", mode);
	fails += pddt_check(name, ran, "both streaming writers ran until stopped");
	if (ms) {
		snprintf(name, sizeof(name), "device_limit.%s.slow_disk_has_a_limit", mode);
		fails += pddt_check(name, !unlimited && max_limit < DIRTY_KB / 2,
				    "BdiDirtyLimit 0 in %d of %d samples, at most %lld kB (global %d kB)",
				    unlimited, SAMPLES, max_limit, DIRTY_KB);
		snprintf(name, sizeof(name), "device_limit.%s.slow_disk_held_at_limit", mode);
		fails += pddt_check(name, over <= SAMPLES / 10,
				    "%d of %d samples above the highest BdiDirtyLimit of the last %d ms + %d kB; max dirty %.0f kB",
				    over, SAMPLES, DRAIN_MS, SLACK_KB, dirty[SAMPLES - 1]);
	} else {
		snprintf(name, sizeof(name), "device_limit.%s.no_limit", mode);
		fails += pddt_check(name, unlimited == SAMPLES,
				    "BdiDirtyLimit 0 in %d of %d samples", unlimited, SAMPLES);
		snprintf(name, sizeof(name), "device_limit.%s.slow_disk_beyond_share", mode);
		fails += pddt_check(name, above_share > 0,
				    "%d of %d samples above twice BdiDirtyThresh; max dirty %.0f kB",
				    above_share, SAMPLES, dirty[SAMPLES - 1]);
	}

	sync();
	pddt_drop_caches();
	fails += verify(mode, "slow", slow_f, 0x510e);
	fails += verify(mode, "fast", fast_f, 0xfa57);
	sync();
	return fails;
}

int main(void)
{
	char val[32];
	int fails = 0;

	if (access(LIMIT_MS, F_OK))
		return pddt_result("device_limit", PDDT_SKIP,
				   "no %s: kernel without the series", LIMIT_MS);
	if (access("/mnt/slow", F_OK) || access("/mnt/fast", F_OK))
		return pddt_result("device_limit", PDDT_FAIL, "needs disks 'slow' and 'fast'");
	pddt_set_dirty_bytes(DIRTY_KB, BG_KB);

	fails += test_sysctl();
	fails += run_mode(0);
	fails += run_mode(ON_MS);

	snprintf(val, sizeof(val), "%d", ON_MS);
	pddt_write_file(LIMIT_MS, val);
	pddt_default_dirty_ratios();
	return fails ? 1 : 0;
}
