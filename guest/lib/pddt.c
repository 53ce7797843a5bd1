// SPDX-License-Identifier: GPL-2.0
/*
 * pddt.c - results, files, bdi statistics and data patterns for the guest.
 */
#include "pddt.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

static const char *const status_name[] = { "PASS", "FAIL", "SKIP" };

static int vresult(const char *name, enum pddt_status st, const char *fmt,
		   va_list ap)
{
	const char *path = getenv("PDDT_RESULTS");
	char detail[512];
	FILE *f;

	vsnprintf(detail, sizeof(detail), fmt, ap);
	/* Keep the record one line and the tsv three columns. */
	for (char *p = detail; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	printf("RESULT %s %s %s\n", name, status_name[st], detail);
	fflush(stdout);
	f = fopen(path ? path : "/results/results.tsv", "a");
	if (f) {
		fprintf(f, "%s\t%s\t%s\n", name, status_name[st], detail);
		fclose(f);
	}
	return st == PDDT_FAIL;
}

int pddt_result(const char *name, enum pddt_status st, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vresult(name, st, fmt, ap);
	va_end(ap);
	return r;
}

int pddt_check(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vresult(name, ok ? PDDT_PASS : PDDT_FAIL, fmt, ap);
	va_end(ap);
	return r;
}

void pddt_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

double pddt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

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
		snprintf(name, sizeof(name), "%s.rejects_%s", prefix,
			 i < nbad ? bad[i].name : "oversized");
		fails += pddt_check(name, err == -EINVAL && got == keep,
				    "write '%.20s' (%zu bytes): %s, value now %lld (was %lld)",
				    v, len, err ? strerror(-err) : "accepted", got, keep);
	}
	return fails;
}

int bdi_dir_of(const char *path, char *dir, size_t size)
{
	char sys[96], dev[32];
	struct stat st;
	unsigned int maj, min;

	if (stat(path, &st))
		return -1;
	maj = major(st.st_dev);
	min = minor(st.st_dev);
	/* a partition's bdi is its disk's: /sys/dev/block/M:m/../dev */
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/partition", maj, min);
	if (!access(sys, F_OK)) {
		snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/../dev", maj, min);
		if (pddt_read_file(sys, dev, sizeof(dev)) <= 0 ||
		    sscanf(dev, "%u:%u", &maj, &min) != 2)
			return -1;
	}
	snprintf(dir, size, "/sys/kernel/debug/bdi/%u:%u", maj, min);
	return access(dir, F_OK) ? -1 : 0;
}

/* Parse "Key: value" lines up to a blank line (or the end) into @s. */
static char *parse_stats(char *buf, struct bdi_stats *s)
{
	char *line = buf, *end;

	s->nr = 0;
	for (; *line && *line != '\n'; line = end) {
		char *colon;

		end = strchr(line, '\n');
		if (end)
			*end++ = '\0';
		else
			end = line + strlen(line);
		colon = strchr(line, ':');
		if (!colon || colon - line >= (long)sizeof(s->key[0]) ||
		    s->nr == BDI_MAX_KEYS)
			continue;
		memcpy(s->key[s->nr], line, colon - line);
		s->key[s->nr][colon - line] = '\0';
		/* "state" is printed in hex, every other value in decimal. */
		s->val[s->nr] = strtoll(colon + 1, NULL,
					strcmp(s->key[s->nr], "state") ? 10 : 16);
		s->nr++;
	}
	return *line ? line + 1 : line;
}

int bdi_stats_read(const char *path, struct bdi_stats *s)
{
	char dir[128], file[160], buf[4096];

	if (bdi_dir_of(path, dir, sizeof(dir)))
		return -1;
	snprintf(file, sizeof(file), "%s/stats", dir);
	if (pddt_read_file(file, buf, sizeof(buf)) <= 0)
		return -1;
	parse_stats(buf, s);
	return s->nr ? 0 : -1;
}

