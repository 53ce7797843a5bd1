// SPDX-License-Identifier: GPL-2.0
/*
 * faults - allocation failures injected where the series adds state: fork
 * (copy_process() initialises the task's dirty counter and free_task()
 * tears it down on every failure path) and the creation of a block device
 * (bdi_init() and wb_init(): percpu counters and the floating proportion of
 * writeout completions; the seed's bdi_init() unwound the wrong index).
 *
 * Systematic, as syzkaller injects faults: for n = 1, 2, ... the n-th
 * allocation of one operation fails (/proc/self/fail-nth, with failslab and
 * fail_page_alloc set to inject into sleeping and order-0 allocations too),
 * until the operation completes without reaching an n-th allocation. Each
 * attempt must fail with an error or succeed, and leave nothing behind:
 *   fork      fork() a child that dirties two pages of a file on the fast
 *             disk and exits; where fork() fails the parent writes them
 *   loop      LOOP_CTL_ADD makes a loop device (a gendisk and its bdi),
 *             LOOP_CTL_REMOVE removes it
 *   null_blk  a memory-backed null_blk device powered on through configfs,
 *             then powered off and removed
 * After each sweep the operation works without a fault (the loop and
 * null_blk devices are written and read back), kmemleak finds no new leak,
 * and every file reads back intact after sync and drop_caches; a streaming
 * writer runs on the slow disk throughout. Skipped on a kernel without
 * fault injection: make test CONFIG=debug builds one.
 */
#define _GNU_SOURCE
#include "pddt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/loop.h>

#define FAILSLAB	"/sys/kernel/debug/failslab"
#define FAILPAGE	"/sys/kernel/debug/fail_page_alloc"
#define MAX_NTH		3000	/* allocations of one operation, at most */
#define FORK_F		"/mnt/fast/faults-fork.dat"
#define STREAM_F	"/mnt/slow/faults-stream.dat"
#define LOOP_IDX	77
#define LOOP_IMG	"/tmp/faults-loop.img"
#define NB		"/sys/kernel/config/nullb/pddt-faults"
#define DEV_BYTES	(4 << 20)
#define PAGE		4096

enum { SEED_FORK = 0xfa01, SEED_STREAM, SEED_LOOP, SEED_NULLB };

static int nth_fd = -1;

/* Make the @n-th allocation of this task from now on fail (0: none). */
static void fail_nth(unsigned int n)
{
	char b[16];
	int len = snprintf(b, sizeof(b), "%u", n);

	if (pwrite(nth_fd, b, len, 0) != len)
		pddt_die("faults: cannot write /proc/self/fail-nth: %s", strerror(errno));
}

/* Disarm, and say whether the armed allocation was reached (and failed). */
static int fail_nth_reached(void)
{
	char b[16] = "";
	unsigned long left;

	/* a read, like the write, allocates nothing */
	if (pread(nth_fd, b, sizeof(b) - 1, 0) <= 0)
		pddt_die("faults: cannot read /proc/self/fail-nth: %s", strerror(errno));
	left = strtoul(b, NULL, 10);
	fail_nth(0);
	return left == 0;
}

/* What one sweep over the allocations of an operation saw. */
struct sweep {
	unsigned int n;		/* the last allocation made to fail */
	int complete;		/* an attempt finished before its n-th allocation */
	long errors;		/* attempts that returned an error */
	long survived;		/* attempts that succeeded despite the failure */
	long unclean;		/* attempts that left something behind */
	char errnos[96];	/* the errors seen, by name */
	char why[160];		/* the first unclean one */
};

static void sweep_error(struct sweep *s, int err)
{
	const char *name = strerrorname_np(err);
	size_t len = strlen(s->errnos);

	s->errors++;
	if (!name)
		name = "?";
	if (!pddt_word_in(name, s->errnos) && len + strlen(name) + 2 < sizeof(s->errnos))
		snprintf(s->errnos + len, sizeof(s->errnos) - len, "%s%s", len ? " " : "", name);
}

static void sweep_unclean(struct sweep *s, const char *fmt, const char *what, int err)
{
	if (!s->unclean++)
		snprintf(s->why, sizeof(s->why), fmt, s->n, what, strerror(err));
}

