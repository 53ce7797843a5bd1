// SPDX-License-Identifier: GPL-2.0
/*
 * writers.c - data patterns that can be verified after writeback, streaming
 * writers (processes, or the threads of one) and paced ones.
 */
#include "pddt.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

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

double pddt_write_burst(int fd, size_t bytes, uint64_t seed, uint64_t *off)
{
	enum { CHUNK = 64 << 10 };
	static unsigned char buf[CHUNK];
	double in_write = 0;

	for (size_t done = 0; done < bytes; done += CHUNK) {
		size_t len = bytes - done < CHUNK ? bytes - done : CHUNK;
		double t0;

		pddt_pattern(buf, len, seed, *off);
		t0 = pddt_now();
		if (write(fd, buf, len) != (ssize_t)len)
			return -1;
		in_write += pddt_now() - t0;
		*off += len;
	}
	return in_write * 1000;
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

struct stream_thread {
	const char *file;
	uint64_t seed, wrap;
	size_t chunk;
};

static void *stream_thread(void *arg)
{
	const struct stream_thread *t = arg;

	pddt_stream_writer(t->file, t->seed, t->wrap, t->chunk, NULL);
}

pid_t pddt_stream_threads_start(char *const files[], int n, uint64_t seed,
				uint64_t wrap, size_t chunk)
{
	struct stream_thread *t;
	pthread_t tid;
	pid_t pid = fork();

	if (pid < 0)
		pddt_die("fork: %s", strerror(errno));
	if (pid)
		return pid;
	signal(SIGTERM, SIG_DFL);	/* not the handler of the parent's */
	t = calloc(n, sizeof(*t));
	if (!t)
		_exit(2);
	for (int i = 0; i < n; i++)
		t[i] = (struct stream_thread){ files[i], seed + i, wrap, chunk };
	for (int i = 1; i < n; i++)
		if (pthread_create(&tid, NULL, stream_thread, &t[i]))
			_exit(2);
	stream_thread(&t[0]);
	_exit(0);
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
	unsigned char *buf;
	uint64_t off = 0;
	int fd;

	signal(SIGTERM, SIG_DFL);	/* not the handler of the parent's */
	buf = malloc(chunk);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || !buf)
		_exit(2);
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

void pddt_paced_writer(const char *file, size_t burst, double rate, uint64_t seed,
		       int min_n, double min_s, bool fsync_after, struct pddt_paced *out)
{
	double gap = burst / rate, next;
	uint64_t off = 0;
	long nev, from = 0;
	int fd;

	signal(SIGTERM, SIG_DFL);	/* not the handler of the parent's */
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		_exit(2);
	if (pddt_bdp_trace_start(getpid()))
		_exit(4);
	/* the clock starts once the file is open: creating it can wait for the journal */
	out->t0 = pddt_now();
	next = out->t0;
	while ((out->n < min_n || pddt_now() - out->t0 < min_s) && out->n < PDDT_PACED_MAX) {
		int i = out->n;

		out->start[i] = pddt_now();
		out->ms[i] = pddt_write_burst(fd, burst, seed, &off);
		if (out->ms[i] < 0)
			_exit(3);
		out->end[i] = pddt_now();
		out->n++;
		next += gap;
		if (next < pddt_now())
			next = pddt_now();
		pddt_sleep_until(next);
	}
	out->secs = pddt_now() - out->t0;
	out->bytes = (double)off;
	if (fsync_after) {
		out->fsync_t0 = pddt_now();
		if (fsync(fd))
			_exit(3);
		out->fsync_t1 = pddt_now();
	}
	close(fd);
	nev = pddt_bdp_trace_events(getpid(), out->ev, PDDT_PACED_EV);
	if (nev < 0)
		_exit(4);
	/* only this task is traced: the calls within a burst are its write()s' */
	for (int i = 0; i < out->n; i++)
		out->bdp_ms[i] = pddt_bdp_paused_ms(out->ev, nev, &from, out->start[i],
						    out->end[i]);
	_exit(0);
}
