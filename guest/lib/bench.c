// SPDX-License-Identifier: GPL-2.0
#include "bench.h"
#include "pddt.h"

#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RATE_POLL_US	5000
#define RATE_QUIET_S	60	/* a device with work that completes nothing this long has stopped */

static const char *bench_dir(void)
{
	const char *d = getenv("PDDT_BENCH");

	return d && *d ? d : "/results/bench";
}

void bench_init(struct bench *b, const char *scenario, int argc, char **argv)
{
	const char *q = getenv("PDDT_QUICK"), *v = getenv("PDDT_VERIFY");
	const char *prof = getenv("PDDT_PROFILE");
	static char name[64];

	if (argc < 3 || argc > 4 || atoi(argv[2]) < 1)
		pddt_die("usage: %s MODE REP [ARG] (REP from 1)", scenario);
	/* a queue profile other than the default: its figures apart */
	if (prof && *prof && strcmp(prof, "usb"))
		snprintf(name, sizeof(name), "%s_%s", scenario, prof);
	else
		snprintf(name, sizeof(name), "%s", scenario);
	b->scenario = name;
	b->mode = argv[1];
	b->rep = atoi(argv[2]);
	b->arg = argc == 4 ? argv[3] : NULL;
	b->quick = q && *q && strcmp(q, "0");
	b->verify = v && *v && strcmp(v, "0");
	mkdir(bench_dir(), 0755);
}

void bench_init_apart(struct bench *b, const char *scenario, int argc, char **argv)
{
	char name[64];

	if (argc == 4)
		snprintf(name, sizeof(name), "%s_%s", scenario, argv[3]);
	else
		snprintf(name, sizeof(name), "%s", scenario);
	bench_init(b, name, argc, argv);
}

void bench_metric(const struct bench *b, const char *metric, double value,
		  const char *unit)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/summary.tsv", bench_dir());
	f = fopen(path, "a");
	if (!f)
		pddt_die("cannot append to %s", path);
	fprintf(f, "%s\t%s\t%d\t%s\t%.6g\t%s\n", b->scenario, b->mode, b->rep,
		metric, value, unit);
	fclose(f);
	printf("pddt: bench %s %s rep %d: %s = %.4g %s\n", b->scenario, b->mode,
	       b->rep, metric, value, unit);
}

FILE *bench_csv(const struct bench *b, const char *what, const char *header)
{
	char path[256];
	struct stat st;
	int fresh;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s-%s.csv", bench_dir(), b->scenario, what);
	fresh = stat(path, &st) != 0;
	f = fopen(path, "a");
	if (!f)
		pddt_die("cannot append to %s", path);
	if (fresh)
		fprintf(f, "mode,rep,%s\n", header);
	return f;
}

double bench_len(const struct bench *b, double full, double quick)
{
	return b->quick ? quick : full;
}

double bench_window_open(const struct bench *b, const char *path, double bps,
			 double quick_s, struct bench_window *w)
{
	struct pddt_wb_sample s;
	double hold;

	snprintf(w->path, sizeof(w->path), "%s", path);
	if (pddt_wb_sample(w->path, 0, &s))
		pddt_die("no bdi stats for %s", w->path);
	w->written0 = bench_written_kb(w->path);
	w->t0 = pddt_now();
	if (bps <= 0)
		bps = s.bw * 1024.0;
	hold = (s.limit > 0 ? s.limit : s.thresh) * 1024.0;
	if (s.dirty * 1024.0 > hold)
		hold = s.dirty * 1024.0;
	w->secs = 20;
	if (bps > 0 && 2 * hold / bps > w->secs)
		w->secs = 2 * hold / bps;
	if (b->quick)
		w->secs = quick_s;
	return w->secs;
}

long long bench_written_kb(const char *path)
{
	struct pddt_wb_sample s;
	long long kb;

	if (!pddt_dev_written_kb(path, &kb))
		return kb;
	if (pddt_wb_sample(path, 0, &s))
		pddt_die("nothing says what the device of %s wrote", path);
	return s.written;
}

double bench_window_rate(const struct bench_window *w)
{
	long long kb;

	pddt_sleep_until(w->t0 + w->secs);
	kb = bench_written_kb(w->path);
	return (kb - w->written0) / 1024.0 / (pddt_now() - w->t0);
}

/*
 * Wait for the next completion on @path's device: its time, and into
 * @before what the device had written just before it, kB.
 */
static double next_completion(const char *path, long long *before)
{
	double t, deadline = pddt_now() + RATE_QUIET_S;
	long long kb;

	if (pddt_dev_written_kb(path, before))
		pddt_die("%s is on no block device", path);
	for (;;) {
		usleep(RATE_POLL_US);
		t = pddt_now();
		if (pddt_dev_written_kb(path, &kb))
			pddt_die("%s is on no block device", path);
		if (kb != *before)
			return t;
		if (t > deadline)
			pddt_die("the device of %s completed no write in %d s", path, RATE_QUIET_S);
	}
}