int wb_stats_read(const char *path, unsigned long cg_ino, struct bdi_stats *s)
{
	static char buf[65536];
	char dir[128], file[160], *p = buf;

	if (bdi_dir_of(path, dir, sizeof(dir)))
		return -1;
	snprintf(file, sizeof(file), "%s/wb_stats", dir);
	if (pddt_read_file(file, buf, sizeof(buf)) <= 0)
		return -1;
	while (*p) {
		p = parse_stats(p, s);
		for (int i = 0; i < s->nr; i++)
			if (!strcmp(s->key[i], "WbCgIno") &&
			    (unsigned long)s->val[i] == cg_ino)
				return 0;
	}
	s->nr = 0;
	return -1;
}

/* Whether @s has @key. */
bool bdi_stat_has(const struct bdi_stats *s, const char *key)
{
	for (int i = 0; i < s->nr; i++)
		if (!strcmp(s->key[i], key))
			return true;
	return false;
}

long long bdi_stat(const struct bdi_stats *s, const char *key)
{
	for (int i = 0; i < s->nr; i++)
		if (!strcmp(s->key[i], key))
			return s->val[i];
	pddt_die("bdi stats have no key '%s'", key);
}

/* splitmix64 of the 8-byte word index: any byte is checkable on its own. */
static uint64_t pattern_word(uint64_t seed, uint64_t idx)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ULL + idx + 1;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void pddt_pattern(void *buf, size_t len, uint64_t seed, uint64_t off)
{
	unsigned char *p = buf;

	for (size_t i = 0; i < len; i++) {
		uint64_t pos = off + i;
		uint64_t w = pattern_word(seed, pos / 8);

		p[i] = w >> (8 * (pos % 8));
	}
}

int pddt_write_pattern(int fd, uint64_t bytes, uint64_t seed, size_t chunk)
{
	unsigned char *buf = malloc(chunk);
	uint64_t done = 0;

	if (!buf)
		return -ENOMEM;
	while (done < bytes) {
		size_t len = bytes - done < chunk ? bytes - done : chunk;
		ssize_t n;

		pddt_pattern(buf, len, seed, done);
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -EIO;

			free(buf);
			return err;
		}
		done += n;
	}
	free(buf);
	return 0;
}

long long pddt_verify_pattern(const char *path, uint64_t bytes, uint64_t seed)
{
	enum { CHUNK = 1 << 20 };
	unsigned char *got = malloc(CHUNK), *want = malloc(CHUNK);
	long long bad = 0;
	uint64_t done = 0, size = 0;
	int fd = open(path, O_RDONLY);
	struct stat st;

	if (fd < 0 || !got || !want || fstat(fd, &st) ||
	    (S_ISBLK(st.st_mode) ? ioctl(fd, BLKGETSIZE64, &size) || size < bytes
				 : (uint64_t)st.st_size != bytes)) {
		bad = -1;
		goto out;
	}
	while (done < bytes) {
		ssize_t n = read(fd, got, bytes - done < CHUNK ? bytes - done : CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			bad = -1;
			goto out;
		}
		pddt_pattern(want, n, seed, done);
		for (ssize_t i = 0; i < n; i++)
			bad += got[i] != want[i];
		done += n;
	}
out:
	if (fd >= 0)
		close(fd);
	free(got);
	free(want);
	return bad;
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

#define TRACE "/sys/kernel/tracing"
#define BDP_EVENT TRACE "/events/writeback/balance_dirty_pages"

int pddt_bdp_trace_start(pid_t pid)
{
	char filter[64];
	int err;

	snprintf(filter, sizeof(filter), "common_pid == %d", (int)pid);
	err = pddt_write_file(BDP_EVENT "/enable", "0");
	if (!err)
		err = pddt_write_file(TRACE "/trace", "");
	if (!err)
		err = pddt_write_file(BDP_EVENT "/filter", filter);
	if (!err)
		err = pddt_write_file(BDP_EVENT "/enable", "1");
	return err;
}

/* The number after " @key=" in @ev, or 0. */
static long trace_field(const char *ev, const char *key)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(ev, pat);
	return p ? atol(p + strlen(pat)) : 0;
}

