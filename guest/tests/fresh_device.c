// SPDX-License-Identifier: GPL-2.0
/*
 * fresh_device - a device whose bandwidth the kernel has not measured,
 * written at once beside a saturated slow disk, off and on in one boot.
 *
 * A device's share of the dirty threshold starts at 0, and its time budget
 * (vm.dirty_device_time_ms) has no bandwidth to be built on until its first
 * writeback completes. Per mode, off (the sysctl 0: stock) then on
 * (BUDGET_MS):
 *  1. a memory-backed null_blk device (FRESH_MBPS MiB/s) is made, with
 *     ext2 on it, while the sysctl is 0: nothing is measured then, so the
 *     device is as one idle since boot;
 *  2. the mode's sysctl is set and a streaming writer saturates the slow
 *     disk: it holds the freerun ceiling of what its control lets it hold,
 *     three quarters of its budget on, of the domain's threshold off
 *     (bounded wait);
 *  3. the new device's wb is sampled before anything is written to it;
 *  4. a streaming writer starts on it once its balance_dirty_pages() calls
 *     are traced, and its wb is sampled every SAMPLE_MS for FRESH_S;
 *  5. both writers stop; both files read back intact after sync and
 *     drop_caches.
 * On:
 *  - starts_at_floor: before it is written, the wb is held by a budget
 *    (WbLimited), its bandwidth unmeasured (WbLimitBandwidth 0), and the
 *    budget (WbDirtyLimit) is the floor wb_dirty_budget() gives such a wb:
 *    four of its largest requests (or its min_ratio share), at most its
 *    max_ratio share; pddt_budget_kb() at bandwidth 0, exact.
 *  - measured_within: WbLimitBandwidth reads a bandwidth within MEASURE_S
 *    of the writer's start.
 *  - paused_only_past_own_ceiling: every pause the new device's writer
 *    took once its bandwidth was measured came with its device holding at
 *    least the freerun ceiling of its own budget (the midpoint of the
 *    budget and its background level, 3/4 of the budget at these
 *    dirty_bytes), less what the traced count may be off by (err_pages()).
 *    The domain runs free below its freerun ceiling (48 MiB): the slow
 *    disk's budget (4 MiB at 4 MiB/s) plus the new device's (its bandwidth
 *    times BUDGET_MS, 16 MiB) stay under it (domain_under_freerun checks
 *    that premise on the traced calls), so only the new device's own
 *    budget can pause its writer. At the floor, before the first
 *    measurement, the ceiling (93 pages) is within that error, and those
 *    calls are only counted. At least one judged pause is required.
 *  - not_stalled: no balance_dirty_pages() call holds the writer longer
 *    than one pause of at most MAX_PAUSE, after the work before it
 *    (PDDT_CALL_SLACK_MS): the budget's drain floor never stops a writer,
 *    and only a stop at task_ratelimit 0 pauses a call twice.
 * Off, the budget's control is stock's: no wb is limited and nothing is
 * measured (off.no_budget, off.nothing_measured: the mode took), and
 * paused_only_past_own_ceiling must fail: stock pauses the new device's
 * writer while its device holds far less than the domain's freerun
 * ceiling, because the slow disk holds the domain past it
 * (off.paused_only_past_own_ceiling_fails_on_stock: at least one such
 * pause). Stock's longest call is printed. Throughputs are printed for
 * information: timing belongs to the bench (a bandwidth estimate that
 * collapses between batched completions is device_limit's
 * estimate_not_collapsed).
 */
#include "pddt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TIME_MS		"/proc/sys/vm/dirty_device_time_ms"
#define BUDGET_MS	1000
/*
 * The new device: 16 MiB/s, so that its budget (16 MiB) and the slow
 * disk's stay under the domain's freerun ceiling; null_blk's largest
 * request (127 KiB by default) fits in one 20 ms quantum of it.
 */
