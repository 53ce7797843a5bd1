// SPDX-License-Identifier: GPL-2.0
/*
 * disks.c - the disks: their directories, set bandwidths and sectors written,
 * requests to the host, loop and FUSE stacked on them, null_blk devices
 * made at run time.
 */
#include "pddt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <linux/loop.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

/*
 * The host's answers come on the second serial port, a pipe that
 * scripts/qmp.sh writes: one line per request, "pddt-ack: throttle NAME
 * BPS: OUTCOME". The port is opened once, raw, before the first request,
 * so that no answer arrives while it is closed; input left from before is
 * dropped then.
 */
#define ACK_TTY		"/dev/ttyS1"
/* the host starts a QMP session per request, each step of it bounded by 10 s */
#define ACK_S		60

static int ack_fd = -1;

static int ack_open(void)
{
	struct termios t;

	if (ack_fd >= 0)
		return 0;
	ack_fd = open(ACK_TTY, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (ack_fd < 0)
		return -1;
	if (!tcgetattr(ack_fd, &t)) {
		cfmakeraw(&t);
		if (!tcsetattr(ack_fd, TCSANOW, &t) && !tcflush(ack_fd, TCIFLUSH))
			return 0;
	}
	close(ack_fd);
	ack_fd = -1;
	return -1;
}

/* Read one line of at most @size - 1 characters into @line by @deadline. */
static int ack_line(char *line, size_t size, double deadline)
{
	size_t n = 0;

	for (;;) {
		struct pollfd p = { .fd = ack_fd, .events = POLLIN };
		double left = deadline - pddt_now();
		char c;

		if (left <= 0)
			return -1;
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (!(p.revents & POLLIN)) {
			if (p.revents & (POLLERR | POLLHUP | POLLNVAL))
				return -1;
			continue;
		}
		if (read(ack_fd, &c, 1) != 1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (c == '\r')
			continue;
		if (c == '\n') {
			line[n] = 0;
			return 0;
		}
		if (n + 1 < size)
			line[n++] = c;
	}
}

int pddt_host_throttle_try(const char *name, long long bps)
{
	char want[128], line[256];
	double deadline;
	size_t len;

	if (ack_open()) {
		printf("pddt: cannot open %s, the host's answers: %m\n", ACK_TTY);
		return -1;
	}
	len = snprintf(want, sizeof(want), "pddt-ack: throttle %s %lld: ", name, bps);
	printf("pddt-qmp: throttle %s %lld\n", name, bps);
	fflush(stdout);
	deadline = pddt_now() + ACK_S;
	for (;;) {
		if (ack_line(line, sizeof(line), deadline)) {
			printf("pddt: no answer from the host in %d s\n", ACK_S);
			return -1;
		}
		if (!strncmp(line, want, len))
			break;
		/* an answer to an earlier request */
	}
	if (strcmp(line + len, "ok")) {
		printf("pddt: the host answered: %s\n", line + len);
		return -1;
	}
	return 0;
}

void pddt_host_throttle(const char *name, long long bps)
{
	if (pddt_host_throttle_try(name, bps))
		pddt_die("pddt_host_throttle: disk %s's write bandwidth is not set to %lld bytes/s",
			 name, bps);
}

int pddt_disk_remount(const char *name, double *umount_s)
{
	char link[64], dev[PATH_MAX], mnt[64];
	double t0;

	snprintf(link, sizeof(link), "/dev/pddt/%s", name);
	snprintf(mnt, sizeof(mnt), "/mnt/%s", name);
	if (!realpath(link, dev))
		return -1;
	t0 = pddt_now();
	if (umount(mnt))
		return -1;
	if (umount_s)
		*umount_s = pddt_now() - t0;
	return mount(dev, mnt, "ext4", 0, NULL);
}

long long pddt_disk_bps(const char *name)
{
	const char *p = getenv("PDDT_BPS");
	size_t n = strlen(name);

	/* "fast:104857600 slow:4194304" */
	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == ':')
			return atoll(p + n + 1);
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return -1;
}

long long pddt_parse_bps(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s || v <= 0 || v > (1LL << 32))
		return -1;
	if (!strcmp(end, "K"))
		v <<= 10;
	else if (!strcmp(end, "M"))
		v <<= 20;
	else if (*end)
		return -1;
	return v;
}

void pddt_disk_path(const char *name, const char *file, char *out, size_t size)
{
	char var[64];
	const char *dir;

	snprintf(var, sizeof(var), "PDDT_DIR_%s", name);
	dir = getenv(var);
	if (dir && *dir)
		snprintf(out, size, "%s/%s", dir, file);
	else
		snprintf(out, size, "/mnt/%s/%s", name, file);
}

/*
 * ext2 made on @dev (mke2fs with @opts) and mounted as ext4 at @mnt, made if
 * missing (and removed again if the mount fails). 0, or -1 (errno; EIO if
 * mke2fs failed).
 */
static int ext2_mount(const char *dev, const char *opts, const char *mnt)
{
	char cmd[128];
	int made;

	snprintf(cmd, sizeof(cmd), "mke2fs -q %s %s", opts, dev);
	if (system(cmd)) {
		errno = EIO;
		return -1;
	}
	made = !mkdir(mnt, 0755);
	if ((made || errno == EEXIST) && !mount(dev, mnt, "ext4", 0, NULL))
		return 0;
	if (made) {
		int err = errno;

		rmdir(mnt);
		errno = err;
	}
	return -1;
}

