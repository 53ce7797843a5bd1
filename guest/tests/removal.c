// SPDX-License-Identifier: GPL-2.0
/*
 * removal - devices that go away while they hold dirty pages.
 *
 * For each device a streaming writer runs until it has written 1 MiB and
 * the device's bdi holds dirty pages (polled, bounded), then the device
 * goes away:
 *    loop      the fs on a loop device (over a file on the slow disk) is
 *              lazily unmounted and the loop device detached (LOOP_CLR_FD:
 *              deferred until the fs lets go); the writer is stopped. The
 *              loop device must be gone within REMOVE_S, and the image,
 *              attached again, must hold every byte the writer wrote.
 *    null_blk  a memory-backed null_blk device made through configfs,
 *              with ext2 on it, is powered off while mounted: its disk is
 *              deleted under the writer. fsync() then returns (an error
 *              or not) within REMOVE_S, the writer stops on SIGTERM
 *              within REMOVE_S, and the configfs item can be removed.
 *    fuse      the pddt-fuse daemon (writeback cache) is killed: the
 *              writer gets an error or is stopped within REMOVE_S, and the
 *              mount can be detached.
 * Nothing may hang (the hung-task detector panics the guest) or splat (the
 * host scans the serial log).
 */
#include "pddt.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define REMOVE_S	30
#define DIRTY_WAIT_S	20
#define WRITTEN_MIN	(1 << 20)	/* written before the device goes away */
#define LOOP_IMG	"/mnt/slow/removal-loop.img"
#define LOOP_MNT	"/mnt/rm-loop"
#define NB_NAME		"pddt-rm"
#define NB_MNT		"/mnt/rm-nullb"
#define FUSE_LOWER	"/mnt/fast/removal-fuse"
#define FUSE_MNT	"/mnt/rm-fuse"
#define SEED		0x7e40

/* What a call that returned @rc did, for a message: errno read after it */
static const char *outcome(int rc)
{
	return rc ? strerror(errno) : "ok";
}

/*
 * Wait (bounded) until the writer of @st has written WRITTEN_MIN (on a
 * slow debug kernel it may not have started when the device goes away,
 * and the data checks would be empty) and the bdi of @mnt holds dirty or
 * writeback pages.
 */
static int wait_dirty(const char *mnt, const char *name, const struct pddt_stream *st)
{
	double t0 = pddt_now();
	struct bdi_stats s;
	char n[96];

	while (pddt_now() - t0 < DIRTY_WAIT_S) {
		if (st->bytes >= WRITTEN_MIN && !bdi_stats_read(mnt, &s) &&
		    bdi_stat(&s, "BdiReclaimable") + bdi_stat(&s, "BdiWriteback") > 0)
			return 0;
		usleep(100000);
	}
	snprintf(n, sizeof(n), "removal.%s.dirty_before", name);
	return pddt_result(n, PDDT_FAIL, "not %d KiB written and dirty pages on %s within %d s (%llu KiB written)",
			   WRITTEN_MIN >> 10, mnt, DIRTY_WAIT_S, (unsigned long long)st->bytes >> 10);
}

/*
 * Reap @pid within @secs: 1 if it exited. If not, 0, and with @force it is
 * SIGKILLed and reaped (a task stuck in the kernel would hang here, and the
 * hung-task detector would end the run).
 */
static int reap_within(pid_t pid, double secs, int *status, int force)
{
	double t0 = pddt_now();

	while (pddt_now() - t0 < secs) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return 1;
		usleep(50000);
	}
	if (force) {
		kill(pid, SIGKILL);
		waitpid(pid, status, 0);
	}
	return 0;
}

/* Stop a streaming writer: SIGTERM, reaped within REMOVE_S. */
static int stop_within(pid_t pid, int *status)
{
	kill(pid, SIGTERM);
	return reap_within(pid, REMOVE_S, status, 1);
}

