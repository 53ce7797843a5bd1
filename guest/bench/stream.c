// SPDX-License-Identifier: GPL-2.0
/*
 * stream - what a slow disk writes with one streaming writer on it: whether
 * a dirty time budget leaves the disk waiting for work. The host sets the
 * slow disk's bandwidth to ARG bytes/s (256K, 1M, 4M) for the run and back
 * to its boot value after (bench_throttle()); reported as stream_<ARG>.
 *
 * One streaming writer (1 MiB write()s) on the disk; after WARM_S (the
 * disk backlogged, the budget's bandwidth measured: limit_bw_vs_set says
 * how well), what the block device writes over WINDOW_S (quick: QUICK_S),
 * from one request completion to the first after it, whole requests each
 * with its own time (bench_device_rate()): a request of the virtio
 * profile at 256 KiB/s (1280 KiB) takes 5 s. A disk that always has a
 * request queued writes at ARG to within the 5 ms polling at each end;
 * time it waits for work shows as a lower rate, less what QEMU's throttle
 * lets through at once after an idle.
 *
 * Figures: rate_kbps, rate_vs_set (against ARG), and, as the window ends,
 * what the disk holds (held_kb: dirty + writeback, its bdi's), its budget
 * (budget_kb: BdiDirtyLimit, 0 where none holds it) and the estimate it is
 * built on against ARG (limit_bw_vs_set; in mode off, what an earlier run
 * left). The disk is then set back to its boot bandwidth, the writer
 * stopped (stock's may wait in the journal behind all the disk holds:
 * minutes at 256 KiB/s) and the file removed (read back first in make
 * test): the bench's sync would write the dirty pages stock holds.
 */
#include "bench.h"
#include "pddt.h"

#include <sys/wait.h>
#include <unistd.h>

#define WARM_S		10
#define WINDOW_S	20
#define QUICK_WARM_S	3
#define QUICK_S		5
#define WRAP		(256ULL << 20)
#define SEED		0x57ea

int main(int argc, char **argv)
{
	struct pddt_wb_sample d;
	char file[256], dir[256];
	long long bps;
	struct bench b;
	double rate;
	pid_t writer;
	int st = 0;

	bench_init_apart(&b, "stream", argc, argv);
	bps = b.arg ? pddt_parse_bps(b.arg) : -1;
	if (bps < (64 << 10) || bps > (64 << 20))
		pddt_die("stream: ARG is the slow disk's bandwidth, 64K..64M (256K, 1M, 4M), not '%s'",
			 b.arg ? b.arg : "");
	bench_throttle("slow", bps);
	pddt_disk_path("slow", "", dir, sizeof(dir));
	pddt_disk_path("slow", "stream.dat", file, sizeof(file));
	writer = pddt_stream_start(file, SEED, WRAP, 1 << 20, NULL);
	sleep((unsigned int)bench_len(&b, WARM_S, QUICK_WARM_S));
	if (waitpid(writer, &st, WNOHANG))
		pddt_die("stream: the streaming writer died in the warm-up (status %#x)", st);
	rate = bench_device_rate(dir, bench_len(&b, WINDOW_S, QUICK_S));
	if (pddt_wb_sample(dir, 0, &d))
		pddt_die("stream: no bdi stats for %s", dir);
	/* first: stock's writer may wait in the journal behind minutes of writeback */
	bench_unthrottle();
	if (!pddt_stream_stop(writer))
		pddt_die("stream: the streaming writer died");
	bench_metric(&b, "rate_kbps", rate, "kB/s");
	bench_metric(&b, "rate_vs_set", rate * 1024 / bps, "ratio");
	bench_metric(&b, "held_kb", d.dirty, "kB");
	bench_metric(&b, "budget_kb", d.limit, "kB");
	bench_metric(&b, "limit_bw_vs_set", (double)d.bw * 1024 / bps, "ratio");
	bench_verify(&b, "streaming", file, SEED);
	unlink(file);
	return 0;
}
