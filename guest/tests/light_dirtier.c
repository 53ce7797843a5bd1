// SPDX-License-Identifier: GPL-2.0
/*
 * light_dirtier - light dirtiers (vm.dirty_light_percent), off and on in one
 * boot.
 *
 * 1. vm.dirty_light_percent reads 0 (off: stock) at the start and takes
 *    0..100; anything else is EINVAL and leaves the value as it was.
 *
 * 2. On the slow disk streaming writers run; beside them a restrained one
 *    writes a burst of BURST_KB, then idles BURST_GAP_MS. The
 *    writeback:balance_dirty_pages tracepoint fires for each call past the
 *    freerun ceiling: light=0, throttled (pause > 0, or <= 0 when think time
 *    was banked; task_ratelimit 0 at a hard limit), or light=1, exempt, the
 *    calls stock throttles (task_ratelimit > 0) that the series lets go
 *    (pause 0). It is filtered on the restrained writer, the first streaming
 *    writer and light == 1 from any task: an exempt call of any of 16
 *    streaming writers is seen. Three phases, in this order:
 *      on_16  25 %, 16 streaming writers: first, as it needs the dirty pages
 *             at 0 when they start (below)
 *      off    0, one streaming writer: stock, the negative control
 *      on_1   25 %, one streaming writer
 *    vm.dirty_device_time_ms stays 0 (stock's device control): a time budget
 *    adds its own hard limit (wb_limit) and moves the contested state; its
 *    own test covers it.
 *
 *    The contested state: a streaming writer holds Dirty + Writeback past
 *    the freerun ceiling as bursts start. Each call of such a burst finds the
 *    domain past the ceiling unless the disk drained it meanwhile, and one
 *    comes within the first 100 pages (the poll interval: 64 pages under a
 *    48 MiB ceiling, dirty_poll_interval(); past it, what wb_min_pause()
 *    sets, dirty_ratelimit for at most 101 ms, about 100 pages at 4 MiB/s),
 *    less than a burst of 128. So in a phase with more than half of its
 *    bursts contested, not one call of the restrained writer traced below the
 *    hard limits is a FAIL. ext4 journal stalls of seconds (debug kernel)
 *    hold the streaming writers while the disk drains the domain, so the
 *    state comes and goes: a phase that met it in at most half of its bursts
 *    and traced no such call shows nothing either way and SKIPs, which only
 *    tests/manifest/debug allows.
 *
 *    off: the restrained writer is throttled below the hard limits (a call
 *    with light=0, dirty < limit, task_ratelimit > 0): the rule of on_*
 *    fails on stock, in the same boot. No task has a call with light=1.
 *
 *    on_*: the restrained writer is exempt below the hard limits: calls
 *    with light=1, and none with pause > 0 (the exemption is asked only
 *    when a pause is due; a call whose pause is not due yet is traced with
 *    light=0 and pause <= 0, as on stock, and is not a pause). At a hard
 *    limit (dirty >= limit, the
 *    global domain's: the tests run in the root cgroup, no memcg domain;
 *    task_ratelimit 0; or a traced wb time budget's) it may be paused:
 *    counted apart. The mechanism's own limits, and BURST_KB and
 *    BURST_GAP_MS from them; bw is the slow disk's rate, 4 MiB/s = 1024
 *    pages/s (DISKS slow:4M, PDDT_BPS), its estimate avg_write_bandwidth
 *    what credit and pool are measured against:
 *    - credit: earned at 25 % of bw (256 pages/s) for the time outside
 *      balance_dirty_pages(), at most 1 s of bw (1024 pages), full for a
 *      fresh task; charged all it dirties. It covers every burst B if a gap
 *      G earns it, B <= bw / 4 * G, and the cap holds it, B <= bw * 1 s.
 *    - pool: one per wb, refilled at 25 % of bw for the time since its last
 *      refill, holding at most 1 s of bw: B <= bw / 4 * G and B <= bw * 1 s,
 *      while no other task takes.
 *    B = 512 KiB = 128 pages, G = 1 s idle after each: half of what a gap
 *    earns (and refills), an eighth of the cap. The margin of 2 lets the
 *    estimate read down to half the disk's rate (its least over the bursts
 *    is printed). At a slow disk's rate (DISKS) where this does not hold,
 *    on_* SKIP.
 *    The gap is idle time after the burst, not a schedule of one burst
 *    every G: time paused at a hard limit earns nothing, and in on_16 the
 *    streaming writers hold the domain there (Dirty + Writeback 63-66 MB as
 *    bursts start, a burst paused there up to 5.8 s): a writer on a fixed
 *    schedule starts its next burst at once, earns nothing between bursts
 *    and comes out of them short of credit (measured so: least credit -294
 *    pages, 14 calls paused below the hard limits, run 20261206-111415).
 *    Credit measures a task's rate outside the throttle; a writer held at
 *    a hard limit has no such time, whatever its rate over the wall clock.
 *
 *    Streaming writers are never exempt: every traced call of theirs has
 *    light=0. A streaming writer is charged all it dirties and earns only
 *    outside balance_dirty_pages(), little time for a task that writes all
 *    the time: its credit sits at the floor, minus 1 s of bw. One writer
 *    dirties 7/8 of bw or more; held outside for T s (earning 256 pages a
 *    second), it finds the domain drained by the disk meanwhile (1024 pages
 *    a second) and dirties that back in freerun, more than it earned: it
 *    stays in debt. 16 writers dirty bw / 16 each, a quarter of what they
 *    would earn outside, and stay in debt only because they are rarely
 *    outside. Not that rarely here: sixteen writers on two CPUs, blocked
 *    in the filesystem or waiting for a CPU outside the pauses, climb from
 *    the floor at 20 to 34 pages a second (the first one's credit, two
 *    runs of 25 and 28 s: -1052 to -551, -1049 to -92), so they reach 0,
 *    and would be light, after about 30 s. on_16 is kept to about half of
 *    that (below). So:
 *    - fresh, each holds 1 s of credit, and its 3 MiB of the freerun ceiling
 *      spends 3/4 of it (20 s throttled would take it to the floor): in
 *      on_16 each first dirties PRECHARGE_S of bw, twice what takes it from
 *      full to the floor, into a scratch file, 1 MiB at a time truncated
 *      after each, all at once, those done first going on until the last is
 *      (waiting would earn credit). Under 16 MiB dirty at a time: in
 *      freerun, under the background threshold, never written back. Each
 *      then streams as one that has streamed for a while.
 *    - held outside balance_dirty_pages() for more than about 4.7 s (4 s to
 *      climb from the floor, and its 1/16 of the freerun refill after), each
 *      of the 16 dirties on credit and takes from the pool the restrained
 *      writer needs: both on_16 checks then fail, with the credit of the
 *      streaming writers' calls printed.
 *    Otherwise the number of streaming writers does not matter: credit is
 *    per task and the pool per wb; neither is a share.
 *
 * 3. Every byte written is read back after sync and drop_caches (the
 *    phases' at the end), but the truncated scratch files. Burst latencies,
 *    alone and in each phase, are printed for information only: timing
 *    belongs to the bench.
 */