static int test_loop(void)
{
	struct pddt_stream *st = pddt_shared(sizeof(*st));
	char dev[32], sys[96], file[96];
	int fails = 0, st_w, fd, rc, gone = 0;
	long long bad;
	double t0;
	pid_t w;

	if (pddt_loop_setup(LOOP_IMG, 256LL << 20, LOOP_MNT, dev, sizeof(dev)))
		return pddt_result("removal.loop.set_up", PDDT_FAIL, "no loop device on %s", LOOP_IMG);
	w = pddt_stream_start(LOOP_MNT "/stream.dat", SEED, 0, 64 << 10, st);
	if (wait_dirty(LOOP_MNT, "loop", st)) {
		stop_within(w, &st_w);
		pddt_loop_teardown(LOOP_IMG, LOOP_MNT, dev);
		return 1;
	}
	/* gone from the namespace, then detached: deferred until the fs lets go */
	rc = umount2(LOOP_MNT, MNT_DETACH);
	fails += pddt_check("removal.loop.lazy_unmount", !rc,
			    "umount -l with dirty pages: %s", outcome(rc));
	fd = open(dev, O_RDWR);
	rc = fd < 0 ? -1 : ioctl(fd, LOOP_CLR_FD, 0);
	fails += pddt_check("removal.loop.detach", !rc,
			    "LOOP_CLR_FD on %s while its fs is busy: %s", dev, outcome(rc));
	if (fd >= 0)
		close(fd);
	fails += pddt_check("removal.loop.writer_stops", stop_within(w, &st_w),
			    "the writer, after %llu MiB, stopped on SIGTERM within %d s",
			    (unsigned long long)st->bytes >> 20, REMOVE_S);
	snprintf(sys, sizeof(sys), "/sys/block/%s/loop/backing_file", dev + 5);
	t0 = pddt_now();
	while (!(gone = access(sys, F_OK) != 0) && pddt_now() - t0 < REMOVE_S)
		usleep(100000);
	fails += pddt_check("removal.loop.device_gone", gone,
			    "%s detached %.1f s after the writer stopped", dev, pddt_now() - t0);
	rmdir(LOOP_MNT);

	/* attach the image again: the fs wrote back what the writer wrote */
	if (gone) {
		fd = open(LOOP_IMG, O_RDWR);
		int lfd = open(dev, O_RDWR);

		if (fd >= 0 && lfd >= 0 && !ioctl(lfd, LOOP_SET_FD, fd) && !mkdir(LOOP_MNT, 0755) &&
		    !mount(dev, LOOP_MNT, "ext4", MS_RDONLY, NULL)) {
			struct stat sb;

			snprintf(file, sizeof(file), LOOP_MNT "/stream.dat");
			bad = stat(file, &sb) ? -1 : pddt_verify_pattern(file, sb.st_size, SEED);
			fails += pddt_check("removal.loop.data_intact",
					    !bad && (uint64_t)sb.st_size >= st->bytes,
					    "%lld MiB in the image (the writer wrote %llu MiB), %lld bytes differ",
					    (long long)sb.st_size >> 20,
					    (unsigned long long)st->bytes >> 20, bad);
			umount(LOOP_MNT);
		} else {
			fails += pddt_result("removal.loop.data_intact", PDDT_FAIL,
					     "cannot attach and mount %s again: %s", LOOP_IMG,
					     strerror(errno));
		}
		if (lfd >= 0) {
			ioctl(lfd, LOOP_CLR_FD, 0);
			close(lfd);
		}
		if (fd >= 0)
			close(fd);
	}
	rmdir(LOOP_MNT);
	unlink(LOOP_IMG);
	return fails;
}

/* fsync() @file in a child, bounded: 1 if it returned; its errno into @err. */
static int fsync_within(const char *file, int *err)
{
	int *res = pddt_shared(sizeof(int)), status;
	pid_t pid = fork();

	*res = -1;
	if (!pid) {
		int fd = open(file, O_WRONLY);

		*res = fd < 0 ? errno : fsync(fd) ? errno : 0;
		_exit(0);
	}
	if (!reap_within(pid, REMOVE_S, &status, 1))
		return 0;
	*err = *res;
	return 1;
}

