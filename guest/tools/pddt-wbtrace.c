// SPDX-License-Identifier: GPL-2.0
/*
 * pddt-wbtrace PATH SECONDS [OUT]: how the bandwidth estimate of a dirty
 * time budget follows what a device writes, at a finer grain than the
 * estimate's own updates (BANDWIDTH_INTERVAL, 200 ms). The root wb of the
 * bdi that holds PATH is sampled every SAMPLE_US for SECONDS, and a line
 * is written whenever a figure changed (TSV, to OUT or beside the results
 * file as wbtrace.tsv):
 *
 *	t_s		seconds from the first sample
 *	dev_kb		what the block device wrote: sectors counted as its
 *			requests complete (journal and metadata included)
 *	writeback_kb	the wb's pages under writeback (WbWriteback)
 *	written_kb	the wb's pages whose writeback ended (WbWritten):
 *			what the estimate counts
 *	reclaimable_kb	its dirty pages (WbReclaimable)
 *	limit_bw_kbps	the estimate (WbLimitBandwidth, 0 until measured)
 *	wb_limit_kb	its budget (WbDirtyLimit)
 *
 * The gap between dev_kb and written_kb is what the device wrote whose
 * pages have not ended their writeback yet: ext4 ends an extent
 * conversion's pages at once, so written_kb grows in steps. The workload
 * is the caller's, e.g. on a disk throttled to 256 KiB/s:
 *	make run DISKS='fast:100M slow:256K' CMD='echo 3000 \
 *	  >/proc/sys/vm/dirty_device_time_ms; dd if=/dev/zero \
 *	  of=/mnt/slow/x bs=1M count=40 & pddt-wbtrace /mnt/slow 20'
 */
#include "pddt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAMPLE_US	5000
#define NR_FIGURES	6

static const char *const keys[NR_FIGURES - 1] = {
	"WbWriteback", "WbWritten", "WbReclaimable", "WbLimitBandwidth", "WbDirtyLimit",
};

/* One sample of @path into @v: 0, or -1 if a figure cannot be read. */
static int sample(const char *path, long long *v)
{
	struct bdi_stats w;

	if (pddt_dev_written_kb(path, &v[0]) || wb_stats_read(path, 1, &w))
		return -1;
	for (int i = 0; i < NR_FIGURES - 1; i++) {
		if (!bdi_stat_has(&w, keys[i]))
			return -1;
		v[i + 1] = bdi_stat(&w, keys[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long long v[NR_FIGURES], last[NR_FIGURES];
	char out[256], *end;
	double t0, secs;
	long lines = 0;
	FILE *f;

	if (argc < 3 || argc > 4)
		pddt_die("usage: pddt-wbtrace PATH SECONDS [OUT]");
	secs = strtod(argv[2], &end);
	if (end == argv[2] || *end || !(secs > 0 && secs <= 3600))
		pddt_die("pddt-wbtrace: SECONDS is 0 < s <= 3600, not '%s'", argv[2]);
	if (sample(argv[1], v))
		pddt_die("pddt-wbtrace: no block device, wb_stats or budget figures for %s "
			 "(debugfs mounted? a kernel with the series?)", argv[1]);
	if (argc == 4)
		snprintf(out, sizeof(out), "%s", argv[3]);
	else
		pddt_results_path("wbtrace.tsv", out, sizeof(out));
	f = fopen(out, "w");
	if (!f)
		pddt_die("pddt-wbtrace: cannot write %s", out);
	fprintf(f, "t_s\tdev_kb\twriteback_kb\twritten_kb\treclaimable_kb\tlimit_bw_kbps\twb_limit_kb\n");
	memset(last, 0xff, sizeof(last));
	t0 = pddt_now();
	for (double t = t0; t < t0 + secs; t = pddt_now()) {
		if (sample(argv[1], v))
			pddt_die("pddt-wbtrace: %s stopped answering", argv[1]);
		if (memcmp(v, last, sizeof(v))) {
			fprintf(f, "%.3f", t - t0);
			for (int i = 0; i < NR_FIGURES; i++)
				fprintf(f, "\t%lld", v[i]);
			fputc('\n', f);
			memcpy(last, v, sizeof(v));
			lines++;
		}
		usleep(SAMPLE_US);
	}
	if (fclose(f))
		pddt_die("pddt-wbtrace: cannot write %s", out);
	printf("pddt-wbtrace: %ld lines over %.0f s to %s\n", lines, secs, out);
	return 0;
}