#define FRESH_MBPS	16
#define FRESH_MB	96	/* memory-backed: guest RAM */
#define FRESH_WRAP	(32 << 20)	/* the writer rewrites its first 32 MiB */
#define SLOW_WRAP	(64 << 20)
#define FRESH_S		4
#define SAMPLE_MS	50
#define SATURATE_MAX_S	30
/*
 * The first completion comes at once (a request of 127 KiB at 16 MiB/s:
 * 8 ms), once background writeback has started from the writer's first
 * call past the budget's background level. The update that opens the
 * wb's first interval allows the next one BANDWIDTH_INTERVAL (200 ms)
 * later; a wb not yet measured takes completions found by updates for two
 * more intervals as a stream, and is measured then, or, if pages were in
 * flight as its measuring started, its interval opens again there and is
 * measured by the next update. Four intervals, plus the writer's first
 * call and the flusher's scheduling (0.6 s): 1.4 s.
 */
#define MEASURE_S	1.4
/* the domain's freerun ceiling at PDDT_DIRTY_KB and PDDT_BG_KB, in pages */
#define DOMAIN_FREERUN	((PDDT_DIRTY_KB + PDDT_BG_KB) / 2 / 4)
#define SEED		0xf7e5

struct mode {
	const char *name;
	int ms;
};

/* What the trace says of the new device's writer. */
struct calls {
	struct pddt_bdp_trace sum;	/* its calls, as every test sums them */
	long err;		/* what bdi_dirty may be off by, pages */
	long paused;		/* events with a pause, judged */
	long at_floor;		/* not judged: at the unmeasured floor */
	long changed;		/* not judged: the first call measured */
	long below;		/* judged, with its device under its own ceiling */
	long domain_over;	/* with the domain past its freerun ceiling */
	long prev_bw;		/* limit_bw of the event before */
	char first_below[512];	/* the first of those */
};

/*
 * What the traced bdi_dirty may be off by against what the pause was
 * decided on: its two per-CPU counters (reclaimable, writeback) each by
 * wb_stat_error(), nr_cpu_ids batches of WB_STAT_BATCH, 8 * (1 +
 * ilog2(nr_cpu_ids)) pages (wb_budget_freerun() allows the same twice), and
 * one of the device's largest requests completing in between.
 */
static long err_pages(long io_pages)
{
	char buf[64], *dash;
	int cpus, lg = 0;

	if (pddt_read_file("/sys/devices/system/cpu/possible", buf, sizeof(buf)) <= 0)
		return -1;
	dash = strchr(buf, '-');
	cpus = (dash ? atoi(dash + 1) : atoi(buf)) + 1;
	while ((2 << lg) <= cpus)
		lg++;
	return 2L * cpus * 8 * (1 + lg) + io_pages;
}

static void count_call(double t __attribute__((unused)), pid_t pid __attribute__((unused)),
		       const char *ev, void *arg)
{
	struct calls *c = arg;
	long limit = pddt_bdp_field(ev, "wb_limit"), bw = pddt_bdp_field(ev, "limit_bw");
	long prev = c->prev_bw;

	pddt_bdp_sum(&c->sum, ev);
	c->prev_bw = bw;
	if (pddt_bdp_field(ev, "pause") <= 0)
		return;
	c->domain_over += pddt_bdp_field(ev, "dirty") >= DOMAIN_FREERUN;
	/* the floor, whose ceiling is within the error */
	if (pddt_bdp_field(ev, "limited") && !bw) {
		c->at_floor++;
		return;
	}
	/*
	 * first measured between the call's freerun decision (at the floor)
	 * and its limits (at the measured budget): the budget jumped
	 */
	if (pddt_bdp_field(ev, "limited") && prev <= 0) {
		c->changed++;
		return;
	}
	c->paused++;
	/* off, wb_limit is the domain's threshold: its freerun ceiling */
	if (pddt_bdp_field(ev, "bdi_dirty") >= 3 * limit / 4 - c->err)
		return;
	if (!c->below++)
		snprintf(c->first_below, sizeof(c->first_below), "%.*s",
			 (int)strcspn(ev, "\n"), ev);
}

