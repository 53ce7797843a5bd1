// SPDX-License-Identifier: GPL-2.0
/*
 * adaptivity - how fast do the per-disk shares and limits follow a change of
 * bandwidth?
 *
 * A streaming writer on the slow disk and one on the fast disk. After a
 * warm-up the host swaps their bandwidths (QMP block_set_io_throttle: the
 * slow disk gets the fast one's and the reverse), and each disk's share
 * (BdiDirtyThresh), limit (BdiDirtyLimit), dirty pages and bandwidth
 * estimate are sampled every 250 ms. Figures: the time from the change until
 * the slow disk's fraction of the two shares stays within 0.1 of where it
 * ends (the mean of the last fifth of the run), the time until the fast
 * disk's limit (now the slow one) stays within 25 % of where it ends, and
 * the fast disk's dirty pages against that limit after it settled. The
 * bandwidths are set back at the end.
 */
#include "bench.h"
#include "pddt.h"

#include <math.h>
#include <unistd.h>

#define SLOW_F	"/mnt/slow/adaptivity.dat"
#define FAST_F	"/mnt/fast/adaptivity.dat"
#define WRAP	(512ULL << 20)
#define MAXS	512
#define TICK_MS	250

struct series {
	double t[MAXS], frac[MAXS], fast_limit[MAXS], fast_dirty[MAXS];
	int n;
};

/* Mean of @v[from..n). */
static double mean(const double *v, int from, int n)
{
	double sum = 0;

	for (int i = from; i < n; i++)
		sum += v[i];
	return n > from ? sum / (n - from) : 0;
}

/*
 * Seconds from the change (sample @from, t = 0) until @v stays within @tol
 * of its final value (relative to it if @rel); -1 if it never does.
 */
static double settle_s(const struct series *s, int from, const double *v,
		       double tol, int rel)
{
	double end = mean(v, s->n - s->n / 5, s->n);
	double bound = rel ? tol * fabs(end) : tol;
	int i = s->n;

	while (i > from && fabs(v[i - 1] - end) <= bound)
		i--;
	if (i == s->n)
		return -1;
	return s->t[i] > 0 ? s->t[i] : 0;
}

int main(int argc, char **argv)
{
	static struct series s;
	double slow_bw = pddt_disk_bps("slow"), fast_bw = pddt_disk_bps("fast");
	double warm, before, after, t0, limit;
	struct bench b;
	pid_t ps, pf;
	FILE *csv;
	int after0 = -1;

	bench_init(&b, "adaptivity", argc, argv);
	if (slow_bw <= 0 || fast_bw <= 0)
		pddt_die("adaptivity needs throttled disks 'slow' and 'fast' (PDDT_BPS)");
	warm = bench_len(&b, 10, 6);
	before = bench_len(&b, 2, 2);
	after = bench_len(&b, 20, 12);

	ps = pddt_stream_start(SLOW_F, 0xada9, WRAP, 64 << 10, NULL);
	pf = pddt_stream_start(FAST_F, 0xada9, WRAP, 1 << 20, NULL);
	sleep(warm);
	csv = bench_csv(&b, "share", "t,disk,dirty_kb,thresh_kb,limit_kb,bw_kbps");
	t0 = pddt_now() + before;
	while (pddt_now() - t0 < after && s.n < MAXS) {
		double t = pddt_now() - t0;
		struct bench_disk sd, fd;

		if (after0 < 0 && t >= 0) {
			pddt_host_throttle("slow", fast_bw);
			pddt_host_throttle("fast", slow_bw);
			after0 = s.n;
		}
		bench_sample_disk(csv, &b, t, "slow", &sd);
		bench_sample_disk(csv, &b, t, "fast", &fd);
		s.t[s.n] = t;
		s.frac[s.n] = sd.thresh + fd.thresh > 0 ? sd.thresh / (sd.thresh + fd.thresh) : 0;
		s.fast_limit[s.n] = fd.limit;
		s.fast_dirty[s.n] = fd.dirty;
		s.n++;
		usleep(TICK_MS * 1000);
	}
	fclose(csv);
	pddt_stream_stop(ps);
	pddt_stream_stop(pf);
	pddt_host_throttle("slow", slow_bw);
	pddt_host_throttle("fast", fast_bw);

	bench_metric(&b, "slow_share_before", mean(s.frac, 0, after0), "fraction");
	bench_metric(&b, "slow_share_after", mean(s.frac, s.n - s.n / 5, s.n), "fraction");
	bench_metric(&b, "share_settle", settle_s(&s, after0, s.frac, 0.1, 0), "s");
	limit = mean(s.fast_limit, s.n - s.n / 5, s.n);
	if (limit > 0) {	/* 0: no device limits in this mode */
		bench_metric(&b, "fast_limit_settle",
			     settle_s(&s, after0, s.fast_limit, 0.25, 1), "s");
		bench_metric(&b, "fast_limit_after", limit, "kB");
	}
	bench_metric(&b, "fast_dirty_after", mean(s.fast_dirty, s.n - s.n / 5, s.n), "kB");

	bench_verify(&b, "slow", SLOW_F, 0xada9);
	bench_verify(&b, "fast", FAST_F, 0xada9);
	unlink(SLOW_F);
	unlink(FAST_F);
	sync();
	return 0;
}
