/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pddt.h - the small library every guest program links with.
 *
 * Results: one line per check, on stdout and appended to the results file
 * ($PDDT_RESULTS, default /results/results.tsv) that the host reads back:
 *   stdout:  "RESULT <name> <PASS|FAIL|SKIP> <detail>"
 *   file:    "<name>\t<PASS|FAIL|SKIP>\t<detail>"
 *
 * One file per concern: results.c (result rows), sysfs.c (files, sysctls,
 * /proc), bdi.c (bdi and wb statistics), writers.c (verifiable data and
 * streaming writers), trace.c (the balance_dirty_pages tracepoint),
 * disks.c (the disks, requests to the host, loop and FUSE), kmemleak.c,
 * util.c (clock, sorting, word lists).
 */
#ifndef PDDT_H
#define PDDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum pddt_status { PDDT_PASS, PDDT_FAIL, PDDT_SKIP };

/* vm.dirty_bytes and vm.dirty_background_bytes of the tests that set them */
#define PDDT_DIRTY_KB	(64 << 10)
#define PDDT_BG_KB	(32 << 10)

/* @file beside the results file (evidence a check leaves): its path. */
void pddt_results_path(const char *file, char *path, size_t size);
/* Report one check; returns 0 for PASS/SKIP, 1 for FAIL (to sum failures). */
int pddt_result(const char *name, enum pddt_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* PASS if @ok, else FAIL; returns 1 on FAIL. */
int pddt_check(const char *name, int ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Print to stderr and exit(2): for errors that make a program unusable. */
void pddt_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Sort @n values in ascending order. */
void pddt_sort(double *v, size_t n);

/* Monotonic time in seconds. */
double pddt_now(void);
/* Sleep until pddt_now() reaches @t (at once if it has). */
void pddt_sleep_until(double t);

/* Read a whole small file into @buf (NUL-terminated); returns length or -1. */
ssize_t pddt_read_file(const char *path, char *buf, size_t size);
/* Write @val to a file (e.g. a sysctl); returns 0 or -errno. */
int pddt_write_file(const char *path, const char *val);
/* Write @len bytes of @buf to @path in one write(); 0 or -errno. */
int pddt_write_buf(const char *path, const void *buf, size_t len);
/* The integer in a file (a sysctl), or LLONG_MIN. */
long long pddt_read_ll(const char *path);

/*
 * The input rules of an integer sysctl at @path: every value of @good is
 * accepted and reads back; every one of @bad, and 8 KiB of digits, is EINVAL
 * and leaves the value at @keep. One result each, named
 * <prefix>.accepts_<value> and <prefix>.rejects_<name>. Returns the failures.
 */
struct pddt_bad_input {
	const char *name, *val;
};
int pddt_check_int_sysctl(const char *prefix, const char *path,
			  const char *const *good, size_t ngood,
			  const struct pddt_bad_input *bad, size_t nbad,
			  long long keep);

/* --- per-bdi statistics from /sys/kernel/debug/bdi/<maj:min>/stats --- */
#define BDI_MAX_KEYS 32
struct bdi_stats {
	int nr;
	char key[BDI_MAX_KEYS][32];
	long long val[BDI_MAX_KEYS];	/* as printed: kB for sizes */
};

/*
 * The debugfs stats directory of the bdi that holds @path: its block
 * device's, or for a partition the whole disk's; -1 if there is none.
 */
int bdi_dir_of(const char *path, char *dir, size_t size);
/* Snapshot the stats of the bdi that holds @path; 0 or -1. */
int bdi_stats_read(const char *path, struct bdi_stats *s);
/*
 * Snapshot the stats of the bdi_writeback of @path's bdi that belongs to the
 * cgroup with inode @cg_ino (wb_stats: keys WbDirtyThresh, ...); 0 or -1.
 */
int wb_stats_read(const char *path, unsigned long cg_ino, struct bdi_stats *s);
/* The value of @key ("BdiDirtied"), or dies if the kernel has no such key. */
long long bdi_stat(const struct bdi_stats *s, const char *key);
bool bdi_stat_has(const struct bdi_stats *s, const char *key);

/* One sample of a bdi, or of one of its wbs, in kB (bandwidths in kB/s). */
struct pddt_wb_sample {
	long long dirty;	/* Reclaimable + Writeback */
	long long thresh;	/* its share of the dirty threshold (DirtyThresh) */
	/*
	 * The dirty time budget (vm.dirty_device_time_ms): the bdi's
	 * BdiDirtyLimit, the sum of the budgets of its wbs that one holds,
	 * and BdiLimitedWbs, how many; for a cgroup's wb its WbDirtyLimit and
	 * WbLimited (0 or 1). 0 and 0: no budget holds it.
	 */
	long long limit, limited;
	/* the sampled wb's own (the bdi's root wb, or the cgroup's) */
	long long wb_limit, wb_limited;
	long long written;	/* the writeback it completed (Written) */
	long long dirtied;	/* what was dirtied there (Dirtied) */
	long long bw;		/* the estimate its budget is built on */
	long long avg_bw;	/* its avg_write_bandwidth (WriteBandwidth) */
	long long dirty_thresh;	/* the global dirty threshold (DirtyThresh) */
};
/*
 * Sample the bdi that holds @path (@cg_ino 0), or its wb of the cgroup with
 * inode @cg_ino. The bdi's counts are its stats (the sums of its wbs); its
 * bandwidths, wb_limit and wb_limited are its root wb's (wb_stats:
 * BdiWriteBandwidth sums only the wbs that hold dirty inodes, and reads 0
 * while all of a disk's pages are under writeback). bw is WbLimitBandwidth,
 * or on a kernel without it avg_write_bandwidth; on a kernel without the
 * budget's lines limit, limited, wb_limit and wb_limited are 0. 0, 1 if the
 * cgroup has no wb there (all 0 but dirty_thresh), or -1 if the bdi has no
 * stats.
 */
int pddt_wb_sample(const char *path, unsigned long cg_ino, struct pddt_wb_sample *s);

/*
 * The terms of the dirty time budget of the bdi that holds @path besides its
 * bandwidth and the global threshold (wb_dirty_budget() in
 * mm/page-writeback.c):
 *	budget = min(max(bw * ms / 1000, 4 * io_pages, min_thresh), max_thresh)
 * in pages, min_thresh and max_thresh the threshold times min_ratio and
 * max_ratio (min_bytes and max_bytes are kept as those ratios).
 */
struct pddt_budget_terms {
	long long io_pages;	/* its largest request: queue max_sectors_kb / 4,
				 * or VM_READAHEAD_PAGES (32) for a bdi without a
				 * request queue (FUSE) */
	long long min_fine;	/* min_ratio_fine, max_ratio_fine: 1000000 is 100 % */
	long long max_fine;
};
/* Read them from sysfs: 0, or -1 if one cannot be read. */
int pddt_budget_terms(const char *path, struct pddt_budget_terms *t);
/*
 * The budget, in kB, at @bw_kbps (WbLimitBandwidth) and @ms, with
 * @thresh_kb the global dirty threshold (DirtyThresh), computed in pages as
 * the kernel does. The root wb's ratios are not scaled by its part of the
 * bdi's bandwidth (wb_min_max_ratio()) while it is the only wb with dirty
 * inodes; a cgroup's are, unless they are 0 and 100 %.
 */
long long pddt_budget_kb(long long bw_kbps, long long ms, long long thresh_kb,
			 const struct pddt_budget_terms *t);

/* @word is one of the space-separated words of @list. */
int pddt_word_in(const char *word, const char *list);

/* --- deterministic file contents, to verify data after writeback --- */
/* Fill @buf with the pattern of (@seed, byte offset @off). */
void pddt_pattern(void *buf, size_t len, uint64_t seed, uint64_t off);
/* Write @bytes of pattern @seed to @fd in @chunk-sized write()s. 0 or -errno. */
int pddt_write_pattern(int fd, uint64_t bytes, uint64_t seed, size_t chunk);
/*
 * One burst of a restrained writer: @bytes of pattern @seed to @fd in 64 KiB
 * write()s, the pattern's offset *@off (the file offset of a file written
 * only so), which it advances. The time its write() calls took, in ms (the
 * pattern is made between them, untimed), or -1 on a write error.
 */
double pddt_write_burst(int fd, size_t bytes, uint64_t seed, uint64_t *off);
/*
 * Read @path and compare with pattern @seed over @bytes (a file of exactly
 * that size, or the first @bytes of a block device). Returns the number of
 * mismatching bytes (0 = intact), or -1 if it cannot be read or has the
 * wrong size.
 */
long long pddt_verify_pattern(const char *path, uint64_t bytes, uint64_t seed);

/* What a streaming writer did, in memory it shares with its parent. */
struct pddt_stream {
	volatile uint64_t bytes;	/* written in all, over every pass */
	volatile double max_write_ms;	/* its longest write() */
};
/*
 * A streaming writer: @chunk-byte write()s of pattern @seed to @file, back at
 * offset 0 every @wrap bytes (0: never), until it is killed; progress into
 * @st if not NULL. On a write error it exits with status 3.
 */
void pddt_stream_writer(const char *file, uint64_t seed, uint64_t wrap,
			size_t chunk, struct pddt_stream *st)
	__attribute__((noreturn));
/* pddt_stream_writer() in a child; its pid, or dies if fork fails. */
pid_t pddt_stream_start(const char *file, uint64_t seed, uint64_t wrap,
			size_t chunk, struct pddt_stream *st);
/*
 * One streaming writer of @n threads in a child: thread i writes files[i]
 * with pattern @seed + i, as pddt_stream_writer() does (a write error ends
 * the whole process, status 3). Its pid, or dies if fork fails.
 */
pid_t pddt_stream_threads_start(char *const files[], int n, uint64_t seed,
				uint64_t wrap, size_t chunk);
/*
 * Stop a streaming writer (SIGTERM) and reap it: 1 if it was still running
 * until then, 0 if it had died (a write error, the OOM killer).
 */
int pddt_stream_stop(pid_t pid);
/* Shared anonymous memory for a child's results, or dies. */
void *pddt_shared(size_t size);

/* Set vm.dirty_bytes and vm.dirty_background_bytes (in kB), or die. */
void pddt_set_dirty_bytes(long long dirty_kb, long long bg_kb);
/* Back to the default vm.dirty_ratio 20 and dirty_background_ratio 10. */
void pddt_default_dirty_ratios(void);

/* A /proc/meminfo value ("Dirty"), in kB, or -1. */
long long pddt_meminfo_kb(const char *key);

/* Drop clean page cache: sync, then drop_caches = 3. 0 or -errno. */
int pddt_drop_caches(void);

/*
 * kmemleak (CONFIG_DEBUG_KMEMLEAK): scan for objects that nothing points to
 * and that kmemleak has not reported before, after waiting out its minimum
 * object age, twice (what the second scan finds referenced again is dropped
 * from its list); count them into @l and save the whole report in the file
 * @save (if not NULL and it lists any); then clear the list, so that the
 * next scan counts only new suspects. Returns 0, -1 if the kernel has no
 * kmemleak, -2 if it does not scan (it turns itself off on an error).
 */
struct pddt_leaks {
	long count;		/* objects listed */
	long known;		/* of which leaks of stock 6.12 (see pddt.c) */
	char first[256];	/* the first other one: its size and backtrace */
};
int pddt_kmemleak_scan(const char *save, struct pddt_leaks *l);
/* Count the objects of kmemleak report @rep (which it cuts up) into @l. */
void pddt_kmemleak_count(char *rep, struct pddt_leaks *l);
/*
 * pddt_kmemleak_scan() as the result @name: PASS with no leak but known
 * ones of stock 6.12, SKIP, FAIL; the report goes beside the results file
 * as <name>.kmemleak.
 */
int pddt_kmemleak_check(const char *name);

/*
 * The writeback:balance_dirty_pages tracepoint, filtered on one task. Its
 * "pause" is the sleep a call is about to take, "paused" what the same call
 * has slept already. A call pauses again only after a pause at
 * task_ratelimit 0 (a stop). The time budget never sets that (its drain
 * floor), so a stop is stock's control where the event says budget_bound=0
 * (the budget did not set pos_ratio; on a kernel without the field, always).
 */
#define PDDT_MAX_PAUSE_MS	200	/* MAX_PAUSE in mm/page-writeback.c: HZ / 5 */
/* CONFIG_HZ of the kernels built here (config/base.config: HZ_250) */
#define PDDT_BDP_HZ		250
/*
 * What a call spends before its pause, as the tracepoint counts it: whole
 * jiffies (paused), so up to one for the rounding, one for the limits'
 * arithmetic and one for a preemption by the other writer on 2 vCPUs.
 */
#define PDDT_CALL_SLACK_MS	(3 * 1000 / PDDT_BDP_HZ)
struct pddt_bdp_call {
	long ms;		/* paused + pause of its last event */
	long pauses;		/* its pauses */
	long stops;		/* of which at task_ratelimit 0 */
	char ev[512];		/* the text of its last event */
};
struct pddt_bdp_trace {
	long events;		/* traced events (a call traces once per pause) */
	long paused;		/* of which with a pause > 0 */
	long max_pause_ms;	/* the longest single pause */
	long limited;		/* calls a time budget held (limited=1) */
	long bound;		/* calls whose pos_ratio it set (budget_bound=1) */
	long stock_calls;	/* calls with a stop of stock's control */
	struct pddt_bdp_call longest;	    /* the longest call of the others */
	struct pddt_bdp_call longest_stock; /* the longest of stock_calls */
	/* the call being summed: counted when the next one starts, or at the end */
	struct pddt_bdp_call cur;
	int cur_open;		/* its last event was a stop */
	int cur_stock;		/* it has a stop of stock's control */
	int cur_budget;		/* and one with budget_bound=1 */
};
/*
 * Clear the trace and trace the calls that match @filter (the event's
 * filter syntax), timed by CLOCK_MONOTONIC (pddt_now()'s clock) until
 * stopped. 0 or -errno.
 */
int pddt_bdp_trace_filter(const char *filter);
/* pddt_bdp_trace_filter() for @pid's calls only. */
int pddt_bdp_trace_start(pid_t pid);
/* The number after " @key=" in the event text @ev, or 0. */
long pddt_bdp_field(const char *ev, const char *key);
typedef void (*pddt_bdp_fn)(double t, pid_t pid, const char *ev, void *arg);
/*
 * Stop tracing and call @fn for each traced call of @pid (0: of every
 * task), in time order, with its time (the word before the event's name,
 * "12.345678:"), its task and the event's text. -1 if the trace cannot be
 * read or its buffer dropped events (its header's
 * entries-in-buffer/entries-written differ), else 0.
 */
int pddt_bdp_trace_each(pid_t pid, pddt_bdp_fn fn, void *arg);
/*
 * Sum up one event @ev into @t (zeroed before the first event), and the
 * last call once every event is in: for a caller that reads each event
 * itself (the trace can be read once: stopping it resets its clock).
 */
void pddt_bdp_sum(struct pddt_bdp_trace *t, const char *ev);
void pddt_bdp_sum_end(struct pddt_bdp_trace *t);
/* Stop tracing and sum up @pid's calls into @t. */
void pddt_bdp_trace_stop(pid_t pid, struct pddt_bdp_trace *t);
/* Sum up the calls of a saved trace (one task's) into @t; as above. */
int pddt_bdp_trace_sum_file(const char *path, struct pddt_bdp_trace *t);
/* One traced call: when (pddt_now()'s clock) and the pause it took. */
struct pddt_bdp_event {
	double t;
	long pause_ms;
};
/*
 * Stop tracing; @pid's calls, in time order, into @ev: their number, or -1
 * if the trace cannot be read, dropped events or held more than @max.
 */
long pddt_bdp_trace_events(pid_t pid, struct pddt_bdp_event *ev, long max);
/*
 * The time the calls among @ev[*@from..@n) made between @t0 and @t1 paused
 * (their positive pauses), in ms. *@from advances to the first call at or
 * after @t0: intervals asked in time order cost one pass over @ev in all.
 */
double pddt_bdp_paused_ms(const struct pddt_bdp_event *ev, long n, long *from,
			  double t0, double t1);

/* --- paced writers --- */
#define PDDT_PACED_MAX	8192	/* bursts of one paced writer */
#define PDDT_PACED_EV	(4 * PDDT_PACED_MAX)	/* its traced balance_dirty_pages calls */
/* What a paced writer did, in memory it shares with its parent. */
struct pddt_paced {
	int n;				/* its bursts */
	double start[PDDT_PACED_MAX], end[PDDT_PACED_MAX];	/* pddt_now() */
	double ms[PDDT_PACED_MAX];	/* the time its write()s took */
	double bdp_ms[PDDT_PACED_MAX];	/* of which paused in balance_dirty_pages() */
	double t0, secs, bytes;		/* its start, length, what it wrote */
	double fsync_t0, fsync_t1;	/* its fsync(), if asked */
	struct pddt_bdp_event ev[PDDT_PACED_EV];
};
/*
 * A paced writer, in a child (it exits): bursts of @burst bytes of pattern
 * @seed (pddt_write_burst()) into a new @file, at most @rate bytes/s on
 * average, for at least @min_n bursts and @min_s seconds, its
 * balance_dirty_pages() calls traced; one that falls behind does not catch
 * up (its next burst starts at once, and the pace goes on from there). With
 * @fsync, an fsync() of the file after the last burst. Into @out; exits 0,
 * or 2 (open), 3 (write or fsync), 4 (the trace: unreadable, dropped events
 * or more than PDDT_PACED_EV calls).
 */
void pddt_paced_writer(const char *file, size_t burst, double rate, uint64_t seed,
		       int min_n, double min_s, bool fsync, struct pddt_paced *out)
	__attribute__((noreturn));

/* --- stacked devices --- */
/*
 * A loop device over a new sparse file @img of @size bytes, with ext2 made
 * on it and mounted (as ext4) at @mnt; its path into @dev. 0 or -1.
 */
int pddt_loop_setup(const char *img, long long size, const char *mnt,
		    char *dev, size_t devsize);
/* Unmount @mnt, detach @dev, remove @img. */
void pddt_loop_teardown(const char *img, const char *mnt, const char *dev);
/*
 * A memory-backed null_blk device @name of @size_mb MiB, written at @mbps
 * MiB/s at most (0: no limit; under 7 is EINVAL: null_blk's largest
 * request, 255 sectors, must fit in one 20 ms quantum of it, or it never
 * completes), made through configfs (mounted if it is not), powered on,
 * with ext2 made on it and mounted (as ext4) at @mnt (made if missing); its
 * path into @dev. 0, or -1 (errno) with nothing left made.
 */
int pddt_nullb_mount(const char *name, int size_mb, int mbps, const char *mnt,
		     char *dev, size_t devsize);
/* Power null_blk device @name off (its disk goes away): 0 or -errno. */
int pddt_nullb_power_off(const char *name);
/* Power it off and remove its configfs item: 0, or -1 (errno of rmdir). */
int pddt_nullb_remove(const char *name);
/*
 * /bin/pddt-fuse serving directory @lower (made if missing) at @mnt (made
 * if missing); the daemon's pid once mounted (bounded wait), or -1.
 */
pid_t pddt_fuse_setup(const char *lower, const char *mnt);
/* Unmount @mnt, reap the daemon @pid, remove @mnt and @lower if empty. */
void pddt_fuse_teardown(const char *lower, const char *mnt, pid_t pid);

/*
 * Set disk @name's write bandwidth to @bps bytes/s (0: unthrottled) and
 * return once it is in force: a "pddt-qmp:" line on the console, which
 * scripts/qmp.sh turns into QMP block_set_io_throttle and answers on the
 * second serial port. Dies if the host refuses or does not answer.
 */
void pddt_host_throttle(const char *name, long long bps);
/* The same, returning -1 with the reason printed: for clean-up paths. */
int pddt_host_throttle_try(const char *name, long long bps);
/* Disk @name's write bandwidth at boot (PDDT_BPS), bytes/s, or -1. */
long long pddt_disk_bps(const char *name);
/* A bandwidth as a harness option writes it ("256K", "1M", "4194304"): bytes/s, or -1. */
long long pddt_parse_bps(const char *s);
/*
 * Unmount disk @name (the guest's: /dev/pddt/<name> at /mnt/<name>, ext4)
 * and mount it again, as /init did; how long umount() took into @umount_s
 * if not NULL. 0 or -1 (errno), with nothing mounted if the mount failed.
 */
int pddt_disk_remount(const char *name, double *umount_s);
/*
 * @file in the directory of disk @name into @out: $PDDT_DIR_<name> if set
 * (the field kit: a directory on a tester's disk), else /mnt/<name>.
 */
void pddt_disk_path(const char *name, const char *file, char *out, size_t size);
/*
 * What the block device that holds @path has written, in kB, into *@kb: its
 * sectors written (/sys/dev/block/M:m/stat), counted as its requests
 * complete. 0, or -1 if @path is on no block device (FUSE, tmpfs).
 */
int pddt_dev_written_kb(const char *path, long long *kb);

#endif