int pddt_loop_setup(const char *img, long long size, const char *mnt,
		    char *dev, size_t devsize)
{
	int ctl, lfd, ffd, n, err = -1;

	ctl = open("/dev/loop-control", O_RDWR);
	n = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);
	if (ctl >= 0)
		close(ctl);
	if (n < 0)
		return -1;
	snprintf(dev, devsize, "/dev/loop%d", n);
	ffd = open(img, O_RDWR | O_CREAT | O_TRUNC, 0644);
	lfd = open(dev, O_RDWR);
	if (ffd >= 0 && lfd >= 0 && !ftruncate(ffd, size) &&
	    !ioctl(lfd, LOOP_SET_FD, ffd))
		err = 0;
	if (ffd >= 0)
		close(ffd);
	if (lfd >= 0)
		close(lfd);
	if (!err && ext2_mount(dev, "", mnt))
		err = -1;
	return err;
}

void pddt_loop_teardown(const char *img, const char *mnt, const char *dev)
{
	int lfd;

	umount(mnt);
	rmdir(mnt);
	lfd = open(dev, O_RDWR);
	if (lfd >= 0) {
		ioctl(lfd, LOOP_CLR_FD, 0);
		close(lfd);
	}
	unlink(img);
}

/* The configfs directory of null_blk device @name into @dir. */
static void nullb_dir(const char *name, char *dir, size_t size)
{
	snprintf(dir, size, "/sys/kernel/config/nullb/%s", name);
}

/* Write @val to attribute @attr of the null_blk item @dir: 0 or -errno. */
static int nullb_set(const char *dir, const char *attr, long long val)
{
	char path[160], v[24];

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	snprintf(v, sizeof(v), "%lld", val);
	return pddt_write_file(path, v);
}

int pddt_nullb_mount(const char *name, int size_mb, int mbps, const char *mnt,
		     char *dev, size_t devsize)
{
	char dir[128], path[160], idx[16];

	/* its default largest request, 255 sectors, in one 20 ms quantum */
	if (mbps && mbps * 20971 < 255 * 512) {
		errno = EINVAL;
		return -1;
	}
	if (access("/sys/kernel/config/nullb", F_OK) &&
	    mount("none", "/sys/kernel/config", "configfs", 0, NULL) && errno != EBUSY)
		return -1;
	nullb_dir(name, dir, sizeof(dir));
	if (mkdir(dir, 0755))
		return -1;
	snprintf(path, sizeof(path), "%s/index", dir);
	if (nullb_set(dir, "memory_backed", 1) || nullb_set(dir, "size", size_mb) ||
	    nullb_set(dir, "blocksize", 4096) || (mbps && nullb_set(dir, "mbps", mbps)) ||
	    nullb_set(dir, "power", 1) || pddt_read_file(path, idx, sizeof(idx)) <= 0)
		goto remove;
	/* a configfs device is named after its item (6.12), else by index */
	snprintf(dev, devsize, "/dev/%s", name);
	if (access(dev, F_OK))
		snprintf(dev, devsize, "/dev/nullb%d", atoi(idx));
	/* mke2fs picks 1 KiB blocks on a small disk: under the sector size */
	if (!ext2_mount(dev, "-b 4096", mnt))
		return 0;
remove:
	pddt_nullb_remove(name);
	return -1;
}

int pddt_nullb_power_off(const char *name)
{
	char dir[128];

	nullb_dir(name, dir, sizeof(dir));
	return nullb_set(dir, "power", 0);
}

int pddt_nullb_remove(const char *name)
{
	char dir[128];
	int err = errno;

	nullb_dir(name, dir, sizeof(dir));
	nullb_set(dir, "power", 0);
	if (rmdir(dir))
		return -1;
	errno = err;
	return 0;
}

pid_t pddt_fuse_setup(const char *lower, const char *mnt)
{
	pid_t pid;

	if ((mkdir(lower, 0755) && errno != EEXIST) ||
	    (mkdir(mnt, 0755) && errno != EEXIST))
		return -1;
	pid = fork();
	if (!pid) {
		execl("/bin/pddt-fuse", "pddt-fuse", lower, mnt, (char *)NULL);
		_exit(127);
	}
	/* mounted once @mnt is on another device than the directory above */
	for (int i = 0; i < 100; i++) {
		char parent[256];
		struct stat a, b;

		snprintf(parent, sizeof(parent), "%s/..", mnt);
		if (!stat(mnt, &a) && !stat(parent, &b) && a.st_dev != b.st_dev)
			return pid;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return -1;
		usleep(100000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return -1;
}

void pddt_fuse_teardown(const char *lower, const char *mnt, pid_t pid)
{
	umount(mnt);
	waitpid(pid, NULL, 0);
	rmdir(mnt);
	rmdir(lower);
}

int pddt_dev_written_kb(const char *path, long long *kb)
{
	char sys[96], buf[256];
	unsigned long long f[7];
	struct stat st;

	if (stat(path, &st) || !major(st.st_dev))
		return -1;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/stat", major(st.st_dev),
		 minor(st.st_dev));
	/* reads: ios merges sectors ticks; writes: ios merges sectors */
	if (pddt_read_file(sys, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2],
		   &f[3], &f[4], &f[5], &f[6]) != 7)
		return -1;
	*kb = f[6] / 2;
	return 0;
}
