// SPDX-License-Identifier: GPL-2.0
/*
 * slow_waits - how long a light writer, its fsync() and a sync wait on a
 * slow disk beside a streaming writer. The host sets the slow disk's
 * bandwidth to ARG bytes/s (suffix K or M: 256K, 1M, 4M) for the run and
 * back to its boot value after; reported as slow_waits_<ARG>.
 *
 * A streaming writer (1 MiB write()s) runs on the disk from the start; after
 * WARM_S, a light writer writes 4 KiB write()s paced to a quarter of ARG for
 * LIGHT_S seconds (quick: QUICK_S), traced, then fsync()s its file; then,
 * the streaming writer still running, the disk's filesystem is synced
 * (syncfs()); once it has waited SYNC_BESIDE_S, the streaming writer stops
 * (a sync may wait for pages dirtied after it started, and would then last
 * as long as the writer); both files are read back (make test).
 *
 * Figures: the light writer's longest write() and its p50, the time it
 * paused in balance_dirty_pages() within that longest write() (the
 * tracepoint) and the rest of it, its rate against the rate it asked; the
 * fsync() and the sync, in seconds, and whether the sync outlived the
 * streaming writer (sync_outlived_writer); the dirty and writeback pages
 * the disk held as the sync started (its bdi's, kB) and what its block
 * device wrote while the sync ran (sync_disk_wrote, kB: beyond what it held
 * and the journal's blocks, pages dirtied after the sync started); what
 * the disk wrote per second over the light writer's time against ARG
 * (over 1.5: the host did not throttle, and the run fails, before any
 * figure; at the disk's boot bandwidth, 4M, there is nothing to tell).
 *
 * Each wait against its bound (waits_vs_bound, the largest of the three
 * ratios, and each apart). A task that waits for the disk's writeback waits
 * for at most what the disk holds: the budget the disk gets at its set
 * bandwidth in mode on (B: PDDT_BUDGET_MS of ARG, never under the floor of
 * four of its largest requests: pddt_budget_kb()), plus what light
 * dirtiers may add beyond it (the pool: PDDT_LIGHT_PCT of a second of
 * bandwidth), plus the journal commit's own blocks (its logged blocks per
 * transaction since mount, /proc/fs/jbd2/<dev>/info): one pass, P =
 * (B + pool + logged blocks) / ARG. A write() waits for at most one
 * journal commit (do_get_write_access() on a buffer the committing
 * transaction holds) and one pause of balance_dirty_pages() (MAX_PAUSE,
 * 200 ms): P + 0.2 s. An fsync() waits for the committing transaction and
 * then its own: 2 P. A sync writes what the disk holds, then commits the
 * same way: 3 P. A sync beside a writer that goes on may go on waiting
 * until the writer stops (its wait for the file's writeback, and the
 * commit's for its ordered data, find the writer's new writeback ahead of
 * them; seen here with the budget on and off): once the writer has
 * stopped, the disk holds at most what the bound counts, so a sync that
 * outlived the writer is judged on its time after the writer stopped
 * (sync_after_writer_s; all of it for a sync that ended first). Stock is
 * judged against the bound of PDDT_BUDGET_MS, which the bench sets to its
 * default budget in the modes without one. The bound assumes that the
 * budget's bandwidth estimate is the disk's rate: an estimate above it
 * lets the disk hold more, and shows here: the largest budget in force
 * while the light writer ran (budget_max, WbDirtyLimit every 250 ms)
 * and the largest estimate against the set rate (limit_bw_max_vs_set,
 * WbLimitBandwidth). The journal's commits during the run are counted
 * (jbd2_commits). What the disk held, sampled every 250 ms from the
 * streaming writer's start to the end of the light writer's fsync(), with
 * the budget in force and its bandwidth, and on until the sync ends
 * (<scenario>-dirty.csv: mode,rep,arg,t_s,dirty_kb,wb_limit_kb,
 * limit_bw_kbps, t_s from the light writer's start, negative in the
 * warm-up, -1 where no budget holds the disk), and the most it held while
 * the light writer ran (dirty_max, kB).
 *
 * Where the light writer waited beyond the tracepoint, and the sync: where
 * each sleeps, read every SAMPLE_MS while it runs (wait_site(): the
 * innermost functions of its kernel stack past the scheduler's), summed
 * per site over the longest write(), the fsync() and the sync, the four
 * largest sites of each into
 * <scenario>-stalls.csv (mode,rep,arg,what,site,ms) and the console.
 */