#include "pddt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIGHT "/proc/sys/vm/dirty_light_percent"
#define DEVICE_TIME "/proc/sys/vm/dirty_device_time_ms"

#define LIGHT_PCT	25
#define BURSTS		10
#define IDLE_BURSTS	5
#define BURST_KB	512
#define BURST_GAP_MS	1000
#define MARGIN		2	/* of the burst under what credit and pool allow */
#define HEAVY_MAX	16
#define PRECHARGE_S	4	/* of the disk's bandwidth, dirtied and truncated */
#define SETTLE_MAX_S	20	/* after the warm-up, for the contested state */
#define FREERUN_KB	((PDDT_DIRTY_KB + PDDT_BG_KB) / 2)	/* dirty_freerun_ceiling() */
#define MAX_EVENTS	50000

struct phase {
	const char *name;
	int pct;		/* vm.dirty_light_percent */
	int heavy;		/* streaming writers */
	int warmup_s;		/* before the restrained writer starts */
	int precharge;		/* the streaming writers start at the floor */
	int bursts;		/* of the restrained writer, at most BURSTS */
};

/*
 * on_16 starts from the dirty pages at 0 (after the idle bursts and a sync):
 * its streaming writers dirty their scratch files in freerun, which leaves
 * them at the floor, and reach the hard limit within its warm-up of 2 s.
 * From the floor they have about 30 s in debt (the header): 2 s, the wait
 * for the contested state, and 6 bursts of 1 s idle and 0.8 to 1.5 s each
 * (p50s measured) come to about 17 s; bursts held at the hard limit for
 * 4.9 and 6.5 s made it 23 s in one run, and the first streaming writer
 * ended it at -248 pages (35 pages a second): the margin is thin. off and
 * on_1 start with the pages the writers before them left past the freerun
 * ceiling: off's warm-up lets dirty_ratelimit climb from 16 writers' rate to
 * one's; on_1's writer (fresh, 1 s of credit) spends its credit and the pool
 * within about 2 s past the ceiling, and the pool refills 3 bursts' worth in
 * 1.5 s.
 */