/* One result for a sweep: faults.<op>.sweep. */
static int sweep_result(const char *op, const struct sweep *s, double t0)
{
	char name[64];

	snprintf(name, sizeof(name), "faults.%s.sweep", op);
	return pddt_check(name, s->complete && !s->unclean,
			  "allocations 1 to %u failed in turn: %ld errors (%s), %ld survived, "
			  "%ld unclean%s%s; %s, in %.1f s",
			  s->complete ? s->n - 1 : s->n, s->errors, s->errnos[0] ? s->errnos : "none",
			  s->survived, s->unclean, s->unclean ? ": " : "", s->why,
			  s->complete ? "then it completed without a fault" :
			  "it never completed without one", pddt_now() - t0);
}

/* Write two pages of slot @i of the pattern. 0 or -1. */
static int fork_slot(int fd, unsigned int i)
{
	static unsigned char buf[2 * PAGE];
	off_t off = (off_t)i * sizeof(buf);

	pddt_pattern(buf, sizeof(buf), SEED_FORK, off);
	return pwrite(fd, buf, sizeof(buf), off) == (ssize_t)sizeof(buf) ? 0 : -1;
}

static int sweep_fork(void)
{
	struct sweep s = { 0 };
	double t0 = pddt_now();
	int fd, st = 0, fails;

	fd = open(FORK_F, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return pddt_result("faults.fork.sweep", PDDT_FAIL, "cannot open %s", FORK_F);
	for (s.n = 1; s.n <= MAX_NTH && !s.complete && s.unclean < 10; s.n++) {
		pid_t pid;
		int err, reached;

		fail_nth(s.n);
		pid = fork();
		/* the child must not touch fail-nth: the file is the parent's */
		if (!pid)
			_exit(fork_slot(fd, s.n - 1) ? 1 : 0);
		err = errno;
		reached = fail_nth_reached();
		s.complete = !reached;
		if (pid < 0) {
			sweep_error(&s, err);
			if (fork_slot(fd, s.n - 1))
				sweep_unclean(&s, "n=%u: %s: %s", "the parent's write", errno);
			continue;
		}
		s.survived += reached;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			sweep_unclean(&s, "n=%u: %s (%s)", "the child did not exit 0",
				      WIFSIGNALED(st) ? EINTR : EIO);
	}
	s.n--;
	close(fd);
	fails = sweep_result("fork", &s, t0);
	fails += pddt_check("faults.fork.data_intact",
			    !pddt_drop_caches() &&
			    !pddt_verify_pattern(FORK_F, (uint64_t)s.n * 2 * PAGE, SEED_FORK),
			    "%u slots of 2 pages, each written by a child or, where fork failed, "
			    "the parent", s.n);
	unlink(FORK_F);
	return fails;
}

/* Wait (bounded) for the device node @dev to appear. 0 or -1. */
static int wait_node(const char *dev)
{
	for (int i = 0; i < 100; i++) {
		if (!access(dev, F_OK))
			return 0;
		usleep(50000);
	}
	return -1;
}

/*
 * Write DEV_BYTES of pattern @seed to block device @dev through the page
 * cache, fsync, drop the cache, read it back. 0 if it reads back intact.
 */
static int blkdev_roundtrip(const char *dev, uint64_t seed)
{
	int fd = open(dev, O_WRONLY), bad = -1;

	if (fd < 0)
		return -1;
	if (!pddt_write_pattern(fd, DEV_BYTES, seed, 1 << 20) && !fsync(fd))
		bad = 0;
	close(fd);
	if (bad || pddt_drop_caches())
		return -1;
	return pddt_verify_pattern(dev, DEV_BYTES, seed) ? -1 : 0;
}

/* A loop device added and removed again. 0, or the errno of what failed. */
static int loop_remove(int ctl)
{
	/* a device still being opened by the kernel's probe may be busy */
	for (int i = 0; i < 50; i++) {
		if (ioctl(ctl, LOOP_CTL_REMOVE, LOOP_IDX) >= 0)
			return 0;
		if (errno != EBUSY)
			return errno;
		usleep(100000);
	}
	return EBUSY;
}

/* Add loop LOOP_IDX without a fault, back it by a file, write, read back. */
static int loop_use(int ctl, char *dev, size_t size)
{
	int ffd, lfd, bad = -1;

	snprintf(dev, size, "/dev/loop%d", LOOP_IDX);
	if (ioctl(ctl, LOOP_CTL_ADD, LOOP_IDX) != LOOP_IDX || wait_node(dev))
		return -1;
	ffd = open(LOOP_IMG, O_RDWR | O_CREAT | O_TRUNC, 0644);
	lfd = open(dev, O_RDWR);
	if (ffd >= 0 && lfd >= 0 && !ftruncate(ffd, DEV_BYTES) && !ioctl(lfd, LOOP_SET_FD, ffd)) {
		bad = blkdev_roundtrip(dev, SEED_LOOP);
		ioctl(lfd, LOOP_CLR_FD, 0);
	}
	if (ffd >= 0)
		close(ffd);
	if (lfd >= 0)
		close(lfd);
	unlink(LOOP_IMG);
	return loop_remove(ctl) ? -1 : bad;
}

static int sweep_loop(void)
{
	struct sweep s = { 0 };
	double t0 = pddt_now();
	char dev[32];
	int ctl, fails;

	ctl = open("/dev/loop-control", O_RDWR);
	if (ctl < 0)
		return pddt_result("faults.loop.sweep", PDDT_FAIL, "no /dev/loop-control");
	for (s.n = 1; s.n <= MAX_NTH && !s.complete && !s.unclean; s.n++) {
		int idx, err, reached;

		fail_nth(s.n);
		idx = ioctl(ctl, LOOP_CTL_ADD, LOOP_IDX);
		err = errno;
		reached = fail_nth_reached();
		s.complete = !reached;
		if (idx < 0) {
			sweep_error(&s, err);
			/* a failed add must leave the index free */
			if (err == EEXIST)
				sweep_unclean(&s, "n=%u: %s: %s", "the next add", err);
			continue;
		}
		s.survived += reached;
		err = loop_remove(ctl);
		if (err)
			sweep_unclean(&s, "n=%u: %s: %s", "LOOP_CTL_REMOVE", err);
	}
	s.n--;
	fails = sweep_result("loop", &s, t0);
	fails += pddt_check("faults.loop.works_after", !loop_use(ctl, dev, sizeof(dev)),
			    "%s added without a fault, backed by a file, %d MiB written and read "
			    "back, removed", dev, DEV_BYTES >> 20);
	close(ctl);
	return fails;
}

/* Make the configfs item of a null_blk device, powered off. 0 or -1. */
static int nullb_make(void)
{
	if (mkdir(NB, 0755) || pddt_write_file(NB "/memory_backed", "1") ||
	    pddt_write_file(NB "/size", "16") || pddt_write_file(NB "/blocksize", "4096"))
		return -1;
	return 0;
}

/* Power the device on without a fault, write, read back, remove it. */
static int nullb_use(char *dev, size_t size)
{
	char idx[16];
	int bad = -1;

	if (nullb_make() || pddt_write_file(NB "/power", "1") ||
	    pddt_read_file(NB "/index", idx, sizeof(idx)) <= 0) {
		rmdir(NB);
		return -1;
	}
	/* named after its configfs item (6.12), else by index */
	snprintf(dev, size, "/dev/%s", strrchr(NB, '/') + 1);
	if (access(dev, F_OK))
		snprintf(dev, size, "/dev/nullb%d", atoi(idx));
	if (!wait_node(dev))
		bad = blkdev_roundtrip(dev, SEED_NULLB);
	if (pddt_write_file(NB "/power", "0") || rmdir(NB))
		return -1;
	return bad;
}

static int sweep_null_blk(void)
{
	struct sweep s = { 0 };
	double t0 = pddt_now();
	char dev[64];
	int fails;

	if (access("/sys/kernel/config/nullb", F_OK) &&
	    mount("none", "/sys/kernel/config", "configfs", 0, NULL) && errno != EBUSY)
		return pddt_result("faults.null_blk.sweep", PDDT_FAIL, "cannot mount configfs: %s",
				   strerror(errno));
	for (s.n = 1; s.n <= MAX_NTH && !s.complete && !s.unclean; s.n++) {
		int pfd, err, reached;
		ssize_t w;

		if (nullb_make() || (pfd = open(NB "/power", O_WRONLY)) < 0) {
			sweep_unclean(&s, "n=%u: %s: %s", "making the configfs item", errno);
			break;
		}
		fail_nth(s.n);
		w = write(pfd, "1", 1);
		err = errno;
		reached = fail_nth_reached();
		close(pfd);
		s.complete = !reached;
		if (w != 1)
			sweep_error(&s, err);
		else if (pddt_write_file(NB "/power", "0"))
			sweep_unclean(&s, "n=%u: %s: %s", "power off", errno);
		else
			s.survived += reached;
		if (rmdir(NB))
			sweep_unclean(&s, "n=%u: %s: %s", "rmdir of the item", errno);
	}
	s.n--;
	fails = sweep_result("null_blk", &s, t0);
	fails += pddt_check("faults.null_blk.works_after", !nullb_use(dev, sizeof(dev)),
			    "%s powered on without a fault, %d MiB written and read back, "
			    "powered off and removed", dev, DEV_BYTES >> 20);
	return fails;
}

/* failslab and fail_page_alloc: inject into every allocation but __GFP_NOFAIL. */
static int inject_all(int on)
{
	const char *yn = on ? "N" : "Y";

	return pddt_write_file(FAILSLAB "/ignore-gfp-wait", yn) ||
	       pddt_write_file(FAILSLAB "/verbose", "0") ||
	       pddt_write_file(FAILPAGE "/ignore-gfp-wait", yn) ||
	       pddt_write_file(FAILPAGE "/min-order", on ? "0" : "1") ||
	       pddt_write_file(FAILPAGE "/verbose", "0");
}

/* The streaming writer's file, after sync and drop_caches. */
static int stream_check(void)
{
	struct stat sb;
	int fails;

	fails = pddt_check("faults.stream_data_intact",
			   !stat(STREAM_F, &sb) && !pddt_drop_caches() &&
			   !pddt_verify_pattern(STREAM_F, sb.st_size, SEED_STREAM),
			   "%s read back after sync and drop_caches", STREAM_F);
	unlink(STREAM_F);
	return fails;
}

int main(void)
{
	struct pddt_leaks earlier;
	int fails = 0, ran;
	pid_t stream;

	if (access(FAILSLAB, F_OK) || access(FAILPAGE, F_OK))
		return pddt_result("faults", PDDT_SKIP,
				   "no failslab or fail_page_alloc in this kernel (make test CONFIG=debug)");
	if (access("/mnt/slow", F_OK) || access("/mnt/fast", F_OK))
		return pddt_result("faults", PDDT_FAIL, "needs disks 'slow' and 'fast'");
	nth_fd = open("/proc/self/fail-nth", O_RDWR);
	if (nth_fd < 0 || inject_all(1))
		return pddt_result("faults", PDDT_FAIL, "cannot set up fault injection: %s",
				   strerror(errno));
	pddt_set_dirty_bytes(64 << 10, 32 << 10);
	/* what earlier tests left is theirs (see kmemleak.after_* of init) */
	pddt_kmemleak_scan(NULL, &earlier);

	stream = pddt_stream_start(STREAM_F, SEED_STREAM, 64 << 20, 64 << 10, NULL);
	fails += sweep_fork();
	fails += pddt_kmemleak_check("faults.fork.no_leaks");
	fails += sweep_loop();
	fails += pddt_kmemleak_check("faults.loop.no_leaks");
	fails += sweep_null_blk();
	fails += pddt_kmemleak_check("faults.null_blk.no_leaks");
	ran = pddt_stream_stop(stream);
	inject_all(0);
	fails += pddt_check("faults.streaming_writer_ran", ran,
			    "the slow disk's streaming writer ran through every sweep");
	fails += stream_check();
	pddt_default_dirty_ratios();
	return fails ? 1 : 0;
}