#define _GNU_SOURCE
#include "bench.h"
#include "pddt.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define WARM_S		10	/* the streaming writer fills what the disk may hold */
#define LIGHT_S		20
#define SYNC_BESIDE_S	30	/* then the streaming writer stops, the sync still waiting */
#define QUICK_S		5
#define CHUNK		4096	/* the light writer's write() */
#define SHARE		0.25	/* of ARG, the rate it asks */
#define SAMPLE_MS	10
#define MAXSMP		(1 << 17)	/* 1310 s of samples, per wait_log */
#define MAXSYM		128
#define STACK_FRAMES	4
#define SITE_LEN	192
#define WRAP		(256ULL << 20)
#define SEED_STREAM	0x5a17
#define SEED_LIGHT	0x11e7
#define MAX_PAUSE_S	0.2
#define BUDGET_EVERY	25	/* wait samples: the budget every 250 ms */

/* The most the disk held while the light writer ran, and its budget's. */
struct budget_max {
	long long dirty_kb, budget_kb, bw_kbps;
};

/*
 * Where a task slept, sampled: the light writer, then (the log emptied)
 * the sync. Samples past MAXSMP, or at a site past MAXSYM, are dropped and
 * counted.
 */
struct wait_log {
	int n, nsym, dropped;
	double t[MAXSMP];
	unsigned char sym[MAXSMP];
	char name[MAXSYM][SITE_LEN];
};

/* A journal's statistics since mount (/proc/fs/jbd2/<dev>/info). */
struct jbd2_stats {
	long long tid;		/* transactions committed */
	long long logged;	/* blocks logged per transaction, on average */
};

/* The statistics of the journal of the filesystem at @dir; 0 or -1. */
static int jbd2_read(const char *dir, struct jbd2_stats *j)
{
	char bdi[128], link[160], target[256], path[320], buf[2048], *p;
	const char *dev;
	ssize_t n;

	if (bdi_dir_of(dir, bdi, sizeof(bdi)))
		return -1;
	/* /sys/dev/block/M:m links to .../block/<dev>; the journal is <dev>-8 */
	snprintf(link, sizeof(link), "/sys/dev/block/%s", strrchr(bdi, '/') + 1);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = 0;
	dev = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	snprintf(path, sizeof(path), "/proc/fs/jbd2/%s-8/info", dev);
	if (pddt_read_file(path, buf, sizeof(buf)) <= 0 || sscanf(buf, "%lld", &j->tid) != 1)
		return -1;
	/* no averages until the journal's first commit */
	j->logged = 0;
	if (!j->tid)
		return 0;
	p = strstr(buf, " logged blocks per transaction");
	if (!p)
		return -1;
	while (p > buf && p[-1] >= '0' && p[-1] <= '9')
		p--;
	j->logged = atoll(p);
	return 0;
}

/* A whole number from the environment (what the bench's mode on sets), or dies. */
static long long env_ll(const char *var)
{
	const char *v = getenv(var);

	if (!v || atoll(v) < 0)
		pddt_die("slow_waits needs %s (guest/bench/run)", var);
	return atoll(v);
}

/*
 * Where @pid sleeps, from its kernel stack (/proc/PID/stack) into @out: its
 * first STACK_FRAMES functions past the scheduler's and the generic wait
 * functions, innermost first, joined by '<'; the wait channel
 * (/proc/PID/wchan) where the stack cannot be read; "running" when it is
 * not asleep. 0, or -1 if the task is gone.
 */