static int test_null_blk(void)
{
	struct pddt_stream *st = pddt_shared(sizeof(*st));
	char dev[32];
	int fails = 0, st_w, err = 0, rc;
	pid_t w;

	if (pddt_nullb_mount(NB_NAME, 256, 0, NB_MNT, dev, sizeof(dev)))
		return pddt_result("removal.null_blk.set_up", PDDT_FAIL,
				   "cannot make a null_blk device %s with ext2 on it and mount it: %s",
				   NB_NAME, strerror(errno));
	w = pddt_stream_start(NB_MNT "/stream.dat", SEED, 0, 64 << 10, st);
	if (wait_dirty(NB_MNT, "null_blk", st)) {
		stop_within(w, &st_w);
		umount2(NB_MNT, MNT_DETACH);
		pddt_nullb_remove(NB_NAME);
		return 1;
	}
	fails += pddt_check("removal.null_blk.power_off", !pddt_nullb_power_off(NB_NAME),
			    "%s powered off while mounted, after %llu MiB", dev,
			    (unsigned long long)st->bytes >> 20);
	usleep(500000);
	fails += pddt_check("removal.null_blk.fsync_returns",
			    fsync_within(NB_MNT "/stream.dat", &err),
			    "fsync() on the removed disk returned within %d s: %s", REMOVE_S,
			    err ? strerror(err) : "0");
	fails += pddt_check("removal.null_blk.writer_stops", stop_within(w, &st_w),
			    "the writer stopped on SIGTERM within %d s (%llu MiB written in all)",
			    REMOVE_S, (unsigned long long)st->bytes >> 20);
	rc = umount2(NB_MNT, MNT_DETACH);
	fails += pddt_check("removal.null_blk.unmount", !rc,
			    "umount -l of the removed disk: %s", outcome(rc));
	rc = pddt_nullb_remove(NB_NAME);
	fails += pddt_check("removal.null_blk.item_removed", !rc,
			    "rmdir of its configfs item: %s", outcome(rc));
	rmdir(NB_MNT);
	return fails;
}

static int test_fuse(void)
{
	struct pddt_stream *st = pddt_shared(sizeof(*st));
	int fails = 0, st_w = 0, by_itself, rc;
	pid_t d, w;

	d = pddt_fuse_setup(FUSE_LOWER, FUSE_MNT);
	if (d < 0)
		return pddt_result("removal.fuse.set_up", PDDT_FAIL, "pddt-fuse did not mount");
	w = pddt_stream_start(FUSE_MNT "/stream.dat", SEED, 0, 64 << 10, st);
	if (wait_dirty(FUSE_MNT, "fuse", st)) {
		stop_within(w, &st_w);
		pddt_fuse_teardown(FUSE_LOWER, FUSE_MNT, d);
		return 1;
	}
	kill(d, SIGKILL);
	waitpid(d, NULL, 0);
	/* the writer may see the error (it exits 3), or go on into the cache */
	by_itself = reap_within(w, 5, &st_w, 0);
	fails += pddt_check("removal.fuse.writer_stops", by_itself || stop_within(w, &st_w),
			    "after the daemon died the writer %s",
			    by_itself ? (WIFEXITED(st_w) && WEXITSTATUS(st_w) == 3 ?
					 "stopped by itself: a write() failed" : "exited") :
			    "went on, and stopped on SIGTERM within the bound");
	rc = umount2(FUSE_MNT, MNT_DETACH);
	fails += pddt_check("removal.fuse.unmount", !rc,
			    "umount -l after the daemon died: %s", outcome(rc));
	unlink(FUSE_LOWER "/stream.dat");
	rmdir(FUSE_MNT);
	rmdir(FUSE_LOWER);
	return fails;
}

int main(void)
{
	int fails = 0;

	if (access("/mnt/slow", F_OK) || access("/mnt/fast", F_OK))
		return pddt_result("removal", PDDT_FAIL, "needs disks 'slow' and 'fast'");
	fails += test_loop();
	fails += test_null_blk();
	fails += test_fuse();
	return fails ? 1 : 0;
}
