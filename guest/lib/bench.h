/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - what every bench scenario shares. A scenario program is run as
 *   /bench/<scenario> MODE REP [ARG]
 * with the mode's sysctls already set by /bench/run, and the slow disks'
 * queue profile ($PDDT_PROFILE: usb, the default, or virtio; a scenario
 * run with virtio reports as <scenario>_virtio). It writes one row per
 * figure to $PDDT_BENCH/summary.tsv:
 *   scenario  mode  rep  metric  value  unit
 * and its time series to $PDDT_BENCH/<scenario>-<what>.csv, one row per
 * sample, with mode and rep in the first columns.
 */
#ifndef PDDT_BENCH_H
#define PDDT_BENCH_H

#include <stdint.h>
#include <stdio.h>

struct bench {
	const char *scenario;
	const char *mode;
	int rep;
	int quick;		/* $PDDT_QUICK: the short mode */
	int verify;		/* $PDDT_VERIFY: read written files back (make test) */
	const char *arg;	/* the optional third argument, or NULL */
};

/* Parse "MODE REP [ARG]" or die with the usage. */
void bench_init(struct bench *b, const char *scenario, int argc, char **argv);
/*
 * bench_init() for a scenario whose ARG changes what it measures: with an
 * ARG its figures are apart, as <scenario>_<ARG> (judge.sh's reported()
 * lists the scenarios that use it).
 */
void bench_init_apart(struct bench *b, const char *scenario, int argc, char **argv);
/* Append one figure to summary.tsv (and print it). */
void bench_metric(const struct bench *b, const char *metric, double value,
		  const char *unit);
/* Open <scenario>-<what>.csv for appending; writes @header if it is new. */
FILE *bench_csv(const struct bench *b, const char *what, const char *header);
/* @quick when b->quick, else @full. */
double bench_len(const struct bench *b, double full, double quick);
/*
 * @file, written with pattern @seed (a streaming writer's, now stopped), is
 * read back after sync and drop_caches: the metric <@what>_data_intact is 1
 * if every byte is the pattern's.
 */
void bench_data_intact(const struct bench *b, const char *what, const char *file,
		       uint64_t seed);
/*
 * bench_data_intact() with b->verify (make test), else nothing: the sync
 * would put the draining of the disks into the bench's time.
 */
void bench_verify(const struct bench *b, const char *what, const char *file,
		  uint64_t seed);

/*
 * One sample of a disk's bdi stats (pddt_wb_sample()), in kB; limit is its
 * dirty time budget (BdiDirtyLimit, 0: none), bw the estimate the budget is
 * built on, in kB/s.
 */
struct bench_disk {
	double dirty, thresh, limit, bw;
	double written;		/* BdiWritten */
	double dirty_thresh;	/* the global dirty threshold (DirtyThresh) */
};
/*
 * Sample disk @name (its directory: pddt_disk_path()) into @d, and append it to @csv
 * as "mode,rep,@t,name,dirty_kb,thresh_kb,limit_kb,bw_kbps"; dies if the
 * disk has no bdi stats.
 */
void bench_sample_disk(FILE *csv, const struct bench *b, double t, const char *name,
		       struct bench_disk *d);

/*
 * A window over which a throughput figure is what a device wrote, not what
 * the page cache took in: its block device's sectors written, counted as
 * requests complete (pddt_dev_written_kb()), or on a device that has none
 * (FUSE) its BdiWritten, counted as pages end their writeback.
 */
struct bench_window {
	char path[256];		/* a file or directory on the device */
	double t0, secs;
	long long written0;	/* kB */
};
/* What the device that holds @path has written, in kB, as above; dies if unknown. */
long long bench_written_kb(const char *path);
/*
 * Open a window on the device that holds @path, whose bandwidth is @bps
 * bytes/s (<= 0: its estimate), and return its length: @quick_s in the
 * quick bench; else at least 20 s, and twice the time the device takes to
 * write what it may hold (its dirty time budget, BdiDirtyLimit, or its
 * DirtyThresh where it has none) or what it holds now, if that is more, so that the pages dirtied
 * before the window opened are at most half of what it writes in it. Dies
 * if the device has no bdi stats.
 */
double bench_window_open(const struct bench *b, const char *path, double bps,
			 double quick_s, struct bench_window *w);
/* Sleep until @w ends; what its device wrote in it, in MiB/s. */
double bench_window_rate(const struct bench_window *w);

/*
 * What the block device that holds @path writes while it has work queued,
 * in KiB/s: from one of its request completions to the first one @secs or
 * more after it, counting the requests that completed from the first up to
 * the last but one. QEMU's throttle lets a request through once the
 * previous ones have had their time (size over the set rate) and then
 * completes it at once, so that the time between two completions is the
 * earlier request's: the window holds whole requests, each with its own
 * time (a slow disk's request takes seconds: a window that cut one, or
 * counted the last request with the first one's time, would be off by a
 * part of one). The device's count is polled every 5 ms. Dies if the
 * device completes nothing for a minute, or has no block device.
 */
double bench_device_rate(const char *path, double secs);

/*
 * Set disk @name's write bandwidth to @bps bytes/s for the scenario
 * (pddt_host_throttle()), with the hung task detector's timeout raised
 * (a task may wait minutes for a slow disk), and set both back when the
 * scenario's process exits: by returning, by pddt_die() or on SIGTERM
 * (its children set SIG_DFL), or before that by bench_unthrottle(). Once
 * per scenario; dies if the host does not answer or @name has no boot
 * bandwidth.
 */
void bench_throttle(const char *name, long long bps);
/* Both back now (bench_throttle()), once; a no-op in a child. */
void bench_unthrottle(void);

/* Percentile @p (0..100) of @n values, sorting them in place. */
double bench_percentile(double *v, int n, double p);
/* Jain's fairness index of @n rates: (sum x)^2 / (n * sum x^2). */
double bench_jain(const double *x, int n);

#endif
