// SPDX-License-Identifier: GPL-2.0
/*
 * inter_process - is a restrained writer starved by streaming ones?
 *
 * Restrained writers on the slow disk, each asking at most a quarter of its
 * bandwidth (PDDT_BPS): "saver" writes a sixteenth of a second's bandwidth
 * every 0.25 s (256 KiB at 4 MiB/s), "ticker" 64 KiB at an eighth of the
 * bandwidth (every 125 ms at 4 MiB/s), "rate8" and "rate4" write()s of a
 * 1024th of a second's bandwidth (4 KiB at 4 MiB/s) paced to an eighth and a
 * quarter of it. Each runs alone in its turn, at least 30 bursts and 2 s
 * (quick: 5 bursts and 2 s), in three phases: idle, beside one streaming
 * writer, beside four. With ARG "t8", two: idle, and beside one streaming
 * writer of eight threads, each writing a file of its own (does the thread
 * count as a dirtier of its own, or the process?), reported as
 * inter_process_t8. A writer that falls behind does not catch up: its
 * next burst starts at once, and the pace goes on from there.
 *
 * Per burst (of rate8 and rate4 one write(), or 64 KiB write()s above
 * 64 MiB/s: pddt_write_burst()): the time its write() calls took,
 * and the time the task paused in balance_dirty_pages() meanwhile (the
 * tracepoint's pauses), which tells throttling from waits in the filesystem.
 * Figures per writer and phase: p50, p99 and max of both, the rate it got
 * against the rate it asked, and each loaded p50 against the idle one; per
 * phase, what the disk wrote (bench_written_kb()) over the phase.
 */
#include "bench.h"
#include "pddt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NSTREAM	4
#define NTHREAD	8		/* threads of the streaming writer, ARG t8 */
#define MAXS	NTHREAD		/* streaming files */
#define WRAP	(128ULL << 20)	/* each streaming writer's file */
/*
 * Before a loaded phase: the streaming writers fill the dirty limit within a
 * second, and the writeback domain's proportions (3 s periods) follow.
 */
#define WARM_S	5

struct writer {
	const char *name;
	double burst_s;		/* a burst: this many seconds of bandwidth */
	size_t burst_min;	/* but at least this many bytes */
	double share;		/* of the bandwidth it asks */
};

static const struct writer writers[] = {
	{ "saver", 1.0 / 16, 64 << 10, 0.25 },
	{ "ticker", 0, 64 << 10, 0.125 },
	{ "rate8", 1.0 / 1024, 4 << 10, 0.125 },
	{ "rate4", 1.0 / 1024, 4 << 10, 0.25 },
};
#define NW (int)(sizeof(writers) / sizeof(writers[0]))

struct phase {
	const char *name;
	int streams;	/* streaming writers, one process each */
	int threads;	/* or one streaming writer of this many threads */
};
static const struct phase procs[] = {
	{ "idle", 0, 0 }, { "beside1", 1, 0 }, { "beside4", NSTREAM, 0 },
};
static const struct phase threads[] = { { "idle", 0, 0 }, { "beside8t", 0, NTHREAD } };

static size_t burst_bytes(const struct writer *w, double bw)
{
	size_t b = (size_t)(w->burst_s * bw) & ~(size_t)4095;

	return b > w->burst_min ? b : w->burst_min;
}

/* p50, p99 and max of @v[@n] as figures <@pre>_p50 ..., in ms; the p50. */
static double percentiles(const struct bench *b, const char *pre, double *v, int n)
{
	static const double p[] = { 50, 99, 100 };
	static const char *const name[] = { "p50", "p99", "max" };
	double p50 = bench_percentile(v, n, 50);
	char m[64];

	for (int i = 0; i < 3; i++) {
		snprintf(m, sizeof(m), "%s_%s", pre, name[i]);
		bench_metric(b, m, bench_percentile(v, n, p[i]), "ms");
	}
	return p50;
}

/* Writer @w's turn in phase @ph: its bursts to @csv, its figures; its p50. */
static double report(const struct bench *b, FILE *csv, const struct phase *ph,
		     const struct writer *w, double bw, struct pddt_paced *t)
{
	char pre[64], m[80];
	double p50;

	for (int i = 0; i < t->n; i++)
		fprintf(csv, "%s,%d,%s,%s,%.2f,%.1f\n", b->mode, b->rep, ph->name,
			w->name, t->ms[i], t->bdp_ms[i]);
	snprintf(pre, sizeof(pre), "%s_%s", w->name, ph->name);
	p50 = percentiles(b, pre, t->ms, t->n);
	snprintf(m, sizeof(m), "%s_bdp", pre);
	percentiles(b, m, t->bdp_ms, t->n);
	snprintf(m, sizeof(m), "%s_rate_vs_asked", pre);
	bench_metric(b, m, t->bytes / t->secs / (w->share * bw), "ratio");
	return p50;
}

