// SPDX-License-Identifier: GPL-2.0
/*
 * inter_process - is a restrained writer starved by a streaming one?
 *
 * On the slow disk two restrained writers: "saver" writes 4 MiB every
 * 1.5 s, "ticker" 256 KiB every 100 ms. Their write latencies (the time to
 * write one burst) are measured twice in the same run: on an idle system,
 * then beside a streaming writer on the same disk. Figures: p50, p99 and
 * max of each, the loaded p50 against the idle one, and the streaming
 * writer's rate.
 */
#include "bench.h"
#include "pddt.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXB	1024

struct writer {
	const char *name;
	size_t burst;
	double gap_s;
};

static const struct writer writers[] = {
	{ "saver", 4 << 20, 1.5 },
	{ "ticker", 256 << 10, 0.1 },
};
#define NW (int)(sizeof(writers) / sizeof(writers[0]))

struct lat {
	int n;
	double ms[MAXB];
};

/* Bursts of @w for @secs seconds; latencies into @out (shared). */
static void restrained(const struct writer *w, double secs, struct lat *out)
{
	double start, next;
	char name[32], file[256];
	uint64_t off = 0;
	int fd;

	snprintf(name, sizeof(name), "%s.dat", w->name);
	pddt_disk_path("slow", name, file, sizeof(file));
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		_exit(2);
	/*
	 * The clock starts once the file is open (creating it can wait for
	 * the journal longer than the whole phase), and every phase measures
	 * at least one burst.
	 */
	start = pddt_now();
	next = start;
	while ((!out->n || pddt_now() - start < secs) && out->n < MAXB) {
		/* a new file region each time: every burst dirties new pages */
		double ms = pddt_write_burst(fd, w->burst, 0x1a7e, &off);

		if (ms < 0)
			_exit(3);
		out->ms[out->n++] = ms;
		next += w->gap_s;
		while (pddt_now() < next)
			usleep(5000);
	}
	close(fd);
	unlink(file);
	_exit(0);
}

/* Run every restrained writer for @secs; their latencies into @lat[]. */
static void phase(struct lat *lat, double secs)
{
	pid_t pid[NW];

	for (int i = 0; i < NW; i++) {
		pid[i] = fork();
		if (!pid[i])
			restrained(&writers[i], secs, &lat[i]);
	}
	for (int i = 0; i < NW; i++)
		waitpid(pid[i], NULL, 0);
}

static void report(const struct bench *b, FILE *csv, const char *ph,
		   const struct writer *w, struct lat *l, double *p50)
{
	char m[64];

	for (int i = 0; i < l->n; i++)
		fprintf(csv, "%s,%d,%s,%s,%.2f\n", b->mode, b->rep, ph, w->name, l->ms[i]);
	*p50 = bench_percentile(l->ms, l->n, 50);
	snprintf(m, sizeof(m), "%s_%s_p50", w->name, ph);
	bench_metric(b, m, *p50, "ms");
	snprintf(m, sizeof(m), "%s_%s_p99", w->name, ph);
	bench_metric(b, m, bench_percentile(l->ms, l->n, 99), "ms");
	snprintf(m, sizeof(m), "%s_%s_max", w->name, ph);
	bench_metric(b, m, bench_percentile(l->ms, l->n, 100), "ms");
}

int main(int argc, char **argv)
{
	struct lat *idle = pddt_shared(NW * sizeof(*idle));
	struct lat *busy = pddt_shared(NW * sizeof(*busy));
	struct pddt_stream *st = pddt_shared(sizeof(*st));
	double idle_s, secs, warm, t0, bytes0, rate;
	char stream_f[256];
	struct bench b;
	FILE *csv;
	pid_t heavy;

	bench_init(&b, "inter_process", argc, argv);
	pddt_disk_path("slow", "streaming.dat", stream_f, sizeof(stream_f));
	/* idle latencies are steady; beside the stream, stalls of seconds */
	idle_s = bench_len(&b, 8, 6);
	secs = bench_len(&b, 12, 6);
	warm = bench_len(&b, 8, 5);

	phase(idle, idle_s);
	sync();
	heavy = fork();
	if (!heavy)
		pddt_stream_writer(stream_f, 0x57ea, 0, 1 << 20, st);
	sleep(warm);
	bytes0 = st->bytes;
	t0 = pddt_now();
	phase(busy, secs);
	rate = (st->bytes - bytes0) / (pddt_now() - t0) / (1 << 20);
	kill(heavy, SIGTERM);
	waitpid(heavy, NULL, 0);
	bench_verify(&b, "streaming", stream_f, 0x57ea);
	unlink(stream_f);

	csv = bench_csv(&b, "latency", "phase,writer,ms");
	for (int i = 0; i < NW; i++) {
		double pi, pb;
		char m[64];

		report(&b, csv, "idle", &writers[i], &idle[i], &pi);
		report(&b, csv, "beside_stream", &writers[i], &busy[i], &pb);
		snprintf(m, sizeof(m), "%s_p50_vs_idle", writers[i].name);
		bench_metric(&b, m, pi > 0 ? pb / pi : 0, "ratio");
	}
	fclose(csv);
	bench_metric(&b, "streaming_rate", rate, "MiB/s");
	sync();
	return 0;
}