void pddt_bdp_trace_stop(pid_t pid, struct pddt_bdp_trace *t)
{
	char line[1024], pat[32];
	FILE *f;

	memset(t, 0, sizeof(*t));
	pddt_write_file(BDP_EVENT "/enable", "0");
	f = fopen(TRACE "/trace", "r");
	if (!f)
		return;
	snprintf(pat, sizeof(pat), "-%d ", (int)pid);
	while (fgets(line, sizeof(line), f)) {
		char *ev = strstr(line, "balance_dirty_pages:");
		char *who = strstr(line, pat);
		long pause, wait;

		if (!ev || !who || who > ev)
			continue;
		pause = trace_field(ev, "pause");
		wait = trace_field(ev, "paused") + (pause > 0 ? pause : 0);
		t->events++;
		t->paused += pause > 0;
		if (pause > t->max_pause_ms)
			t->max_pause_ms = pause;
		if (wait > t->max_wait_ms)
			t->max_wait_ms = wait;
	}
	fclose(f);
}

pid_t pddt_stream_start(const char *file, uint64_t seed, uint64_t wrap,
			size_t chunk, struct pddt_stream *st)
{
	pid_t pid = fork();

	if (pid < 0)
		pddt_die("fork: %s", strerror(errno));
	if (!pid)
		pddt_stream_writer(file, seed, wrap, chunk, st);
	return pid;
}

int pddt_stream_stop(pid_t pid)
{
	int st;

	kill(pid, SIGTERM);
	if (waitpid(pid, &st, 0) != pid)
		return 0;
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM;
}

void pddt_stream_writer(const char *file, uint64_t seed, uint64_t wrap,
			size_t chunk, struct pddt_stream *st)
{
	unsigned char *buf = malloc(chunk);
	uint64_t off = 0;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || !buf)
		_exit(2);
	signal(SIGTERM, SIG_DFL);
	for (;;) {
		double t0;

		if (wrap && off + chunk > wrap) {
			off = 0;
			if (lseek(fd, 0, SEEK_SET))
				_exit(3);
		}
		pddt_pattern(buf, chunk, seed, off);
		t0 = pddt_now();
		if (write(fd, buf, chunk) != (ssize_t)chunk)
			_exit(3);
		off += chunk;
		if (st) {
			double ms = (pddt_now() - t0) * 1000;

			st->bytes += chunk;
			if (ms > st->max_write_ms)
				st->max_write_ms = ms;
		}
	}
}

void *pddt_shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		pddt_die("mmap of %zu shared bytes: %s", size, strerror(errno));
	memset(p, 0, size);
	return p;
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void pddt_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

