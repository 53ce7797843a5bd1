// SPDX-License-Identifier: GPL-2.0
/*
 * inter_device - does a saturated slow disk starve the writers of a fast one?
 *
 * 1. solo: a streaming writer on the fast disk alone: its rate.
 * 2. beside: a streaming writer on the slow disk, and after a warm-up the
 *    same fast writer beside it: the fast writer's rate against solo, the
 *    slow writer's rate against the slow disk's set bandwidth and its
 *    longest write() of 64 KiB, and each disk's dirty pages against its
 *    share (BdiDirtyThresh) and limit (BdiDirtyLimit) over time.
 */
#include "bench.h"
#include "pddt.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILE_NAME	"inter_device.dat"
#define WRAP	(512ULL << 20)

/* The rate of @st over @secs seconds from now, in MiB/s. */
static double rate(struct pddt_stream *st, double secs)
{
	uint64_t b0 = st->bytes;
	double t0 = pddt_now();

	usleep(secs * 1e6);
	return (st->bytes - b0) / (pddt_now() - t0) / (1 << 20);
}

int main(int argc, char **argv)
{
	struct pddt_stream *st = pddt_shared(2 * sizeof(*st));
	double warm = 0, secs, solo_s, t0, solo, fast, slow, bw = pddt_disk_bps("slow");
	enum { MAXS = 256 };
	double sd[MAXS], sth[MAXS], sl[MAXS], fd[MAXS], x;
	uint64_t slow0, fast0;
	char fast_f[256], slow_f[256];
	struct bench b;
	pid_t pf, ps;
	FILE *csv;
	int n = 0;

	bench_init(&b, "inter_device", argc, argv);
	pddt_disk_path("fast", FILE_NAME, fast_f, sizeof(fast_f));
	pddt_disk_path("slow", FILE_NAME, slow_f, sizeof(slow_f));
	/* the slow disk's limit settles once its bandwidth is measured */
	warm = bench_len(&b, 10, 8);
	secs = bench_len(&b, 8, 5);
	/* alone, the fast writer is steady within a second or two */
	solo_s = bench_len(&b, 6, 5);

	pf = pddt_stream_start(fast_f, 0xbe7c, WRAP, 1 << 20, &st[1]);
	sleep(2);
	solo = rate(&st[1], solo_s);
	pddt_stream_stop(pf);
	sync();

	ps = pddt_stream_start(slow_f, 0xbe7c, WRAP, 64 << 10, &st[0]);
	sleep(warm);
	pf = pddt_stream_start(fast_f, 0xbe7c, WRAP, 1 << 20, &st[1]);
	sleep(3);
	csv = bench_csv(&b, "dirty", "t,disk,dirty_kb,thresh_kb,limit_kb,bw_kbps");
	st[0].max_write_ms = 0;
	st[1].max_write_ms = 0;
	slow0 = st[0].bytes;
	fast0 = st[1].bytes;
	t0 = pddt_now();
	while (pddt_now() - t0 < secs && n < MAXS) {
		double t = pddt_now() - t0;
		struct bench_disk s, f;

		bench_sample_disk(csv, &b, t, "slow", &s);
		bench_sample_disk(csv, &b, t, "fast", &f);
		sd[n] = s.dirty;
		sth[n] = s.thresh;
		sl[n] = s.limit;
		fd[n] = f.dirty;
		n++;
		usleep(250000);
	}
	x = pddt_now() - t0;
	slow = (st[0].bytes - slow0) / x / (1 << 20);
	fast = (st[1].bytes - fast0) / x / (1 << 20);
	fclose(csv);
	pddt_stream_stop(pf);
	pddt_stream_stop(ps);

	bench_metric(&b, "fast_solo", solo, "MiB/s");
	bench_metric(&b, "fast_beside_slow", fast, "MiB/s");
	bench_metric(&b, "fast_beside_vs_solo", solo > 0 ? fast / solo : 0, "ratio");
	bench_metric(&b, "slow_rate", slow, "MiB/s");
	if (bw > 0)
		bench_metric(&b, "slow_rate_vs_bandwidth", slow * (1 << 20) / bw, "ratio");
	bench_metric(&b, "slow_longest_write_64k", st[0].max_write_ms, "ms");
	bench_metric(&b, "fast_longest_write_1m", st[1].max_write_ms, "ms");
	bench_metric(&b, "slow_dirty_p50", bench_percentile(sd, n, 50), "kB");
	bench_metric(&b, "slow_dirty_max", bench_percentile(sd, n, 100), "kB");
	bench_metric(&b, "slow_thresh_p50", bench_percentile(sth, n, 50), "kB");
	bench_metric(&b, "slow_limit_p50", bench_percentile(sl, n, 50), "kB");
	bench_metric(&b, "fast_dirty_p50", bench_percentile(fd, n, 50), "kB");

	bench_verify(&b, "fast", fast_f, 0xbe7c);
	bench_verify(&b, "slow", slow_f, 0xbe7c);
	unlink(fast_f);
	unlink(slow_f);
	sync();
	return 0;
}