static int wait_site(pid_t pid, char *out, size_t size)
{
	static const char *const generic[] = {
		"__schedule", "schedule", "io_schedule", "bit_wait", "__wait_on_bit",
		"out_of_line_wait_on_bit", "wait_woken", "wait_for_completion",
		"__cond_resched", "preempt_schedule",
	};
	char path[64], buf[4096], *line, *save;
	size_t len = 0;
	int frames = 0;

	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)pid);
	if (pddt_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	if (!strcmp(buf, "0") || !buf[0]) {
		snprintf(out, size, "running");
		return 0;
	}
	snprintf(out, size, "%.100s", buf);	/* a function name */
	snprintf(path, sizeof(path), "/proc/%d/stack", (int)pid);
	if (pddt_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	/* "[<0>] folio_wait_bit_common+0x10c/0x2d0" */
	for (line = strtok_r(buf, "\n", &save); line && frames < STACK_FRAMES;
	     line = strtok_r(NULL, "\n", &save)) {
		char *fn = strchr(line, ' ');
		size_t k;

		if (!fn)
			continue;
		fn++;
		fn[strcspn(fn, "+")] = 0;
		for (k = 0; k < sizeof(generic) / sizeof(generic[0]); k++)
			if (!strncmp(fn, generic[k], strlen(generic[k])))
				break;
		if (k < sizeof(generic) / sizeof(generic[0]))
			continue;
		if (len + 1 >= size)
			break;
		len += snprintf(out + len, size - len, "%s%s", frames ? "<" : "", fn);
		frames++;
	}
	return 0;
}

/* One sample of where @pid sleeps into @w. */
static void wait_sample(pid_t pid, struct wait_log *w)
{
	char site[SITE_LEN];
	int s;

	if (wait_site(pid, site, sizeof(site)))
		return;
	if (w->n == MAXSMP) {
		w->dropped++;
		return;
	}
	for (s = 0; s < w->nsym && strcmp(w->name[s], site); s++)
		;
	if (s == w->nsym) {
		if (s == MAXSYM) {
			w->dropped++;
			return;
		}
		snprintf(w->name[s], sizeof(w->name[s]), "%s", site);
		w->nsym++;
	}
	w->t[w->n] = pddt_now();
	w->sym[w->n++] = (unsigned char)s;
}

/*
 * The samples of @w between @t0 and @t1, summed per site, each standing
 * for the time until the next one or @t1: the four largest to @csv as
 * @what and, the largest first, to the console, with the samples dropped.
 */
static void wait_report(const struct bench *b, FILE *csv, const struct wait_log *w,
			 const char *what, double t0, double t1)
{
	double ms[MAXSYM] = { 0 };
	char line[1024];
	int len;

	for (int i = 0; i < w->n; i++) {
		double next = i + 1 < w->n ? w->t[i + 1] : w->t[i] + SAMPLE_MS / 1000.0;

		if (w->t[i] >= t0 && w->t[i] <= t1)
			ms[w->sym[i]] += ((next < t1 ? next : t1) - w->t[i]) * 1000;
	}
	len = snprintf(line, sizeof(line), "pddt: slow_waits %s %s: %s %.0f ms; asleep in", b->arg,
		       b->mode, what, (t1 - t0) * 1000);
	for (int k = 0; k < 4; k++) {
		int top = -1;

		for (int s = 0; s < w->nsym; s++)
			if (ms[s] > 0 && (top < 0 || ms[s] > ms[top]))
				top = s;
		if (top < 0)
			break;
		fprintf(csv, "%s,%d,%s,%s,%s,%.0f\n", b->mode, b->rep, b->arg, what,
			w->name[top], ms[top]);
		if (len < (int)sizeof(line))
			len += snprintf(line + len, sizeof(line) - len, " %s %.0f ms",
					w->name[top], ms[top]);
		ms[top] = 0;
	}
	if (w->dropped && len < (int)sizeof(line))
		snprintf(line + len, sizeof(line) - len, " (%d samples dropped)", w->dropped);
	printf("%s\n", line);
	fflush(stdout);
}

/*
 * One sample of what the disk of @dir holds and the budget in force, @t0
 * the light writer's start, into @dcsv; into @m when @m is not NULL.
 */
static void budget_sample(const struct bench *b, FILE *dcsv, const char *dir, double t0,
			  struct budget_max *m)
{
	struct pddt_wb_sample d;

	if (pddt_wb_sample(dir, 0, &d))
		return;
	fprintf(dcsv, "%s,%d,%s,%.2f,%lld,%lld,%lld\n", b->mode, b->rep, b->arg,
		pddt_now() - t0, d.dirty, d.wb_limited ? d.wb_limit : -1,
		d.wb_limited ? d.bw : -1);
	if (!m)
		return;
	if (d.dirty > m->dirty_kb)
		m->dirty_kb = d.dirty;
	if (d.wb_limited && d.wb_limit > m->budget_kb)
		m->budget_kb = d.wb_limit;
	if (d.wb_limited && d.bw > m->bw_kbps)
		m->bw_kbps = d.bw;
}

int main(int argc, char **argv)
{
	struct pddt_paced *l = pddt_shared(sizeof(*l));
	struct wait_log *w = pddt_shared(sizeof(*w));
	char stream_f[256], light_f[256], dir[256];
	long long bps, w0;
	struct pddt_wb_sample d;
	struct pddt_budget_terms terms;
	struct jbd2_stats j0, j1;
	long long budget_ms, light_pct, budget_kb, tids;
	double secs, t0, disk_rate, logged_kb, pass_s, r_write, r_fsync, r_sync, sync_s;
	double stopped = 0, longest_ms, sync_judged_s, light_t0, sync_w0;
	struct budget_max m = { 0 };
	struct bench b;
	pid_t stream, pid;
	int st = 0, fd, outlived = 0, longest = 0, k;
	FILE *csv, *dcsv;

	bench_init_apart(&b, "slow_waits", argc, argv);
	bps = b.arg ? pddt_parse_bps(b.arg) : -1;
	/* at most PDDT_PACED_MAX write()s in LIGHT_S: 6 MiB/s * SHARE / CHUNK * 20 s = 7680 */
	if (bps < (64 << 10) || bps > (6 << 20))
		pddt_die("slow_waits: ARG is the slow disk's bandwidth, 64K..6M (256K, 1M, 4M), not '%s'",
			 b.arg ? b.arg : "");
	budget_ms = env_ll("PDDT_BUDGET_MS");
	light_pct = env_ll("PDDT_LIGHT_PCT");
	/* with the hung task detector's timeout raised: stock's sync takes minutes */
	bench_throttle("slow", bps);

	pddt_disk_path("slow", "", dir, sizeof(dir));
	pddt_disk_path("slow", "slow_waits-stream.dat", stream_f, sizeof(stream_f));
	pddt_disk_path("slow", "slow_waits-light.dat", light_f, sizeof(light_f));
	csv = bench_csv(&b, "stalls", "arg,what,site,ms");
	dcsv = bench_csv(&b, "dirty", "arg,t_s,dirty_kb,wb_limit_kb,limit_bw_kbps");
	stream = pddt_stream_start(stream_f, SEED_STREAM, WRAP, 1 << 20, NULL);
	/* the warm-up, sampled as the light writer's run is */
	t0 = pddt_now() + WARM_S;
	while (pddt_now() < t0) {
		budget_sample(&b, dcsv, dir, t0, NULL);
		usleep(BUDGET_EVERY * SAMPLE_MS * 1000);
	}

	secs = b.quick ? QUICK_S : LIGHT_S;
	if (jbd2_read(dir, &j0))
		pddt_die("slow_waits: no journal statistics for %s (/proc/fs/jbd2)", dir);
	w0 = bench_written_kb(dir);
	t0 = pddt_now();
	light_t0 = t0;
	pid = fork();
	if (pid < 0)
		pddt_die("slow_waits: fork: %m");
	if (!pid)
		pddt_paced_writer(light_f, CHUNK, SHARE * bps, SEED_LIGHT, 1, secs, true, l);
	for (k = 0;; k++) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			break;
		if (r < 0)
			pddt_die("slow_waits: the light writer: %m");
		wait_sample(pid, w);
		/*
		 * the budget in force and its bandwidth, every BUDGET_EVERY
		 * samples, while one holds the disk (off, WbLimitBandwidth is
		 * the estimate a run with the budget on left behind)
		 */
		if (!(k % BUDGET_EVERY))
			budget_sample(&b, dcsv, dir, light_t0, &m);
		usleep(SAMPLE_MS * 1000);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		pddt_die("slow_waits: the light writer (status 0x%x: pddt_paced_writer())", st);
	for (int i = 1; i < l->n; i++)
		if (l->ms[i] > l->ms[longest])
			longest = i;
	/* the light writer's waits, before the log takes the sync's */
	wait_report(&b, csv, w, "longest_write", l->start[longest], l->end[longest]);
	wait_report(&b, csv, w, "fsync", l->fsync_t0, l->fsync_t1);
	w->n = w->nsym = w->dropped = 0;
	disk_rate = (bench_written_kb(dir) - w0) * 1024.0 / (pddt_now() - t0);
	/* QEMU's throttle lets a burst of a tenth of a second's worth through */
	if (disk_rate > 1.5 * bps)
		pddt_die("slow_waits: the disk wrote %.0f kB/s, set to %lld: the host did not throttle it",
			 disk_rate / 1024, bps >> 10);

	if (pddt_wb_sample(dir, 0, &d))
		pddt_die("slow_waits: no bdi stats for %s", dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		pddt_die("slow_waits: cannot open %s", dir);
	sync_w0 = bench_written_kb(dir);
	t0 = pddt_now();
	pid = fork();
	if (pid < 0)
		pddt_die("slow_waits: fork: %m");
	if (!pid) {
		signal(SIGTERM, SIG_DFL);
		_exit(syncfs(fd) ? 1 : 0);
	}
	/* the streaming writer runs until the sync ends, or for SYNC_BESIDE_S */
	for (k = 0;; k++) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			break;
		if (r < 0)
			pddt_die("slow_waits: the sync: %m");
		/* where the sync sleeps, and what the disk holds meanwhile */
		wait_sample(pid, w);
		if (!(k % BUDGET_EVERY))
			budget_sample(&b, dcsv, dir, light_t0, NULL);
		if (stream && pddt_now() - t0 >= SYNC_BESIDE_S) {
			outlived = 1;
			stopped = pddt_now();
			if (!pddt_stream_stop(stream))
				pddt_die("slow_waits: the streaming writer died");
			stream = 0;
			continue;
		}
		usleep(SAMPLE_MS * 1000);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		pddt_die("slow_waits: syncfs of %s failed", dir);
	sync_s = pddt_now() - t0;
	sync_judged_s = outlived ? t0 + sync_s - stopped : sync_s;
	bench_metric(&b, "sync_s", sync_s, "s");
	bench_metric(&b, "sync_disk_wrote", bench_written_kb(dir) - sync_w0, "kB");
	bench_metric(&b, "sync_outlived_writer", outlived, "bool");
	bench_metric(&b, "sync_after_writer_s", sync_judged_s, "s");
	close(fd);
	if (stream && !pddt_stream_stop(stream))
		pddt_die("slow_waits: the streaming writer died");

	longest_ms = l->ms[longest];	/* bench_percentile() sorts l->ms */
	bench_metric(&b, "light_longest_write_ms", longest_ms, "ms");
	bench_metric(&b, "light_longest_write_bdp_ms", l->bdp_ms[longest], "ms");
	bench_metric(&b, "light_longest_write_other_ms", longest_ms - l->bdp_ms[longest],
		     "ms");
	bench_metric(&b, "light_p50_ms", bench_percentile(l->ms, l->n, 50), "ms");
	bench_metric(&b, "light_rate_vs_asked", l->bytes / l->secs / (SHARE * bps), "ratio");
	bench_metric(&b, "fsync_s", l->fsync_t1 - l->fsync_t0, "s");
	bench_metric(&b, "dirty_at_sync", d.dirty, "kB");
	bench_metric(&b, "dirty_max", m.dirty_kb, "kB");
	bench_metric(&b, "disk_rate_vs_set", disk_rate / bps, "ratio");

	if (jbd2_read(dir, &j1) || pddt_budget_terms(dir, &terms))
		pddt_die("slow_waits: cannot read the journal's statistics or the budget's terms");
	tids = j1.tid - j0.tid;
	logged_kb = j1.logged * 4.0;
	budget_kb = pddt_budget_kb(bps >> 10, budget_ms, d.dirty_thresh, &terms);
	pass_s = (budget_kb * 1024.0 + light_pct / 100.0 * bps + logged_kb * 1024) / bps;
	r_write = longest_ms / 1000 / (pass_s + MAX_PAUSE_S);
	r_fsync = (l->fsync_t1 - l->fsync_t0) / (2 * pass_s);
	r_sync = sync_judged_s / (3 * pass_s);
	bench_metric(&b, "budget_at_set_rate", budget_kb, "kB");
	/* what the kernel held the disk to: its estimate against the set rate */
	bench_metric(&b, "budget_max", m.budget_kb, "kB");
	bench_metric(&b, "limit_bw_max_vs_set", m.bw_kbps * 1024.0 / bps, "ratio");
	bench_metric(&b, "wait_pass_s", pass_s, "s");
	bench_metric(&b, "light_longest_write_vs_bound", r_write, "ratio");
	bench_metric(&b, "fsync_vs_bound", r_fsync, "ratio");
	bench_metric(&b, "sync_vs_bound", r_sync, "ratio");
	bench_metric(&b, "waits_vs_bound", r_write > r_fsync ? (r_write > r_sync ? r_write : r_sync) :
		     (r_fsync > r_sync ? r_fsync : r_sync), "ratio");
	bench_metric(&b, "jbd2_commits", tids, "count");
	bench_metric(&b, "jbd2_logged_kb_per_commit", logged_kb, "kB");
	wait_report(&b, csv, w, "sync", t0, t0 + sync_s);
	fclose(csv);
	fclose(dcsv);

	bench_verify(&b, "light", light_f, SEED_LIGHT);
	bench_verify(&b, "streaming", stream_f, SEED_STREAM);
	unlink(light_f);
	unlink(stream_f);
	return 0;
}
