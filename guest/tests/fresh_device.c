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
 *  4. a streaming writer starts on it, traced (balance_dirty_pages), and
 *     its wb is sampled every SAMPLE_MS for FRESH_S;
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
 *    took came with its device holding at least the freerun ceiling of its
 *    own budget (the midpoint of the budget and its background level, 3/4
 *    of the budget at these dirty_bytes), less the counters' error
 *    (ERR_PAGES). The domain runs free below its freerun ceiling (48 MiB):
 *    the slow disk's budget (4 MiB at 4 MiB/s) plus the new device's (its
 *    bandwidth times BUDGET_MS, 16 MiB) stay under it, so only the new
 *    device's own budget can pause its writer. Off, its share starts at 0
 *    and the slow disk holds the domain past its freerun ceiling: stock
 *    pauses it while its device holds almost nothing. At least one paused
 *    call is required, or there is nothing to judge.
 *  - not_stalled: no balance_dirty_pages() call holds the writer longer
 *    than one pause of at most MAX_PAUSE (the budget's drain floor never
 *    stops a writer: only a stop at task_ratelimit 0 pauses a call twice).
 * Off, starts_at_floor, measured_within and paused_only_past_own_ceiling
 * must fail (off.*_fails_on_stock); stock's longest call is printed beside
 * the on row. Throughputs are printed for information: timing belongs to
 * the bench (a bandwidth estimate that collapses between batched
 * completions is device_limit's estimate_not_collapsed).
 */
#include "pddt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
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
 * call past the budget's background level; the interval it closes is
 * measured by the next update, queued by completions once the estimate is
 * BANDWIDTH_INTERVAL (200 ms) old. Two intervals, plus the writer's first
 * call and the flusher's scheduling: 1 s.
 */
#define MEASURE_S	1.0
#define MAX_PAUSE_MS	200	/* MAX_PAUSE: HZ / 5 */
/* wb_stat_error(): a per-CPU batch of 16 pages on each of 2 vCPUs */
#define ERR_PAGES	32
#define SEED		0xf7e5

struct mode {
	const char *name;
	int ms;
};

/* What the trace says of the new device's writer. */
struct calls {
	struct pddt_bdp_trace sum;	/* its calls, as every test sums them */
	long paused;		/* events with a pause */
	long below;		/* of which with its device under its own ceiling */
	char first_below[512];	/* the first of those */
};

static void count_call(double t __attribute__((unused)), pid_t pid __attribute__((unused)),
		       const char *ev, void *arg)
{
	struct calls *c = arg;
	long limit = pddt_bdp_field(ev, "wb_limit");

	pddt_bdp_sum(&c->sum, ev);
	if (pddt_bdp_field(ev, "pause") <= 0)
		return;
	c->paused++;
	/* off, wb_limit is the domain's threshold: its freerun ceiling */
	if (pddt_bdp_field(ev, "bdi_dirty") >= 3 * limit / 4 - ERR_PAGES)
		return;
	if (!c->below++)
		snprintf(c->first_below, sizeof(c->first_below), "%.*s",
			 (int)strcspn(ev, "\n"), ev);
}

/*
 * A check of the mechanism: on, PASS if @ok; off, it must fail on stock:
 * named <mode>.<what>_fails_on_stock, PASS if !@ok.
 */
static int judge(const struct mode *m, const char *what, int ok, const char *detail)
{
	char name[96];

	snprintf(name, sizeof(name), "fresh_device.%s.%s%s", m->name, what,
		 m->ms ? "" : "_fails_on_stock");
	return pddt_check(name, m->ms ? ok : !ok, "%s", detail);
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

	while (pddt_now() < end) {
		if (pddt_wb_sample("/mnt/slow", 0, s))
			break;
		ceiling = 3 * (s->wb_limited ? s->wb_limit : s->dirty_thresh) / 4;
		if (s->dirty >= ceiling)
			return 0;
		usleep(100000);
	}
	return pddt_result("fresh_device.slow_saturated", PDDT_FAIL,
			   "%s: the slow disk held %lld kB, not its freerun ceiling %lld kB, within %d s",
			   m->name, s->dirty, ceiling, SATURATE_MAX_S);
}

static int run_mode(const struct mode *m, long *longest_ms)
{
	struct pddt_stream *slow_st = pddt_shared(sizeof(*slow_st));
	struct pddt_stream *st = pddt_shared(sizeof(*st));
	struct pddt_wb_sample before, s;
	struct pddt_budget_terms terms;
	struct pddt_bdp_trace *tr;
	static struct calls calls;
	char nb[32], mnt[48], dev[48], file[80], detail[768], val[16];
	double t0, measured_at = -1;
	long long floor_kb, dev0 = 0, dev1 = 0;
	int fails = 0, ran;
	pid_t slow, w;

	snprintf(nb, sizeof(nb), "pddt-fresh-%s", m->name);
	snprintf(mnt, sizeof(mnt), "/mnt/%s", nb);
	snprintf(file, sizeof(file), "%s/stream.dat", mnt);
	pddt_write_file(TIME_MS, "0");
	if (pddt_nullb_mount(nb, FRESH_MB, FRESH_MBPS, mnt, dev, sizeof(dev)))
		return pddt_result("fresh_device.set_up", PDDT_FAIL,
				   "%s: cannot make null_blk %s with ext2 on it: %s", m->name, nb,
				   strerror(errno));
	sync();
	snprintf(val, sizeof(val), "%d", m->ms);
	if (pddt_write_file(TIME_MS, val))
		pddt_die("cannot set %s to %s", TIME_MS, val);

	slow = pddt_stream_start("/mnt/slow/fresh-slow.dat", SEED, SLOW_WRAP, 64 << 10, slow_st);
	if (saturate(m, &s)) {
		fails++;
		goto out;
	}
	if (pddt_wb_sample(mnt, 0, &before) || pddt_budget_terms(mnt, &terms))
		pddt_die("cannot read the stats of %s", dev);
	floor_kb = pddt_budget_kb(0, BUDGET_MS, before.dirty_thresh, &terms);
	snprintf(detail, sizeof(detail),
		 "before it was written: limited %lld, budget %lld kB, bandwidth %lld kB/s; the floor (4 x %lld kB) %lld kB; slow disk held %lld kB",
		 before.wb_limited, before.wb_limit, before.bw, terms.io_pages * 4, floor_kb,
		 s.dirty);
	fails += judge(m, "starts_at_floor", before.wb_limited == 1 && before.bw == 0 &&
		       before.wb_limit == floor_kb, detail);

	pddt_dev_written_kb(mnt, &dev0);
	w = pddt_stream_start(file, SEED + 1, FRESH_WRAP, 64 << 10, st);
	if (pddt_bdp_trace_start(w))
		pddt_die("cannot trace balance_dirty_pages");
	t0 = pddt_now();
	for (int i = 1; i <= FRESH_S * 1000 / SAMPLE_MS; i++) {
		pddt_sleep_until(t0 + i * SAMPLE_MS / 1000.0);
		if (!pddt_wb_sample(mnt, 0, &s) && s.bw > 0 && measured_at < 0)
			measured_at = pddt_now() - t0;
	}
	pddt_dev_written_kb(mnt, &dev1);
	ran = pddt_stream_stop(w);
	memset(&calls, 0, sizeof(calls));
	if (pddt_bdp_trace_each(w, count_call, &calls))
		pddt_die("cannot read the trace, or it dropped events");
	tr = &calls.sum;
	pddt_bdp_sum_end(tr);
	*longest_ms = tr->longest.ms > tr->longest_stock.ms ? tr->longest.ms : tr->longest_stock.ms;
	snprintf(detail, sizeof(detail),
		 "bandwidth (WbLimitBandwidth) %s%.2f s after the writer started, %lld kB/s at the end",
		 measured_at < 0 ? "not measured in " : "measured ",
		 measured_at < 0 ? (double)FRESH_S : measured_at, s.bw);
	fails += judge(m, "measured_within", measured_at >= 0 && measured_at <= MEASURE_S,
		       detail);
	snprintf(detail, sizeof(detail),
		 "%ld of %ld paused calls with the device under 3/4 of wb_limit - %d pages; the writer wrote %.1f MiB in %d s, the device %.1f MiB; first: %s",
		 calls.below, calls.paused, ERR_PAGES, st->bytes / 1048576.0, FRESH_S,
		 (dev1 - dev0) / 1024.0, calls.below ? calls.first_below : "none");
	fails += judge(m, "paused_only_past_own_ceiling", calls.paused > 0 && !calls.below,
		       detail);
	if (m->ms)
		fails += pddt_check("fresh_device.on.not_stalled",
				    tr->events > 0 && tr->longest.ms <= MAX_PAUSE_MS &&
				    !tr->stock_calls,
				    "longest balance_dirty_pages() call %ld ms over %ld pause(s) (at most one of %d ms), %ld stopped by stock's control; %ld events",
				    tr->longest.ms, tr->longest.pauses, MAX_PAUSE_MS,
				    tr->stock_calls, tr->events);
	fails += pddt_check("fresh_device.writer_ran", ran,
			    "%s: the new device's writer ran until stopped", m->name);
out:
	fails += pddt_check("fresh_device.slow_writer_ran", pddt_stream_stop(slow),
			    "%s: the slow disk's writer ran until stopped", m->name);
	pddt_drop_caches();
	fails += pddt_check("fresh_device.data_intact",
			    intact("/mnt/slow/fresh-slow.dat", slow_st->bytes, SLOW_WRAP, SEED) &&
			    (!st->bytes || intact(file, st->bytes, FRESH_WRAP, SEED + 1)),
			    "%s: both files read back intact after sync and drop_caches (%.1f and %.1f MiB written)",
			    m->name, slow_st->bytes / 1048576.0, st->bytes / 1048576.0);
	unlink("/mnt/slow/fresh-slow.dat");
	umount(mnt);
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
	return fails > 0;
}
