// SPDX-License-Identifier: GPL-2.0
/*
 * adaptivity - how fast do the per-disk shares and dirty time budgets
 * follow a change of bandwidth?
 *
 * A streaming writer on the slow disk and one on the fast disk. After a
 * warm-up the host swaps their bandwidths (QMP block_set_io_throttle: the
 * slow disk gets the fast one's and the reverse), and each disk's share
 * (BdiDirtyThresh), budget (BdiDirtyLimit), dirty pages and bandwidth
 * estimate are sampled every 250 ms, until both have settled or a bound
 * (120 s, quick 30 s) has passed. Where they settle is what the mechanism
 * makes of the new bandwidths: a disk's share of the dirty threshold
 * follows its fraction of the writeback completions (flex_proportions,
 * periods of 3 s), so the slow disk's fraction of the two shares goes to
 * its fraction of what the two wrote (BdiWritten) over the last 5 s; the
 * fast disk's budget (now the slow one) goes to what it writes in
 * vm.dirty_device_time_ms at its new bandwidth, within its floor (4 of its
 * largest requests) and its min_ratio and max_ratio (pddt_budget_kb()).
 * Figures: the time from the change until the fraction is within 0.1 of
 * its target and the budget within 25 % of its target, each for 5 s on end
 * (-1: not within the bound; in a mode without the budget, no budget
 * figures), and the fast disk's dirty pages against its budget over those
 * last 5 s. The bandwidths are set back at the end.
 */
#include "bench.h"
#include "pddt.h"

#include <math.h>
#include <unistd.h>

#define SLOW_F	"/mnt/slow/adaptivity.dat"
#define FAST_F	"/mnt/fast/adaptivity.dat"
#define WRAP	(512ULL << 20)
#define TICK_MS	250
#define HOLD_S	5	/* settled: within its tolerance for this long */
#define MAXS	((120 + 2 + 1) * 1000 / TICK_MS)

/* When a figure came within its tolerance and has stayed there, or -1. */
struct settle {
	double since;
	double at;	/* since, once it held HOLD_S; -1 until then */
};

/* Track @s at time @t (from the change): @ok, within its tolerance now. */
static void settle_track(struct settle *s, double t, int ok)
{
	if (s->at >= 0)
		return;
	if (!ok)
		s->since = -1;
	else if (s->since < 0)
		s->since = t;
	else if (t - s->since >= HOLD_S)
		s->at = s->since;
}

int main(int argc, char **argv)
{
	double slow_bw = pddt_disk_bps("slow"), fast_bw = pddt_disk_bps("fast");
	struct settle share = { -1, -1 }, limit = { -1, -1 };
	static double ts[MAXS], frac[MAXS], dirty[MAXS], lim[MAXS], wr[MAXS][2];
	double warm, before, bound, t0, sum[3] = { 0 };
	long long ms = pddt_read_ll("/proc/sys/vm/dirty_device_time_ms");
	struct pddt_budget_terms fast_terms;
	char fast_dir[256];
	int swapped = 0, n, tail = 0;
	struct bench b;
	pid_t ps, pf;
	FILE *csv;

	bench_init(&b, "adaptivity", argc, argv);
	if (slow_bw <= 0 || fast_bw <= 0)
		pddt_die("adaptivity needs throttled disks 'slow' and 'fast' (PDDT_BPS)");
	if (ms < 0)
		pddt_die("adaptivity: cannot read vm.dirty_device_time_ms");
	warm = bench_len(&b, 10, 6);
	before = bench_len(&b, 2, 2);
	bound = bench_len(&b, 120, 30);
	pddt_disk_path("fast", ".", fast_dir, sizeof(fast_dir));
	if (!ms)	/* no budget in this mode: nothing to settle */
		limit.at = 0;
	else if (pddt_budget_terms(fast_dir, &fast_terms))
		pddt_die("adaptivity: cannot read the budget's terms of %s", fast_dir);

	ps = pddt_stream_start(SLOW_F, 0xada9, WRAP, 64 << 10, NULL);
	pf = pddt_stream_start(FAST_F, 0xada9, WRAP, 1 << 20, NULL);
	sleep(warm);
	csv = bench_csv(&b, "share", "t,disk,dirty_kb,thresh_kb,limit_kb,bw_kbps");
	t0 = pddt_now() + before;
	for (n = 0; n < MAXS; n++) {
		double t = pddt_now() - t0, target;
		struct bench_disk sd, fd;

		if (t >= bound || (share.at >= 0 && limit.at >= 0))
			break;
		if (!swapped && t >= 0) {
			double asked = pddt_now(), late;

			pddt_host_throttle("slow", fast_bw);
			pddt_host_throttle("fast", slow_bw);
			swapped = 1;
			/*
			 * time 0 is when both are in force, at the host's
			 * answer to the second (t, now, is as far past it as
			 * the request was past 0); the rows already written
			 * keep their time
			 */
			late = pddt_now() - asked;
			t0 += late;
			for (int i = 0; i < n; i++)
				ts[i] -= late;
		}
		bench_sample_disk(csv, &b, t, "slow", &sd);
		bench_sample_disk(csv, &b, t, "fast", &fd);
		ts[n] = t;
		frac[n] = sd.thresh + fd.thresh > 0 ? sd.thresh / (sd.thresh + fd.thresh) : 0;
		dirty[n] = fd.dirty;
		lim[n] = fd.limit;
		wr[n][0] = sd.written;
		wr[n][1] = fd.written;
		if (t >= 0) {
			int k = n > HOLD_S * 1000 / TICK_MS ? n - HOLD_S * 1000 / TICK_MS : 0;
			double ws = wr[n][0] - wr[k][0], wf = wr[n][1] - wr[k][1];

			if (ws + wf > 0)
				settle_track(&share, t, fabs(frac[n] - ws / (ws + wf)) <= 0.1);
			if (ms) {
				/* in kB, as the samples: the budget at the fast disk's new rate */
				target = pddt_budget_kb((long long)(slow_bw / 1024), ms,
							(long long)fd.dirty_thresh, &fast_terms);
				settle_track(&limit, t, fabs(fd.limit - target) <= 0.25 * target);
			}
		}
		usleep(TICK_MS * 1000);
	}
	/* the last HOLD_S seconds: settled, or the end of the bound */
	for (int i = 0; i < n; i++) {
		if (ts[i] < ts[n - 1] - HOLD_S)
			continue;
		sum[0] += frac[i];
		sum[1] += dirty[i];
		sum[2] += lim[i];
		tail++;
	}
	fclose(csv);
	pddt_stream_stop(ps);
	pddt_stream_stop(pf);
	pddt_host_throttle("slow", slow_bw);
	pddt_host_throttle("fast", fast_bw);

	bench_metric(&b, "share_settle", share.at, "s");
	bench_metric(&b, "slow_share_after", sum[0] / tail, "fraction");
	if (ms) {
		bench_metric(&b, "fast_limit_settle", limit.at, "s");
		bench_metric(&b, "fast_limit_after", sum[2] / tail, "kB");
	}
	bench_metric(&b, "fast_dirty_after", sum[1] / tail, "kB");

	bench_verify(&b, "slow", SLOW_F, 0xada9);
	bench_verify(&b, "fast", FAST_F, 0xada9);
	unlink(SLOW_F);
	unlink(FAST_F);
	sync();
	return 0;
}