static const struct phase phases[] = {
	{ "on_16", LIGHT_PCT, 16, 2, 1, 6 },
	{ "off", 0, 1, 8, 0, BURSTS },
	{ "on_1", LIGHT_PCT, 1, 5, 0, BURSTS },
};
#define NPHASES (sizeof(phases) / sizeof(phases[0]))

/* What the restrained writer reports, in shared memory. */
struct light_out {
	volatile int go;		/* set once the trace is on */
	double ms[BURSTS];		/* burst durations */
	double dirty_kb[BURSTS];	/* Dirty + Writeback as a burst starts */
	double bw_kbps[BURSTS];		/* the disk's WbWriteBandwidth after it */
};

/* The streaming writers of a phase, in shared memory. */
struct heavy_set {
	struct pddt_stream st[HEAVY_MAX];
	int done;			/* writers done with the pre-charge */
	volatile int failed;
	int n;
};

/* One traced call. */
struct bdp_ev {
	pid_t pid;
	int light, limited;
	long pause, dirtied, credit, task_ratelimit;
	long dirty, limit, bdi_dirty, wb_limit;
};

/* The files a phase wrote, read back at the end. */
struct written {
	char heavy[HEAVY_MAX][128];
	uint64_t heavy_seed[HEAVY_MAX];
	int nheavy;
	char light[128];
	uint64_t light_seed;
	double secs;
};

static long long disk_bps;	/* the slow disk's write rate, bytes/s, or -1 */

static int test_sysctl(void)
{
	static const char *const good[] = { "0", "1", "25", "100", "50\n" };
	static const struct pddt_bad_input bad[] = {
		{ "negative", "-1" }, { "too_large", "101" },
		{ "huge", "99999999999999999999" }, { "non_numeric", "x" },
		{ "trailing_junk", "25x" }, { "empty_line", "\n" }, { "empty", "" },
	};

	return pddt_check_int_sysctl("light_dirtier.sysctl", LIGHT,
				     good, sizeof(good) / sizeof(good[0]),
				     bad, sizeof(bad) / sizeof(bad[0]), 25);
}

/* The slow disk's avg_write_bandwidth (root wb), kB/s, or -1. */
static double disk_bw_kbps(const char *path)
{
	struct bdi_stats w;

	if (wb_stats_read(path, 1, &w) || !bdi_stat_has(&w, "WbWriteBandwidth"))
		return -1;
	return bdi_stat(&w, "WbWriteBandwidth");
}

/*
 * @n bursts, each followed by BURST_GAP_MS idle (not one burst every
 * BURST_GAP_MS: the header says why), once @out->go is set.
 */
static void light_writer(const char *file, uint64_t seed, int n, struct light_out *out)
{
	uint64_t off = 0;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	double t0 = pddt_now();

	if (fd < 0)
		_exit(2);
	while (!out->go) {
		if (pddt_now() - t0 > 30)
			_exit(4);
		usleep(1000);
	}
	for (int b = 0; b < n; b++) {
		out->dirty_kb[b] = pddt_meminfo_kb("Dirty") + pddt_meminfo_kb("Writeback");
		out->ms[b] = pddt_write_burst(fd, BURST_KB * 1024, seed, &off);
		if (out->ms[b] < 0)
			_exit(3);
		out->bw_kbps[b] = disk_bw_kbps(file);
		if (b + 1 < n)
			pddt_sleep_until(pddt_now() + BURST_GAP_MS / 1000.0);
	}
	close(fd);
	_exit(0);
}

/*
 * A streaming writer; with @precharge it first dirties @bytes, 1 MiB at a
 * time into a scratch file it truncates after each, and goes on until every
 * writer of @hs has: one that waited would earn credit meanwhile.
 */