/* A result of mode @m: fresh_device.<mode>.<what>. */
static int check(const struct mode *m, const char *what, int ok, const char *detail)
{
	char name[96];

	snprintf(name, sizeof(name), "fresh_device.%s.%s", m->name, what);
	return pddt_check(name, ok, "%s: %s", m->name, detail);
}

/*
 * The file of a streaming writer that wrote @bytes, back at offset 0 every
 * @wrap, reads back as its pattern: all it holds, and at least what the
 * writer counted (a write() may have ended as it was stopped, uncounted).
 */
static int intact(const char *path, uint64_t bytes, uint64_t wrap, uint64_t seed)
{
	struct stat sb;

	return !stat(path, &sb) && (uint64_t)sb.st_size >= (bytes < wrap ? bytes : wrap) &&
	       !pddt_verify_pattern(path, sb.st_size, seed);
}

/* Wait (bounded) until the slow disk holds its freerun ceiling. */
static int saturate(const struct mode *m, struct pddt_wb_sample *s)
{
	double end = pddt_now() + SATURATE_MAX_S;
	long long ceiling = 0;
	char detail[160];

	while (pddt_now() < end) {
		if (pddt_wb_sample("/mnt/slow", 0, s))
			return check(m, "slow_saturated", 0, "cannot read the slow disk's bdi stats");
		ceiling = 3 * (s->wb_limited ? s->wb_limit : s->dirty_thresh) / 4;
		if (s->dirty >= ceiling)
			return 0;
		usleep(100000);
	}
	snprintf(detail, sizeof(detail),
		 "the slow disk held %lld kB, not its freerun ceiling %lld kB, within %d s",
		 s->dirty, ceiling, SATURATE_MAX_S);
	return check(m, "slow_saturated", 0, detail);
}

/*
 * The new device's streaming writer, held until released (a byte on
 * @gate), so that its first balance_dirty_pages() calls are traced.
 */
static pid_t gated_writer(const char *file, struct pddt_stream *st, int gate[2])
{
	pid_t pid;
	char c;

	if (pipe(gate))
		return -1;
	pid = fork();
	if (!pid) {
		close(gate[1]);
		if (read(gate[0], &c, 1) != 1)
			_exit(2);
		pddt_stream_writer(file, SEED + 1, FRESH_WRAP, 64 << 10, st);
	}
	close(gate[0]);
	if (pid < 0)
		close(gate[1]);
	return pid;
}

/* The sampled new device: the writer's first FRESH_S. */
struct fresh {
	struct pddt_wb_sample before, end;
	double measured_at;	/* s after the writer's start, or -1 */
	long long dev_kb;	/* what its block device wrote meanwhile */
};

/*
 * Release the gated writer @w once its calls are traced, and sample the new
 * device at @mnt for FRESH_S. 0, or a FAIL row's 1.
 */
static int sample_fresh(const struct mode *m, const char *mnt, pid_t w, int gate,
			struct fresh *f)
{
	long long dev0 = 0, dev1 = 0;
	double t0;

	if (pddt_bdp_trace_start(w))
		return check(m, "traced", 0, "cannot trace balance_dirty_pages");
	pddt_dev_written_kb(mnt, &dev0);
	t0 = pddt_now();
	if (write(gate, "x", 1) != 1)
		return check(m, "writer_started", 0, "cannot release the writer");
	f->measured_at = -1;
	for (int i = 1; i <= FRESH_S * 1000 / SAMPLE_MS; i++) {
		pddt_sleep_until(t0 + i * SAMPLE_MS / 1000.0);
		if (!pddt_wb_sample(mnt, 0, &f->end) && f->end.bw > 0 && f->measured_at < 0)
			f->measured_at = pddt_now() - t0;
	}
	pddt_dev_written_kb(mnt, &dev1);
	f->dev_kb = dev1 - dev0;
	return 0;
}

