// SPDX-License-Identifier: GPL-2.0
/*
 * heavy - N streaming writers on one disk (ARG = N, default 4): is the
 * disk shared fairly among them, and at what total rate? Figures, over a
 * window of what the disk wrote (bench_window_open()): Jain's index of the
 * per-task rates (what each write() took in; 1 = equal), and the total
 * rate, what the disk wrote; per-task cumulative MiB over time for the
 * plot.
 */
#include "bench.h"
#include "pddt.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXN	32

int main(int argc, char **argv)
{
	struct pddt_stream *st = pddt_shared(MAXN * sizeof(*st));
	double warm, secs, t0, t, rates[MAXN];
	struct bench_window win;
	uint64_t b0[MAXN];
	pid_t pid[MAXN];
	char file[64], what[32];
	struct bench b;
	FILE *csv;
	int n;

	bench_init(&b, "heavy", argc, argv);
	n = b.arg ? atoi(b.arg) : 4;
	if (n < 1 || n > MAXN)
		pddt_die("heavy: N must be 1..%d, not '%s'", MAXN, b.arg);
	warm = bench_len(&b, 2, 2);

	for (int i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "/mnt/slow/heavy%d.dat", i);
		pid[i] = fork();
		if (!pid[i])
			pddt_stream_writer(file, 0x4e00 + i, 0, 64 << 10, &st[i]);
	}
	sleep(warm);
	snprintf(what, sizeof(what), "progress");
	csv = bench_csv(&b, what, "n,t,task,mib");
	for (int i = 0; i < n; i++)
		b0[i] = st[i].bytes;
	secs = bench_window_open(&b, "/mnt/slow", pddt_disk_bps("slow"), 4, &win);
	t0 = pddt_now();
	while ((t = pddt_now() - t0) < secs) {
		for (int i = 0; i < n; i++)
			fprintf(csv, "%s,%d,%d,%.2f,%d,%.3f\n", b.mode, b.rep, n, t, i,
				(st[i].bytes - b0[i]) / (double)(1 << 20));
		usleep(500000);
	}
	t = pddt_now() - t0;
	for (int i = 0; i < n; i++)
		rates[i] = (st[i].bytes - b0[i]) / t / (1 << 20);
	fclose(csv);
	snprintf(what, sizeof(what), "jain_n%d", n);
	bench_metric(&b, what, bench_jain(rates, n), "index");
	snprintf(what, sizeof(what), "total_rate_n%d", n);
	bench_metric(&b, what, bench_window_rate(&win), "MiB/s");
	snprintf(what, sizeof(what), "window_n%d", n);
	bench_metric(&b, what, secs, "s");

	/* all stopped at once: one at a time, the others would go on writing */
	t0 = pddt_now();
	for (int i = 0; i < n; i++)
		kill(pid[i], SIGTERM);
	for (int i = 0; i < n; i++)
		waitpid(pid[i], NULL, 0);
	t = pddt_now();
	for (int i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "/mnt/slow/heavy%d.dat", i);
		snprintf(what, sizeof(what), "writer%d", i);
		bench_verify(&b, what, file, 0x4e00 + i);
		unlink(file);
	}
	sync();
	printf("pddt: heavy %d %s: writers stopped in %.1f s, files removed and synced in %.1f s\n",
	       n, b.mode, t - t0, pddt_now() - t);
	return 0;
}
