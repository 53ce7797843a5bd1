// SPDX-License-Identifier: GPL-2.0
/*
 * short_lived - many small dirtiers that fork, write and exit, like a build,
 * beside a streaming writer on the same (slow) disk: are they starved, and
 * do they escape throttling?
 *
 * A "build" starts one child every 100 ms, up to JOBS at once; each child
 * writes one 256 KiB object file and exits (2.5 MiB/s in all, below the
 * slow disk's bandwidth). It runs twice in the same run: on an idle system,
 * then beside a streaming writer. Figures: the children's lifetimes (fork to
 * reap) p50 and p99, loaded against idle; the rate the children and the
 * streaming writer each got; and the most dirty + writeback memory seen
 * (/proc/meminfo) against vm.dirty_bytes: the children, each with a fresh
 * share of 0, must not carry the system past its hard limit. Every object
 * file is read back at the end.
 */
#include "bench.h"
#include "pddt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIR	"/mnt/slow/short_lived"
#define OBJ	(256 << 10)
#define GAP_S	0.1
#define JOBS	4
#define MAXC	2048

struct build {
	int n;			/* children reaped */
	double ms[MAXC];	/* their lifetimes */
	double dirty_max_kb;	/* Dirty + Writeback, most seen */
};

static void object_path(char *p, size_t size, const char *phase, int i)
{
	snprintf(p, size, DIR "/%s-%d.o", phase, i);
}

static void child(const char *phase, int i)
{
	char p[96];
	int fd;

	object_path(p, sizeof(p), phase, i);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || pddt_write_pattern(fd, OBJ, 0x5100 + i, 64 << 10))
		_exit(1);
	_exit(close(fd) ? 1 : 0);
}

static double dirty_kb(void)
{
	return pddt_meminfo_kb("Dirty") + pddt_meminfo_kb("Writeback");
}

/* Reap one child (blocking if @wait), recording its lifetime. */
static int reap(struct build *bd, pid_t *pid, double *born, int *running, int wait)
{
	int st;
	pid_t p = waitpid(-1, &st, wait ? 0 : WNOHANG);

	if (p <= 0)
		return 0;
	for (int j = 0; j < MAXC; j++) {
		if (pid[j] != p)
			continue;
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			pddt_die("short_lived: child %d failed to write its object", j);
		bd->ms[bd->n++] = (pddt_now() - born[j]) * 1000;
		pid[j] = 0;
		(*running)--;
		return 1;
	}
	return 1;	/* not a child of the build: the streaming writer */
}

/* Run the build for @secs; returns the number of children started. */
static int build(struct build *bd, const char *phase, double secs)
{
	static pid_t pid[MAXC];
	static double born[MAXC];
	double start = pddt_now(), next = start, d;
	int started = 0, running = 0;

	memset(pid, 0, sizeof(pid));
	bd->n = 0;
	bd->dirty_max_kb = 0;
	while (pddt_now() - start < secs && started < MAXC) {
		while (running >= JOBS)
			reap(bd, pid, born, &running, 1);
		born[started] = pddt_now();
		pid[started] = fork();
		if (pid[started] < 0)
			pddt_die("short_lived: fork: %s", strerror(errno));
		if (!pid[started])
			child(phase, started);
		started++;
		running++;
		next += GAP_S;
		while (pddt_now() < next) {
			while (reap(bd, pid, born, &running, 0))
				;
			d = dirty_kb();
			if (d > bd->dirty_max_kb)
				bd->dirty_max_kb = d;
			usleep(10000);
		}
	}
	while (running > 0)
		reap(bd, pid, born, &running, 1);
	return started;
}

static void report(const struct bench *b, FILE *csv, const char *phase,
		   struct build *bd, double *p50)
{
	char m[64];

	for (int i = 0; i < bd->n; i++)
		fprintf(csv, "%s,%d,%s,%.2f\n", b->mode, b->rep, phase, bd->ms[i]);
	*p50 = bench_percentile(bd->ms, bd->n, 50);
	snprintf(m, sizeof(m), "child_%s_p50", phase);
	bench_metric(b, m, *p50, "ms");
	snprintf(m, sizeof(m), "child_%s_p99", phase);
	bench_metric(b, m, bench_percentile(bd->ms, bd->n, 99), "ms");
}

/* Read back the @n objects of @phase; returns how many are intact. */
static int verify(const char *phase, int n)
{
	int ok = 0;
	char p[96];

	for (int i = 0; i < n; i++) {
		object_path(p, sizeof(p), phase, i);
		ok += pddt_verify_pattern(p, OBJ, 0x5100 + i) == 0;
		unlink(p);
	}
	return ok;
}

int main(int argc, char **argv)
{
	static struct build idle, busy;
	struct pddt_stream *st = pddt_shared(sizeof(*st));
	double idle_s, secs, warm, t0, t, p50i, p50b, limit_kb;
	uint64_t bytes0;
	int ni, nb, ok;
	struct bench b;
	FILE *csv;
	pid_t heavy;

	bench_init(&b, "short_lived", argc, argv);
	/* idle lifetimes are steady; beside the stream, stalls of seconds */
	idle_s = bench_len(&b, 8, 6);
	secs = bench_len(&b, 12, 6);
	warm = bench_len(&b, 8, 5);
	limit_kb = pddt_read_ll("/proc/sys/vm/dirty_bytes") / 1024.0;
	mkdir(DIR, 0755);

	ni = build(&idle, "idle", idle_s);
	sync();
	heavy = pddt_stream_start("/mnt/slow/short_lived.dat", 0x57ea, 0, 1 << 20, st);
	sleep(warm);
	bytes0 = st->bytes;
	t0 = pddt_now();
	nb = build(&busy, "beside_stream", secs);
	t = pddt_now() - t0;
	pddt_stream_stop(heavy);

	csv = bench_csv(&b, "lifetime", "phase,ms");
	report(&b, csv, "idle", &idle, &p50i);
	report(&b, csv, "beside_stream", &busy, &p50b);
	fclose(csv);
	bench_metric(&b, "child_p50_vs_idle", p50i > 0 ? p50b / p50i : 0, "ratio");
	bench_metric(&b, "children_rate", (double)nb * OBJ / t / (1 << 20), "MiB/s");
	printf("pddt: short_lived %s rep %d: the children ask %.2f MiB/s (the plan's, not measured)\n",
	       b.mode, b.rep, OBJ / GAP_S / (1 << 20));
	bench_metric(&b, "streaming_rate", (st->bytes - bytes0) / t / (1 << 20), "MiB/s");
	if (limit_kb > 0)
		bench_metric(&b, "dirty_max_vs_dirty_bytes", busy.dirty_max_kb / limit_kb, "ratio");
	bench_verify(&b, "streaming", "/mnt/slow/short_lived.dat", 0x57ea);
	unlink("/mnt/slow/short_lived.dat");
	sync();
	ok = verify("idle", ni) + verify("beside_stream", nb);
	bench_metric(&b, "objects_intact", ni + nb ? (double)ok / (ni + nb) : 0, "fraction");
	rmdir(DIR);
	return 0;
}