double bench_device_rate(const char *path, double secs)
{
	long long kb0, kb1;
	double t0, t1;

	t0 = next_completion(path, &kb0);
	pddt_sleep_until(t0 + secs);
	t1 = next_completion(path, &kb1);
	return (kb1 - kb0) / (t1 - t0);
}

/*
 * A disk held at a low bandwidth keeps tasks in D state for minutes (a
 * sync, a journal commit behind what the disk holds), past the hung task
 * detector's 120 s, which panics the guest (hung_task_panic=1): while a
 * disk is throttled the detector waits HUNG_S.
 */
#define HUNG_TIMEOUT	"/proc/sys/kernel/hung_task_timeout_secs"
#define HUNG_S		"900"

static char throttled[32];
static long long throttled_boot_bps = -1, hung_boot = -1;
static pid_t throttled_by;
static bool throttle_restored;

void bench_unthrottle(void)
{
	sigset_t term, old;
	char v[32];

	if (getpid() != throttled_by || throttle_restored)
		return;
	/* a second SIGTERM would end the restore half done */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	throttle_restored = true;
	if (pddt_host_throttle_try(throttled, throttled_boot_bps))
		printf("pddt: disk %s is not back at %lld bytes/s\n", throttled,
		       throttled_boot_bps);
	if (hung_boot >= 0) {
		snprintf(v, sizeof(v), "%lld", hung_boot);
		if (pddt_write_file(HUNG_TIMEOUT, v))
			printf("pddt: %s is not back at %s\n", HUNG_TIMEOUT, v);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void throttle_on_term(int sig)
{
	(void)sig;
	exit(1);	/* atexit: bench_unthrottle() */
}

void bench_throttle(const char *name, long long bps)
{
	struct sigaction sa = { .sa_handler = throttle_on_term, .sa_flags = SA_RESETHAND };

	if (throttled_by)
		pddt_die("bench_throttle: once per scenario (disk %s is throttled)", throttled);
	throttled_boot_bps = pddt_disk_bps(name);
	if (throttled_boot_bps <= 0)
		pddt_die("disk %s has no bandwidth at boot (PDDT_BPS)", name);
	snprintf(throttled, sizeof(throttled), "%s", name);
	throttled_by = getpid();
	atexit(bench_unthrottle);
	sigaction(SIGTERM, &sa, NULL);
	hung_boot = pddt_read_ll(HUNG_TIMEOUT);
	if (hung_boot < 0 || pddt_write_file(HUNG_TIMEOUT, HUNG_S))
		pddt_die("cannot set %s to %s", HUNG_TIMEOUT, HUNG_S);
	pddt_host_throttle(name, bps);
}

void bench_data_intact(const struct bench *b, const char *what, const char *file,
		       uint64_t seed)
{
	struct stat sb;
	long long bad;
	char m[64];

	pddt_drop_caches();	/* syncs first */
	bad = stat(file, &sb) ? -1 : pddt_verify_pattern(file, sb.st_size, seed);
	snprintf(m, sizeof(m), "%s_data_intact", what);
	bench_metric(b, m, bad == 0 && sb.st_size > 0, "bool");
}

void bench_verify(const struct bench *b, const char *what, const char *file,
		  uint64_t seed)
{
	if (b->verify)
		bench_data_intact(b, what, file, seed);
}

double bench_percentile(double *v, int n, double p)
{
	int i;

	if (n <= 0)
		return -1;
	pddt_sort(v, n);
	i = (int)(p / 100 * n + 0.5) - 1;
	if (i < 0)
		i = 0;
	if (i >= n)
		i = n - 1;
	return v[i];
}

double bench_jain(const double *x, int n)
{
	double s = 0, s2 = 0;

	for (int i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	return s2 > 0 ? s * s / (n * s2) : 0;
}

void bench_sample_disk(FILE *csv, const struct bench *b, double t, const char *name,
		       struct bench_disk *d)
{
	struct pddt_wb_sample s;
	char mnt[256];

	pddt_disk_path(name, ".", mnt, sizeof(mnt));
	if (pddt_wb_sample(mnt, 0, &s))
		pddt_die("no bdi stats for %s", mnt);
	d->dirty = s.dirty;
	d->thresh = s.thresh;
	d->limit = s.limit;
	d->bw = s.bw;
	d->written = s.written;
	d->dirty_thresh = s.dirty_thresh;
	fprintf(csv, "%s,%d,%.2f,%s,%.0f,%.0f,%.0f,%.0f\n", b->mode, b->rep, t, name,
		d->dirty, d->thresh, d->limit, d->bw);
}