void pddt_host_throttle(const char *name, long long bps)
{
	printf("pddt-qmp: throttle %s %lld\n", name, bps);
	fflush(stdout);
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

int pddt_loop_setup(const char *img, long long size, const char *mnt,
		    char *dev, size_t devsize)
{
	int ctl, lfd, ffd, n, err = -1;
	char cmd[96];

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
	snprintf(cmd, sizeof(cmd), "mke2fs -q %s", dev);
	if (!err && (system(cmd) || (mkdir(mnt, 0755) && errno != EEXIST) ||
		     mount(dev, mnt, "ext4", 0, NULL)))
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

int pddt_word_in(const char *word, const char *list)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

#define KMEMLEAK "/sys/kernel/debug/kmemleak"

/*
 * Leaks of the 6.12 kernel the series applies to, each seen on stock 6.12
 * (PATCHES=none) too: an object whose backtrace holds one of these frames
 * is counted apart and fails no check.
 */
static const char *const known_leaks[] = {
	/*
	 * blk-mq, null_blk under fault injection with the io controller on:
	 * when the sysfs registration of a hardware context fails
	 * (blk_mq_register_hctx(), from add_disk()), the hardware contexts of
	 * the queue are never freed, nor the name of their kobject.
	 */
	"blk_mq_alloc_and_init_hctx+",
	"blk_mq_register_hctx+",
};

/*
 * One listed object of a kmemleak report as "size N: f1 < f2 < ...",
 * skipping the allocator's own frames.
 */
static void kmemleak_object(const char *obj, char *out, size_t size)
{
	const char *p = strstr(obj, "(size "), *bt;
	size_t len;

	out[0] = '\0';
	if (!p || !(bt = strstr(p, "backtrace")))
		return;
	snprintf(out, size, "size %ld:", atol(p + 6));
	for (p = strchr(bt, '\n'); p && p[1] == ' '; p = strchr(p + 1, '\n')) {
		const char *fn = p + 1 + strspn(p + 1, " "), *end = fn + strcspn(fn, "+\n");

		if (!strncmp(fn, "kmemleak_", 9) || strstr(fn, "alloc_hooks") == fn)
			continue;
		len = strlen(out);
		if (len + (end - fn) + 4 >= size)
			break;
		snprintf(out + len, size - len, " %.*s <", (int)(end - fn), fn);
	}
	len = strlen(out);
	if (len && out[len - 1] == '<')
		out[len - 2] = '\0';
}

void pddt_kmemleak_count(char *rep, struct pddt_leaks *l)
{
	static const char head[] = "unreferenced object";
	char *obj = strstr(rep, head), *next;

	memset(l, 0, sizeof(*l));
	for (; obj; obj = next) {
		int known = 0;

		next = strstr(obj + 1, head);
		if (next)
			next[-1] = '\0';	/* the newline before it */
		for (size_t i = 0; i < sizeof(known_leaks) / sizeof(known_leaks[0]); i++)
			known |= strstr(obj, known_leaks[i]) != NULL;
		l->count++;
		l->known += known;
		if (!known && !l->first[0])
			kmemleak_object(obj, l->first, sizeof(l->first));
	}
}

int pddt_kmemleak_scan(const char *save, struct pddt_leaks *l)
{
	enum { REPORT = 256 << 10 };
	char *rep;

	memset(l, 0, sizeof(*l));
	if (access(KMEMLEAK, F_OK))
		return -1;
	/* kmemleak reports objects older than 5 s only (jiffies_min_age) */
	sleep(6);
	if (pddt_write_file(KMEMLEAK, "scan") || pddt_write_file(KMEMLEAK, "scan"))
		return -2;
	rep = malloc(REPORT);
	if (!rep || pddt_read_file(KMEMLEAK, rep, REPORT) < 0) {
		free(rep);
		return -2;
	}
	if (rep[0] && save) {
		FILE *f = fopen(save, "w");

		if (f) {
			fputs(rep, f);
			fclose(f);
		}
	}
	pddt_kmemleak_count(rep, l);
	free(rep);
	pddt_write_file(KMEMLEAK, "clear");
	return 0;
}

void pddt_results_path(const char *file, char *path, size_t size)
{
	const char *res = getenv("PDDT_RESULTS"), *slash = res ? strrchr(res, '/') : NULL;

	if (slash)
		snprintf(path, size, "%.*s/%s", (int)(slash - res), res, file);
	else
		snprintf(path, size, "/results/%s", file);
}

int pddt_kmemleak_check(const char *name)
{
	double t0 = pddt_now();
	struct pddt_leaks l;
	char save[160], file[96];
	int err;

	/* the whole report beside the results file, as <name>.kmemleak */
	snprintf(file, sizeof(file), "%s.kmemleak", name);
	pddt_results_path(file, save, sizeof(save));
	err = pddt_kmemleak_scan(save, &l);
	if (err == -1)
		return pddt_result(name, PDDT_SKIP, "no kmemleak in this kernel");
	if (err)
		return pddt_result(name, PDDT_FAIL, "kmemleak does not scan (disabled?)");
	return pddt_check(name, l.count == l.known,
			  "%ld new suspected leaks, %ld of them known leaks of stock 6.12 "
			  "(scan %.1f s)%s%s%s%s", l.count, l.known, pddt_now() - t0,
			  l.count ? "; report in " : "", l.count ? save : "",
			  l.first[0] ? "; first other: " : "", l.first);
}