/* The checks of one mode on what was sampled and traced. */
static int judge(const struct mode *m, const struct fresh *f, const struct calls *c,
		 long long floor_kb, long io_pages, double wrote_mib)
{
	const struct pddt_bdp_trace *tr = &c->sum;
	char d[1024];
	int fails = 0;

	snprintf(d, sizeof(d),
		 "before it was written: limited %lld, budget %lld kB, bandwidth %lld kB/s; the floor (4 x %ld kB) %lld kB",
		 f->before.wb_limited, f->before.wb_limit, f->before.bw, io_pages * 4, floor_kb);
	if (m->ms)
		fails += check(m, "starts_at_floor", f->before.wb_limited == 1 && f->before.bw == 0 &&
			       f->before.wb_limit == floor_kb, d);
	else
		fails += check(m, "no_budget", !f->before.wb_limited && !f->end.wb_limited, d);
	snprintf(d, sizeof(d), "bandwidth (WbLimitBandwidth) %s%.2f s after the writer started, %lld kB/s at the end",
		 f->measured_at < 0 ? "not measured in " : "measured ",
		 f->measured_at < 0 ? (double)FRESH_S : f->measured_at, f->end.bw);
	if (m->ms)
		fails += check(m, "measured_within", f->measured_at >= 0 &&
			       f->measured_at <= MEASURE_S, d);
	else
		fails += check(m, "nothing_measured", f->measured_at < 0, d);
	snprintf(d, sizeof(d),
		 "%ld of %ld judged pauses with the device under 3/4 of wb_limit - %ld pages (%ld at the floor and %ld as it was first measured, not judged); the writer wrote %.1f MiB in %d s, the device %.1f MiB; first: %s",
		 c->below, c->paused, c->err, c->at_floor, c->changed, wrote_mib, FRESH_S,
		 f->dev_kb / 1024.0, c->below ? c->first_below : "none");
	if (m->ms) {
		fails += check(m, "paused_only_past_own_ceiling", c->paused > 0 && !c->below, d);
		snprintf(d, sizeof(d), "%ld paused calls with the domain at or past its freerun ceiling (%d pages)",
			 c->domain_over, DOMAIN_FREERUN);
		fails += check(m, "domain_under_freerun", !c->domain_over, d);
		snprintf(d, sizeof(d),
			 "longest balance_dirty_pages() call %ld ms over %ld pause(s) (at most one of %d ms + %d ms), %ld stopped by stock's control; %ld events",
			 tr->longest.ms, tr->longest.pauses, PDDT_MAX_PAUSE_MS, PDDT_CALL_SLACK_MS,
			 tr->stock_calls, tr->events);
		fails += check(m, "not_stalled", tr->events > 0 && tr->longest.pauses <= 1 &&
			       tr->longest.ms <= PDDT_MAX_PAUSE_MS + PDDT_CALL_SLACK_MS &&
			       !tr->stock_calls, d);
	} else {
		fails += check(m, "paused_only_past_own_ceiling_fails_on_stock",
			       c->paused > 0 && c->below > 0, d);
	}
	return fails;
}