/* Writer @w's turn, in a child; dies if the child failed. */
static void turn(const struct bench *b, const struct writer *w, double bw,
		 const char *file, struct pddt_paced *t)
{
	int st = 0;
	pid_t pid;

	memset(t, 0, sizeof(*t));
	pid = fork();
	if (pid < 0)
		pddt_die("inter_process: fork: %m");
	if (!pid)
		pddt_paced_writer(file, burst_bytes(w, bw), w->share * bw, 0x1a7e,
				  b->quick ? 5 : 30, 2, false, t);
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		pddt_die("inter_process: %s %s (status 0x%x: pddt_paced_writer())",
			 w->name, file, st);
}

int main(int argc, char **argv)
{
	struct pddt_paced *t = pddt_shared(sizeof(*t));
	double bw = pddt_disk_bps("slow"), idle_p50[NW];
	char stream_f[MAXS][256], file[NW][256], dir[256], *tfiles[NTHREAD];
	const struct phase *phases = procs;
	int running = 0, died = 0, nph = 3, nfiles = 0;
	pid_t stream[NSTREAM];
	struct bench b;
	FILE *csv;

	bench_init_apart(&b, "inter_process", argc, argv);
	if (bw <= 0)
		pddt_die("inter_process needs the slow disk's bandwidth (PDDT_BPS)");
	if (b.arg && strcmp(b.arg, "t8"))
		pddt_die("inter_process: ARG is t8 or none, not '%s'", b.arg);
	if (b.arg) {
		phases = threads;
		nph = 2;
	}
	pddt_disk_path("slow", "", dir, sizeof(dir));
	for (int i = 0; i < MAXS; i++) {
		char name[32];

		snprintf(name, sizeof(name), "streaming%d.dat", i);
		pddt_disk_path("slow", name, stream_f[i], sizeof(stream_f[i]));
	}
	for (int i = 0; i < NW; i++) {
		char name[32];

		snprintf(name, sizeof(name), "%s.dat", writers[i].name);
		pddt_disk_path("slow", name, file[i], sizeof(file[i]));
	}
	csv = bench_csv(&b, "latency", "phase,writer,ms,bdp_ms");
	for (int i = 0; i < NTHREAD; i++)
		tfiles[i] = stream_f[i];
	for (int p = 0; p < nph; p++) {
		const struct phase *ph = &phases[p];
		long long w0;
		double t0;
		char m[64];

		while (running < ph->streams) {
			stream[running] = pddt_stream_start(stream_f[running], 0x57ea + running,
							    WRAP, 1 << 20, NULL);
			nfiles = ++running;
		}
		if (ph->threads) {
			stream[running++] = pddt_stream_threads_start(tfiles, ph->threads,
								      0x57ea, WRAP, 1 << 20);
			nfiles = ph->threads;
		}
		if (running)
			sleep(WARM_S);
		w0 = bench_written_kb(dir);
		t0 = pddt_now();
		for (int i = 0; i < NW; i++) {
			double p50;

			turn(&b, &writers[i], bw, file[i], t);
			p50 = report(&b, csv, ph, &writers[i], bw, t);
			if (!ph->streams && !ph->threads)
				idle_p50[i] = p50;
			else if (idle_p50[i] > 0) {
				snprintf(m, sizeof(m), "%s_p50_vs_idle_%s", writers[i].name,
					 ph->name);
				bench_metric(&b, m, p50 / idle_p50[i], "ratio");
			}
			/* the last phase's files are read back below */
			if (p < nph - 1)
				unlink(file[i]);
		}
		snprintf(m, sizeof(m), "disk_written_%s", ph->name);
		bench_metric(&b, m, (bench_written_kb(dir) - w0) / 1024.0 / (pddt_now() - t0),
			     "MiB/s");
	}
	fclose(csv);
	for (int i = 0; i < running; i++)
		died += !pddt_stream_stop(stream[i]);
	if (died)
		pddt_die("inter_process: %d streaming writers died", died);
	for (int i = 0; i < nfiles; i++) {
		char what[32];

		snprintf(what, sizeof(what), "streaming%d", i);
		bench_verify(&b, what, stream_f[i], 0x57ea + i);
		unlink(stream_f[i]);
	}
	for (int i = 0; i < NW; i++) {
		bench_verify(&b, writers[i].name, file[i], 0x1a7e);
		unlink(file[i]);
	}
	sync();
	return 0;
}
