// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - files, sysctls and /proc: reading and writing them, the vm dirty settings, page cache.
 */
#include "pddt.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

ssize_t pddt_read_file(const char *path, char *buf, size_t size)
{
	ssize_t n, len = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while (len < (ssize_t)size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return len;
}

int pddt_write_buf(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	return (size_t)n == len ? 0 : -EIO;
}

int pddt_write_file(const char *path, const char *val)
{
	return pddt_write_buf(path, val, strlen(val));
}

long long pddt_read_ll(const char *path)
{
	char buf[64], *end;
	long long v;

	if (pddt_read_file(path, buf, sizeof(buf)) <= 0)
		return LLONG_MIN;
	v = strtoll(buf, &end, 10);
	return end == buf ? LLONG_MIN : v;
}

int pddt_check_int_sysctl(const char *prefix, const char *path,
			  const char *const *good, size_t ngood,
			  const struct pddt_bad_input *bad, size_t nbad,
			  long long keep)
{
	static char oversized[8192];
	char name[128], val[32];
	int fails = 0;

	for (size_t i = 0; i < ngood; i++) {
		int err = pddt_write_file(path, good[i]);
		long long got = pddt_read_ll(path);

		snprintf(name, sizeof(name), "%s.accepts_%lld", prefix, atoll(good[i]));
		fails += pddt_check(name, !err && got == atoll(good[i]),
				    "write '%.8s': %s, reads back %lld", good[i],
				    err ? strerror(-err) : "ok", got);
	}
	memset(oversized, '7', sizeof(oversized));
	snprintf(val, sizeof(val), "%lld", keep);
	if (pddt_write_file(path, val))
		return fails + pddt_result(prefix, PDDT_FAIL, "cannot set %s to %s", path, val);
	for (size_t i = 0; i <= nbad; i++) {
		/* the last one: 8 KiB of digits */
		const char *v = i < nbad ? bad[i].val : oversized;
		size_t len = i < nbad ? strlen(v) : sizeof(oversized);
		int err;
		long long got;

		err = pddt_write_buf(path, v, len);
		got = pddt_read_ll(path);
		/*
		 * An empty write is no input: proc_dointvec_minmax() takes
		 * it as a no-op, as for every int sysctl. It must change
		 * nothing; anything else must be EINVAL.
		 */
		if (!len) {
			snprintf(name, sizeof(name), "%s.empty_write_changes_nothing",
				 prefix);
			fails += pddt_check(name, got == keep,
					    "write of 0 bytes: %s, value now %lld (was %lld)",
					    err ? strerror(-err) : "accepted", got, keep);
			continue;
		}
		snprintf(name, sizeof(name), "%s.rejects_%s", prefix,
			 i < nbad ? bad[i].name : "oversized");
		fails += pddt_check(name, err == -EINVAL && got == keep,
				    "write '%.20s' (%zu bytes): %s, value now %lld (was %lld)",
				    v, len, err ? strerror(-err) : "accepted", got, keep);
	}
	return fails;
}

long long pddt_meminfo_kb(const char *key)
{
	char buf[4096], *p = buf;
	size_t len = strlen(key);

	if (pddt_read_file("/proc/meminfo", buf, sizeof(buf)) <= 0)
		return -1;
	while (p && *p) {
		if (!strncmp(p, key, len) && p[len] == ':')
			return strtoll(p + len + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

int pddt_drop_caches(void)
{
	sync();
	return pddt_write_file("/proc/sys/vm/drop_caches", "3");
}

void pddt_set_dirty_bytes(long long dirty_kb, long long bg_kb)
{
	char val[32];

	snprintf(val, sizeof(val), "%lld", dirty_kb << 10);
	if (pddt_write_file("/proc/sys/vm/dirty_bytes", val))
		pddt_die("cannot set vm.dirty_bytes to %s", val);
	snprintf(val, sizeof(val), "%lld", bg_kb << 10);
	if (pddt_write_file("/proc/sys/vm/dirty_background_bytes", val))
		pddt_die("cannot set vm.dirty_background_bytes to %s", val);
}

void pddt_default_dirty_ratios(void)
{
	pddt_write_file("/proc/sys/vm/dirty_ratio", "20");
	pddt_write_file("/proc/sys/vm/dirty_background_ratio", "10");
}