static int run_mode(const struct mode *m, long *longest_ms)
{
	struct pddt_stream *slow_st = pddt_shared(sizeof(*slow_st));
	struct pddt_stream *st = pddt_shared(sizeof(*st));
	static struct calls calls;
	struct pddt_budget_terms terms;
	struct pddt_wb_sample s;
	struct fresh f;
	char nb[32], mnt[48], dev[48], file[80], d[160], val[16];
	long long floor_kb = 0;
	int fails = 0, gate[2] = { -1, -1 }, rc;
	pid_t slow, w;

	memset(&calls, 0, sizeof(calls));
	memset(&f, 0, sizeof(f));
	snprintf(nb, sizeof(nb), "pddt-fresh-%s", m->name);
	snprintf(mnt, sizeof(mnt), "/mnt/%s", nb);
	snprintf(file, sizeof(file), "%s/stream.dat", mnt);
	pddt_write_file(TIME_MS, "0");
	if (pddt_nullb_mount(nb, FRESH_MB, FRESH_MBPS, mnt, dev, sizeof(dev))) {
		snprintf(d, sizeof(d), "cannot make null_blk %s with ext2 on it: %s", nb,
			 strerror(errno));
		return check(m, "set_up", 0, d);
	}
	sync();
	snprintf(val, sizeof(val), "%d", m->ms);
	if (pddt_write_file(TIME_MS, val)) {
		fails += check(m, "set_up", 0, "cannot set vm.dirty_device_time_ms");
		goto out_dev;
	}

	slow = pddt_stream_start("/mnt/slow/fresh-slow.dat", SEED, SLOW_WRAP, 64 << 10, slow_st);
	if (saturate(m, &s)) {
		fails++;
		goto out;
	}
	if (pddt_wb_sample(mnt, 0, &f.before) || pddt_budget_terms(mnt, &terms)) {
		fails += check(m, "set_up", 0, "cannot read the new device's stats");
		goto out;
	}
	floor_kb = pddt_budget_kb(0, BUDGET_MS, f.before.dirty_thresh, &terms);
	calls.err = err_pages(terms.io_pages);
	calls.prev_bw = -1;
	if (calls.err < 0) {
		fails += check(m, "set_up", 0, "cannot read /sys/devices/system/cpu/possible");
		goto out;
	}
	w = gated_writer(file, st, gate);
	if (w < 0) {
		fails += check(m, "set_up", 0, "cannot fork the new device's writer");
		goto out;
	}
	rc = sample_fresh(m, mnt, w, gate[1], &f);
	close(gate[1]);	/* a writer never released reads 0 and exits */
	fails += rc;
	fails += check(m, "writer_ran", pddt_stream_stop(w),
		       "the new device's writer ran until stopped");
	/* stops the trace (and puts its clock back) whatever happened */
	if (pddt_bdp_trace_each(w, count_call, &calls)) {
		fails += check(m, "traced", 0, "cannot read the trace, or it dropped events");
	} else if (!rc) {
		pddt_bdp_sum_end(&calls.sum);
		*longest_ms = calls.sum.longest.ms > calls.sum.longest_stock.ms ?
			      calls.sum.longest.ms : calls.sum.longest_stock.ms;
		fails += judge(m, &f, &calls, floor_kb, terms.io_pages, st->bytes / 1048576.0);
	}
out:
	fails += check(m, "slow_writer_ran", pddt_stream_stop(slow),
		       "the slow disk's writer ran until stopped");
	pddt_drop_caches();
	snprintf(d, sizeof(d), "both files read back intact after sync and drop_caches (%.1f and %.1f MiB written)",
		 slow_st->bytes / 1048576.0, st->bytes / 1048576.0);
	fails += check(m, "data_intact",
		       intact("/mnt/slow/fresh-slow.dat", slow_st->bytes, SLOW_WRAP, SEED) &&
		       (!st->bytes || intact(file, st->bytes, FRESH_WRAP, SEED + 1)), d);
	unlink("/mnt/slow/fresh-slow.dat");
out_dev:
	if (umount(mnt)) {
		snprintf(d, sizeof(d), "umount %s: %s (detached lazily)", mnt, strerror(errno));
		fails += check(m, "unmount", 0, d);
		umount2(mnt, MNT_DETACH);
	}
	rmdir(mnt);
	pddt_nullb_remove(nb);
	return fails;
}

int main(void)
{
	static const struct mode modes[] = { { "off", 0 }, { "on", BUDGET_MS } };
	long longest[2] = { 0, 0 };
	int fails = 0;

	if (access(TIME_MS, F_OK))
		return pddt_result("fresh_device", PDDT_SKIP, "no %s: kernel without the series",
				   TIME_MS);
	if (access("/mnt/slow", F_OK))
		return pddt_result("fresh_device", PDDT_FAIL, "needs disk 'slow'");
	pddt_set_dirty_bytes(PDDT_DIRTY_KB, PDDT_BG_KB);
	for (int i = 0; i < 2; i++)
		fails += run_mode(&modes[i], &longest[i]);
	printf("pddt: fresh_device: longest balance_dirty_pages() call of the new device's writer: off %ld ms, on %ld ms\n",
	       longest[0], longest[1]);
	pddt_write_file(TIME_MS, "0");
	pddt_default_dirty_ratios();
	return fails > 0;
}
