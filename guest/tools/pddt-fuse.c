// SPDX-License-Identifier: GPL-2.0
/*
 * pddt-fuse - a passthrough FUSE file system, for the stacked scenarios.
 *
 * Usage: pddt-fuse LOWER MOUNTPOINT
 *
 * Mounts LOWER (a directory) at MOUNTPOINT and serves it in the foreground
 * until the mount is unmounted or the daemon is killed. The kernel's
 * writeback cache is asked for, so writes dirty page cache pages of the
 * FUSE bdi (strictlimit, max_ratio 1 %) that its writeback then sends here;
 * without it every write() would go through to the daemon synchronously
 * and the FUSE bdi would hold no dirty pages at all.
 */
#define FUSE_USE_VERSION 35
#include <fuse.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static const char *lower;

/* @path under LOWER into @buf; -ENAMETOOLONG if it does not fit. */
static int lower_path(char *buf, const char *path)
{
	int n = snprintf(buf, PATH_MAX, "%s%s", lower, path);

	return n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

#define LOWER(p, path)				\
	char p[PATH_MAX];			\
	do {					\
		int e_ = lower_path(p, path);	\
		if (e_)				\
			return e_;		\
	} while (0)

static void *pf_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	if (conn->capable & FUSE_CAP_WRITEBACK_CACHE)
		conn->want |= FUSE_CAP_WRITEBACK_CACHE;
	cfg->use_ino = 1;
	/* the kernel keeps attributes and data: it owns them with the cache */
	cfg->attr_timeout = 1;
	cfg->entry_timeout = 1;
	return NULL;
}

static int pf_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	if (fi)
		return fstat(fi->fh, st) ? -errno : 0;
	LOWER(p, path);
	return lstat(p, st) ? -errno : 0;
}

static int pf_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	struct dirent *de;
	DIR *d;

	(void)off, (void)fi, (void)flags;
	LOWER(p, path);
	d = opendir(p);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (fill(buf, de->d_name, NULL, 0, 0))
			break;
	closedir(d);
	return 0;
}

/*
 * With the writeback cache the kernel reads pages it writes partially and
 * does O_APPEND itself: a write-only open must be able to read, and must not
 * append.
 */
static int lower_flags(int flags)
{
	if ((flags & O_ACCMODE) == O_WRONLY)
		flags = (flags & ~O_ACCMODE) | O_RDWR;
	return flags & ~O_APPEND;
}

static int pf_open(const char *path, struct fuse_file_info *fi)
{
	int fd;

	LOWER(p, path);
	fd = open(p, lower_flags(fi->flags));
	if (fd < 0)
		return -errno;
	fi->fh = fd;
	return 0;
}

static int pf_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int fd;

	LOWER(p, path);
	fd = open(p, lower_flags(fi->flags) | O_CREAT, mode);
	if (fd < 0)
		return -errno;
	fi->fh = fd;
	return 0;
}

static int pf_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	ssize_t n = pread(fi->fh, buf, size, off);

	(void)path;
	return n < 0 ? -errno : (int)n;
}

static int pf_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	ssize_t n = pwrite(fi->fh, buf, size, off);

	(void)path;
	return n < 0 ? -errno : (int)n;
}

static int pf_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	close(fi->fh);
	return 0;
}

static int pf_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	return (datasync ? fdatasync(fi->fh) : fsync(fi->fh)) ? -errno : 0;
}

static int pf_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	if (fi)
		return ftruncate(fi->fh, size) ? -errno : 0;
	LOWER(p, path);
	return truncate(p, size) ? -errno : 0;
}

static int pf_utimens(const char *path, const struct timespec tv[2],
		      struct fuse_file_info *fi)
{
	if (fi)
		return futimens(fi->fh, tv) ? -errno : 0;
	LOWER(p, path);
	return utimensat(AT_FDCWD, p, tv, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
}

static int pf_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	if (fi)
		return fchmod(fi->fh, mode) ? -errno : 0;
	LOWER(p, path);
	return chmod(p, mode) ? -errno : 0;
}

static int pf_unlink(const char *path)
{
	LOWER(p, path);
	return unlink(p) ? -errno : 0;
}

static int pf_mkdir(const char *path, mode_t mode)
{
	LOWER(p, path);
	return mkdir(p, mode) ? -errno : 0;
}

static int pf_rmdir(const char *path)
{
	LOWER(p, path);
	return rmdir(p) ? -errno : 0;
}

static int pf_statfs(const char *path, struct statvfs *sv)
{
	LOWER(p, path);
	return statvfs(p, sv) ? -errno : 0;
}

static const struct fuse_operations ops = {
	.init = pf_init,
	.getattr = pf_getattr,
	.readdir = pf_readdir,
	.open = pf_open,
	.create = pf_create,
	.read = pf_read,
	.write = pf_write,
	.release = pf_release,
	.fsync = pf_fsync,
	.truncate = pf_truncate,
	.utimens = pf_utimens,
	.chmod = pf_chmod,
	.unlink = pf_unlink,
	.mkdir = pf_mkdir,
	.rmdir = pf_rmdir,
	.statfs = pf_statfs,
};

int main(int argc, char **argv)
{
	char *args[] = { argv[0], "-f", "-o", "default_permissions", NULL, NULL };
	struct stat st;

	if (argc != 3) {
		fprintf(stderr, "usage: %s LOWER MOUNTPOINT\n", argv[0]);
		return 2;
	}
	if (stat(argv[1], &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: LOWER '%s' is not a directory\n", argv[0], argv[1]);
		return 2;
	}
	lower = realpath(argv[1], NULL);
	if (!lower) {
		perror(argv[1]);
		return 2;
	}
	args[4] = argv[2];
	return fuse_main(5, args, &ops, NULL);
}
