// SPDX-License-Identifier: GPL-2.0
/*
 * inter_device - does a saturated slow disk starve the writers of a fast one?
 *
 * 1. solo: a streaming writer on the fast disk alone: what the fast disk
 *    wrote.
 * 2. beside: a streaming writer on the slow disk, and after a warm-up the
 *    same fast writer beside it: what the fast disk wrote against solo,
 *    what the slow disk wrote against its set bandwidth, the slow writer's
 *    longest write() of 64 KiB, and each disk's dirty pages against its
 *    share (BdiDirtyThresh) and time budget (BdiDirtyLimit) over time.
 * Rates are what the device wrote over a window (bench_window_open()); in
 * "beside" both disks share one window, the longer of the two.
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

int main(int argc, char **argv)
{
	struct pddt_stream *st = pddt_shared(2 * sizeof(*st));
	double warm, t0, solo, fast, slow, bw = pddt_disk_bps("slow");
	double fast_bw = pddt_disk_bps("fast");
	enum { MAXS = 256 };
	double sd[MAXS], sth[MAXS], sl[MAXS], fd[MAXS];
	struct bench_window ws, wf;
	char fast_f[256], slow_f[256], fast_d[256], slow_d[256];
	struct bench b;
	pid_t pf, ps;
	FILE *csv;
	int n = 0;

	bench_init(&b, "inter_device", argc, argv);
	pddt_disk_path("fast", FILE_NAME, fast_f, sizeof(fast_f));
	pddt_disk_path("slow", FILE_NAME, slow_f, sizeof(slow_f));
	pddt_disk_path("fast", ".", fast_d, sizeof(fast_d));
	pddt_disk_path("slow", ".", slow_d, sizeof(slow_d));
	/* the slow disk's budget holds once its bandwidth is measured */
	warm = bench_len(&b, 10, 8);

	/* alone, the fast writer is steady within a second or two */
	pf = pddt_stream_start(fast_f, 0xbe7c, WRAP, 1 << 20, &st[1]);
	sleep(2);
	bench_window_open(&b, fast_d, fast_bw, 5, &wf);
	solo = bench_window_rate(&wf);
	bench_metric(&b, "fast_solo_window", wf.secs, "s");
	pddt_stream_stop(pf);
	sync();

	ps = pddt_stream_start(slow_f, 0xbe7c, WRAP, 64 << 10, &st[0]);
	sleep(warm);
	pf = pddt_stream_start(fast_f, 0xbe7c, WRAP, 1 << 20, &st[1]);
	sleep(3);
	csv = bench_csv(&b, "dirty", "t,disk,dirty_kb,thresh_kb,limit_kb,bw_kbps");
	st[0].max_write_ms = 0;
	st[1].max_write_ms = 0;
	bench_window_open(&b, slow_d, bw, 5, &ws);
	bench_window_open(&b, fast_d, fast_bw, 5, &wf);
	ws.secs = wf.secs = ws.secs > wf.secs ? ws.secs : wf.secs;
	t0 = pddt_now();
	while (pddt_now() - t0 < ws.secs) {
		double t = pddt_now() - t0;
		struct bench_disk s, f;

		if (n < MAXS) {
			bench_sample_disk(csv, &b, t, "slow", &s);
			bench_sample_disk(csv, &b, t, "fast", &f);
			sd[n] = s.dirty;
			sth[n] = s.thresh;
			sl[n] = s.limit;
			fd[n] = f.dirty;
			n++;
		}
		usleep(250000);
	}
	slow = bench_window_rate(&ws);
	fast = bench_window_rate(&wf);
	fclose(csv);
	pddt_stream_stop(pf);
	pddt_stream_stop(ps);

	bench_metric(&b, "fast_solo", solo, "MiB/s");
	bench_metric(&b, "fast_beside_slow", fast, "MiB/s");
	bench_metric(&b, "fast_beside_vs_solo", solo > 0 ? fast / solo : 0, "ratio");
	bench_metric(&b, "slow_rate", slow, "MiB/s");
	if (bw > 0)
		bench_metric(&b, "slow_rate_vs_bandwidth", slow * (1 << 20) / bw, "ratio");
	bench_metric(&b, "beside_window", ws.secs, "s");
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