static void heavy_writer(const char *file, uint64_t seed, int idx, int precharge,
			 long long bytes, struct heavy_set *hs)
{
	if (precharge) {
		char scratch[160];
		long long done = 0;
		int fd;

		snprintf(scratch, sizeof(scratch), "%s.scratch", file);
		fd = open(scratch, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			hs->failed = 1;
		while (fd >= 0 && !hs->failed &&
		       (done < bytes || __atomic_load_n(&hs->done, __ATOMIC_SEQ_CST) < hs->n)) {
			if (pddt_write_pattern(fd, 1 << 20, seed, 1 << 20) || ftruncate(fd, 0) ||
			    lseek(fd, 0, SEEK_SET)) {
				hs->failed = 1;
				break;
			}
			done += 1 << 20;
			if (done == bytes)
				__atomic_add_fetch(&hs->done, 1, __ATOMIC_SEQ_CST);
		}
		if (fd >= 0)
			close(fd);
		unlink(scratch);
		if (hs->failed)
			_exit(4);
	}
	pddt_stream_writer(file, seed, 0, 1 << 20, &hs->st[idx]);
}

struct ev_list {
	struct bdp_ev *ev;
	long n, max;
};

static void add_ev(double t __attribute__((unused)), pid_t pid, const char *text,
		   void *arg)
{
	struct ev_list *l = arg;
	struct bdp_ev *e = &l->ev[l->n < l->max ? l->n : l->max - 1];

	e->pid = pid;
	e->light = pddt_bdp_field(text, "light");
	e->limited = pddt_bdp_field(text, "limited");
	e->pause = pddt_bdp_field(text, "pause");
	e->dirtied = pddt_bdp_field(text, "dirtied");
	e->credit = pddt_bdp_field(text, "credit");
	e->task_ratelimit = pddt_bdp_field(text, "task_ratelimit");
	e->dirty = pddt_bdp_field(text, "dirty");
	e->limit = pddt_bdp_field(text, "limit");
	e->bdi_dirty = pddt_bdp_field(text, "bdi_dirty");
	e->wb_limit = pddt_bdp_field(text, "wb_limit");
	l->n++;
}

/*
 * Stop tracing and read every traced call into @ev: their number, or -1 if
 * the trace cannot be read, dropped events, or held more than @max.
 */
static long trace_stop(struct bdp_ev *ev, long max)
{
	struct ev_list l = { ev, 0, max };

	if (pddt_bdp_trace_each(0, add_ev, &l) || l.n > max)
		return -1;
	return l.n;
}

/* The call was at a hard limit: of the global domain, or the wb's budget. */
static int at_hard_limit(const struct bdp_ev *e)
{
	return !e->task_ratelimit || e->dirty >= e->limit ||
	       (e->limited && e->bdi_dirty >= e->wb_limit);
}

static int is_heavy(pid_t pid, const pid_t *heavy, int n)
{
	for (int i = 0; i < n; i++)
		if (heavy[i] == pid)
			return 1;
	return 0;
}

/* Whether bursts of BURST_KB, BURST_GAP_MS apart, fit credit and pool at @bps. */
static int bursts_fit(long long bps)
{
	double b = BURST_KB * 1024.0 * MARGIN;
	double gap = BURST_GAP_MS / 1000.0;

	return bps > 0 && b <= bps * LIGHT_PCT / 100.0 * (gap < 1 ? gap : 1) &&
	       b <= (double)bps;
}

/*
 * The restrained writer's bursts alone: its p50, in ms, or -1; *@bad: the
 * bytes that differ when read back after sync and drop_caches.
 */
static double idle_p50(const char *disk, long long *bad)
{
	struct light_out *out = pddt_shared(sizeof(*out));
	char file[128];
	double p50 = -1;
	pid_t light;
	int st;

	pddt_disk_path(disk, "idle.dat", file, sizeof(file));
	out->go = 1;
	light = fork();
	if (!light)
		light_writer(file, 0x1d1e, IDLE_BURSTS, out);
	waitpid(light, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		pddt_sort(out->ms, IDLE_BURSTS);
		p50 = out->ms[IDLE_BURSTS / 2];
		printf("pddt: light_dirtier: restrained writer alone: %d bursts of %d KiB, p50 %.0f ms, max %.0f ms\n",
		       IDLE_BURSTS, BURST_KB, p50, out->ms[IDLE_BURSTS - 1]);
	}
	pddt_drop_caches();
	*bad = pddt_verify_pattern(file, (uint64_t)IDLE_BURSTS * BURST_KB * 1024, 0x1d1e);
	unlink(file);
	sync();
	munmap(out, sizeof(*out));
	return p50;
}

static int run_phase(const char *disk, int idx, double idle_ms, struct written *w)
{
	const struct phase *ph = &phases[idx];
	struct light_out *out = pddt_shared(sizeof(*out));
	struct heavy_set *hs = pddt_shared(sizeof(*hs));
	struct bdp_ev *ev = malloc(MAX_EVENTS * sizeof(*ev));
	char name[96], filter[128], val[16], file[96];
	long long bytes = PRECHARGE_S * (disk_bps > 0 ? disk_bps : 4 << 20);
	pid_t heavy[HEAVY_MAX], light;
	int fails = 0, st, terr, contested = 0, running = 0, fit = bursts_fit(disk_bps);
	long n, l_ev = 0, l_below = 0, l_exempt = 0, l_thr = 0, l_thr_paused = 0;
	long l_short = 0, l_pool = 0, l_limit = 0, l_limit_paused = 0;
	long h_ev = 0, h_paused = 0, h_exempt = 0, o_exempt = 0, o_pages = 0;
	long l_min_credit = 0, h_max_credit = 0, h1_credit[2] = { 0, 0 };
	double t0, dirty, bw_min = -1, ms[BURSTS];

	if (!ev)
		pddt_die("no memory for %d trace events", MAX_EVENTS);
	/* whole MiB, at most half the background threshold */
	bytes = (bytes + (1 << 20) - 1) & ~((1LL << 20) - 1);
	if (bytes > (long long)PDDT_BG_KB * 1024 / 2)
		bytes = (long long)PDDT_BG_KB * 1024 / 2;
	snprintf(val, sizeof(val), "%d", ph->pct);
	if (pddt_write_file(LIGHT, val))
		pddt_die("cannot set %s to %d", LIGHT, ph->pct);

	hs->n = ph->heavy;
	w->nheavy = ph->heavy;
	t0 = pddt_now();
	for (int i = 0; i < ph->heavy; i++) {
		snprintf(file, sizeof(file), "heavy-%s-%d.dat", ph->name, i);
		pddt_disk_path(disk, file, w->heavy[i], sizeof(w->heavy[i]));
		w->heavy_seed[i] = 0x4ea70000ULL + idx * 0x100 + i;
		heavy[i] = fork();
		if (heavy[i] < 0)
			pddt_die("fork: %s", strerror(errno));
		if (!heavy[i])
			heavy_writer(w->heavy[i], w->heavy_seed[i], i, ph->precharge, bytes, hs);
	}
	if (ph->precharge) {
		while (__atomic_load_n(&hs->done, __ATOMIC_SEQ_CST) < ph->heavy && !hs->failed &&
		       pddt_now() - t0 < 120)
			usleep(10000);
		snprintf(name, sizeof(name), "light_dirtier.%s.precharged", ph->name);
		if (hs->done < ph->heavy)
			hs->failed = 1;		/* lets them go */
		fails += pddt_check(name, hs->done == ph->heavy && !hs->failed,
				    "%d of %d streaming writers dirtied %lld MiB each, 1 MiB at a time truncated, in %.1f s%s",
				    hs->done, ph->heavy, bytes >> 20, pddt_now() - t0,
				    hs->failed ? "; a scratch write failed" : "");
		t0 = pddt_now();
	}
	sleep(ph->warmup_s);
	/* the contested state; if it never comes, the checks below say so */
	do {
		dirty = pddt_meminfo_kb("Dirty") + pddt_meminfo_kb("Writeback");
		if (dirty > FREERUN_KB)
			break;
		usleep(200000);
	} while (pddt_now() - t0 < ph->warmup_s + SETTLE_MAX_S);
	printf("pddt: light_dirtier %s: %d streaming writer(s), light %d %%: settled after %.1f s: dirty+writeback %.0f kB (freerun ceiling %d kB)\n",
	       ph->name, ph->heavy, ph->pct, pddt_now() - t0, dirty, FREERUN_KB);
	/*
	 * Credit is earned at a share of the bandwidth measured between
	 * writeback completions (WbLimitBandwidth), which is measured only
	 * while the sysctl is on: until the disk's first completions after
	 * it, a task's credit is next to nothing. The restrained writer
	 * starts once it is measured.
	 */
	if (ph->pct) {
		struct pddt_wb_sample smp;
		char mnt[128];
		double m0 = pddt_now();
		int measured = 0;

		pddt_disk_path(disk, ".", mnt, sizeof(mnt));
		while (!(measured = !pddt_wb_sample(mnt, 0, &smp) && smp.bw > 0) &&
		       pddt_now() - m0 < SETTLE_MAX_S)
			usleep(100000);
		snprintf(name, sizeof(name), "light_dirtier.%s.bandwidth_measured", ph->name);
		fails += pddt_check(name, measured,
				    "WbLimitBandwidth %lld kB/s after %.1f s (at most %d s)",
				    measured ? smp.bw : 0, pddt_now() - m0, SETTLE_MAX_S);
	}

	w->light_seed = 0x11970ULL + idx;
	snprintf(file, sizeof(file), "light-%s.dat", ph->name);
	pddt_disk_path(disk, file, w->light, sizeof(w->light));
	light = fork();
	if (!light)
		light_writer(w->light, w->light_seed, ph->bursts, out);
	snprintf(filter, sizeof(filter), "common_pid == %d || common_pid == %d || light == 1",
		 (int)light, (int)heavy[0]);
	snprintf(name, sizeof(name), "light_dirtier.%s.traced", ph->name);
	terr = pddt_bdp_trace_filter(filter);
	out->go = 1;
	waitpid(light, &st, 0);
	n = trace_stop(ev, MAX_EVENTS);
	fails += pddt_check(name, !terr && n >= 0,
			    "writeback:balance_dirty_pages filtered '%s': %s, %ld calls read%s",
			    filter, terr ? strerror(-terr) : "on", n,
			    n < 0 ? " (unreadable, or events lost)" : "");
	for (int i = 0; i < ph->heavy; i++)
		running += pddt_stream_stop(heavy[i]);
	w->secs = pddt_now() - t0;

	snprintf(name, sizeof(name), "light_dirtier.%s.writers_ran", ph->name);
	fails += pddt_check(name, WIFEXITED(st) && WEXITSTATUS(st) == 0 && running == ph->heavy,
			    "restrained writer exit status %d; %d of %d streaming writers ran to the end",
			    st, running, ph->heavy);

	for (long i = 0; i < n; i++) {
		const struct bdp_ev *e = &ev[i];

		if (e->pid == light) {
			if (!l_ev || e->credit < l_min_credit)
				l_min_credit = e->credit;
			l_ev++;
			if (at_hard_limit(e)) {
				l_limit++;
				l_limit_paused += e->pause > 0;
				continue;
			}
			l_below++;
			if (e->light) {
				l_exempt++;
				continue;
			}
			l_thr++;
			/* not due yet: the exemption was not asked */
			if (e->pause <= 0)
				continue;
			l_thr_paused++;
			if (e->credit < e->dirtied)
				l_short++;
			else
				l_pool++;
		} else if (is_heavy(e->pid, heavy, ph->heavy)) {
			if (e->pid == heavy[0]) {
				if (!h_ev || e->credit < h1_credit[0])
					h1_credit[0] = e->credit;
				if (!h_ev || e->credit > h1_credit[1])
					h1_credit[1] = e->credit;
				h_ev++;
				h_paused += e->pause > 0;
			}
			if (e->light) {
				if (!h_exempt || e->credit > h_max_credit)
					h_max_credit = e->credit;
				h_exempt++;
			}
		} else if (e->light) {
			o_exempt++;
			o_pages += e->dirtied;
		}
	}
	for (int b = 0; b < ph->bursts; b++) {
		contested += out->dirty_kb[b] > FREERUN_KB;
		if (out->bw_kbps[b] >= 0 && (bw_min < 0 || out->bw_kbps[b] < bw_min))
			bw_min = out->bw_kbps[b];
	}
	printf("pddt: light_dirtier %s: each burst, Dirty+Writeback kB as it started / its ms:", ph->name);
	for (int b = 0; b < ph->bursts; b++)
		printf(" %.0f/%.0f", out->dirty_kb[b], out->ms[b]);
	memcpy(ms, out->ms, sizeof(ms));
	pddt_sort(ms, ph->bursts);
	printf("\npddt: light_dirtier %s: restrained writer %d KiB bursts: p50 %.0f ms (%.1fx its idle p50 of %.0f ms), max %.0f ms; disk bandwidth estimate min %.0f kB/s; "
	       "its calls %ld: below the hard limits %ld exempt, %ld not (%ld paused: %ld short of credit, %ld refused by the pool), at them %ld (%ld paused), least credit %ld pages; "
	       "streaming writer 1: %ld calls, %ld paused, credit %ld to %ld pages; exempt calls of the %d streaming writers %ld; of other tasks %ld (%ld pages)\n",
	       ph->name, BURST_KB, ms[ph->bursts / 2], idle_ms > 0 ? ms[ph->bursts / 2] / idle_ms : 0, idle_ms,
	       ms[ph->bursts - 1], bw_min, l_ev, l_exempt, l_thr, l_thr_paused, l_short, l_pool,
	       l_limit, l_limit_paused, l_min_credit, h_ev, h_paused, h1_credit[0], h1_credit[1],
	       ph->heavy, h_exempt,
	       o_exempt, o_pages);

	if (!ph->pct) {
		/* the negative control: the rule of on_* fails on stock */
		snprintf(name, sizeof(name), "light_dirtier.%s.light_writer_throttled", ph->name);
		if (!l_below && 2 * contested <= ph->bursts)
			pddt_result(name, PDDT_SKIP, "not contested: %d of %d bursts started above the freerun ceiling of %d kB; %ld calls traced, %ld at the hard limits",
				    contested, ph->bursts, FREERUN_KB, l_ev, l_limit);
		else
			fails += pddt_check(name, l_thr > 0,
					    "throttled below the hard limits in %ld calls (%ld paused), at them %ld, of %ld traced; %d of %d bursts started above the freerun ceiling",
					    l_thr, l_thr_paused, l_limit, l_ev, contested, ph->bursts);
		snprintf(name, sizeof(name), "light_dirtier.%s.nobody_exempt", ph->name);
		fails += pddt_check(name, !l_exempt && !h_exempt && !o_exempt,
				    "light=1 calls: restrained writer %ld, streaming writers %ld, other tasks %ld (light off: none)",
				    l_exempt, h_exempt, o_exempt);
	} else {
		snprintf(name, sizeof(name), "light_dirtier.%s.light_writer_exempt", ph->name);
		if (!fit)
			pddt_result(name, PDDT_SKIP, "bursts of %d KiB with %d ms idle after each exceed what credit and pool allow, with a margin of %d, at the slow disk's %lld B/s",
				    BURST_KB, BURST_GAP_MS, MARGIN, disk_bps);
		else if (!l_below && 2 * contested <= ph->bursts)
			pddt_result(name, PDDT_SKIP, "not contested: %d of %d bursts started above the freerun ceiling of %d kB; %ld calls traced, %ld of them below the hard limits",
				    contested, ph->bursts, FREERUN_KB, l_ev, l_below);
		else
			fails += pddt_check(name, l_exempt > 0 && !l_thr_paused,
					    "below the hard limits %ld calls exempt, %ld not (of them %ld paused: short of credit %ld, least credit %ld pages; refused by the pool %ld, %ld pages taken by other tasks; the rest not due a pause); %ld at the hard limits (%ld paused); %d of %d bursts contested; bandwidth estimate min %.0f kB/s",
					    l_exempt, l_thr, l_thr_paused, l_short, l_min_credit, l_pool,
					    o_pages, l_limit, l_limit_paused, contested, ph->bursts, bw_min);
		snprintf(name, sizeof(name), "light_dirtier.%s.streaming_writers_not_exempt", ph->name);
		if (!h_ev && !h_exempt && 2 * contested <= ph->bursts)
			pddt_result(name, PDDT_SKIP, "not contested: %d of %d bursts started above the freerun ceiling; streaming writer 1 traced 0 calls",
				    contested, ph->bursts);
		else
			fails += pddt_check(name, h_ev > 0 && !h_exempt,
					    "streaming writer 1: %ld calls past the freerun ceiling, %ld paused, its credit %ld to %ld pages; exempt calls of the %d: %ld (most credit at one: %ld pages)",
					    h_ev, h_paused, h1_credit[0], h1_credit[1], ph->heavy, h_exempt,
					    h_max_credit);
	}
	free(ev);
	munmap(out, sizeof(*out));
	munmap(hs, sizeof(*hs));
	return fails;
}

/* Read back what a phase wrote (after sync and drop_caches) and remove it. */
static int verify_phase(int idx, const struct written *w)
{
	long long bad = 0, size = 0, b;
	struct stat sb;
	char name[96];
	int fails = 0, empty = 0;

	for (int i = 0; i < w->nheavy; i++) {
		b = stat(w->heavy[i], &sb) ? -1 : pddt_verify_pattern(w->heavy[i], sb.st_size,
								       w->heavy_seed[i]);
		empty += !b && !sb.st_size;
		bad = b < 0 || bad < 0 ? -1 : bad + b;
		size += b < 0 ? 0 : sb.st_size;
		unlink(w->heavy[i]);
	}
	snprintf(name, sizeof(name), "light_dirtier.%s.heavy_data_intact", phases[idx].name);
	fails += pddt_check(name, bad == 0 && !empty,
			    "%d files, %lld MiB, written in %.0f s, read back: %lld bytes differ (-1: unreadable)%s",
			    w->nheavy, size >> 20, w->secs, bad, empty ? "; a file is empty" : "");
	bad = pddt_verify_pattern(w->light, (uint64_t)phases[idx].bursts * BURST_KB * 1024,
				  w->light_seed);
	snprintf(name, sizeof(name), "light_dirtier.%s.light_data_intact", phases[idx].name);
	fails += pddt_check(name, bad == 0, "%d KiB read back: %lld bytes differ (-1: unreadable)",
			    phases[idx].bursts * BURST_KB, bad);
	unlink(w->light);
	return fails;
}

int main(void)
{
	const char *disk = getenv("PDDT_SLOW_DISK") ? getenv("PDDT_SLOW_DISK") : "slow";
	static struct written w[NPHASES];
	long long device_time = -1, start, bad;
	int fails = 0;
	double idle;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access(LIGHT, F_OK))
		return pddt_result("light_dirtier", PDDT_SKIP,
				   "no %s: kernel without the series", LIGHT);
	start = pddt_read_ll(LIGHT);
	fails += pddt_check("light_dirtier.sysctl.default", start == 0,
			    "%s reads %lld at the start, the default is 0 (off)", LIGHT, start);
	fails += test_sysctl();

	disk_bps = pddt_disk_bps(disk);
	printf("pddt: light_dirtier: slow disk '%s' at %lld B/s: bursts of %d KiB every %d ms %s credit and pool at %d %%\n",
	       disk, disk_bps, BURST_KB, BURST_GAP_MS,
	       bursts_fit(disk_bps) ? "fit" : "do not fit", LIGHT_PCT);
	if (!access(DEVICE_TIME, F_OK)) {
		device_time = pddt_read_ll(DEVICE_TIME);
		pddt_write_file(DEVICE_TIME, "0");
	}
	pddt_write_file(LIGHT, "0");
	pddt_set_dirty_bytes(PDDT_DIRTY_KB, PDDT_BG_KB);

	idle = idle_p50(disk, &bad);
	/* idle_p50() is -1 if the writer failed; 0 ms is a burst under a tick */
	fails += pddt_check("light_dirtier.idle.light_writer_ran", idle >= 0 && !bad,
			    "restrained writer alone: p50 burst %.1f ms; read back, %lld bytes differ (-1: unreadable)",
			    idle, bad);
	for (size_t i = 0; i < NPHASES; i++)
		fails += run_phase(disk, i, idle, &w[i]);

	pddt_write_file(LIGHT, "0");
	sync();
	pddt_drop_caches();
	for (size_t i = 0; i < NPHASES; i++)
		fails += verify_phase(i, &w[i]);
	sync();

	if (start >= 0 && start <= 100) {
		char val[16];

		snprintf(val, sizeof(val), "%lld", start);
		pddt_write_file(LIGHT, val);
	}
	if (device_time >= 0) {
		char val[24];

		snprintf(val, sizeof(val), "%lld", device_time);
		pddt_write_file(DEVICE_TIME, val);
	}
	pddt_default_dirty_ratios();
	return fails ? 1 : 0;
}
