// SPDX-License-Identifier: GPL-2.0
/*
 * stress - dirty throttling under churn, with every byte checked after.
 *
 * A streaming writer on the slow disk runs through every phase, with the
 * series on (dirty_light_percent 25, dirty_device_time_ms 3000: the bench's
 * mode on; their defaults, 0, are stock; on a kernel without the series,
 * stock 6.12, there is nothing to turn on and nothing of it to flip):
 *   fork_storm     FORKS short-lived tasks, STORM_PAR at a time, each dirties
 *                  two pages of a file on the fast disk and exits
 *   sysctl_flips   FLIPS writes of valid values to vm.dirty_ratio,
 *                  dirty_bytes, dirty_light_percent and dirty_device_time_ms
 *                  while a second writer streams to the fast disk
 *   cpu_hotplug    HOTPLUGS offline/online cycles of the last CPU while the
 *                  second writer streams
 *   mmap_odirect   a file on the slow disk dirtied through mmap faults,
 *                  half of it rewritten with O_DIRECT in between
 *   memcg          a writer in a memory cgroup with memory.max MEMCG_MAX
 *                  writes MEMCG_MIB: it is not OOM-killed and finishes
 * Each phase must finish (the harness bounds the test; the kernel's hung
 * task detector panics the guest on a task blocked too long) and its files
 * must read back intact after sync and drop_caches; at the end both disks
 * are unmounted and mounted again and every file is read back once more.
 */
#define _GNU_SOURCE
#include "pddt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define STORM_F		"/mnt/fast/storm.dat"
#define STORM_SLOTS	16384	/* storm.dat: 2 pages per slot, 128 MiB at most */
#define STORM_PAR	16
/* the counts of the full run; PDDT_SHORT=1 (plain make test): 1/10 */
#define FORKS		100000
#define FLIPS		10000
#define HOTPLUGS	100
#define STREAM_F	"/mnt/slow/stress-stream.dat"
#define SECOND_F	"/mnt/fast/stress-second.dat"
#define MMAP_F		"/mnt/slow/stress-mmap.dat"
#define MMAP_BYTES	(16 << 20)
#define MEMCG_F		"/mnt/fast/stress-memcg.dat"
#define MEMCG		"/sys/fs/cgroup/pddt-stress"
#define MEMCG_MAX	"64M"
#define MEMCG_MIB	192
#define PAGE		4096

enum { SEED_STORM = 0x5701, SEED_STREAM, SEED_SECOND, SEED_MMAP, SEED_MEMCG };

/* 10 in the short form, else 1: the counts are divided by it */
static int shorten = 1;

/* A file that is checked after every phase and after the remount. */
struct kept {
	const char *path;
	uint64_t seed;
};
static struct kept kept[8];
static int nkept;

static void keep(const char *path, uint64_t seed)
{
	kept[nkept].path = path;
	kept[nkept].seed = seed;
	nkept++;
}

/* Every kept file intact: "stress.<when>.data_intact". */
static int check_data(const char *when)
{
	char name[96], bad_list[256] = "";
	int bad = 0;

	sync();
	pddt_drop_caches();
	for (int i = 0; i < nkept; i++) {
		struct stat sb;
		long long b = -1;

		if (!stat(kept[i].path, &sb))
			b = pddt_verify_pattern(kept[i].path, sb.st_size, kept[i].seed);
		if (b) {
			bad++;
			snprintf(bad_list + strlen(bad_list), sizeof(bad_list) - strlen(bad_list),
				 " %s (%lld bytes differ)", kept[i].path, b);
		}
	}
	snprintf(name, sizeof(name), "stress.%s.data_intact", when);
	return pddt_check(name, !bad, "%d files checked, %d bad:%s", nkept, bad, bad_list);
}

/* A child of the storm: slot @i of @slots in STORM_F, two pages of the pattern. */
static void storm_child(int fd, long i, long slots)
{
	unsigned char buf[2 * PAGE];
	off_t off = (off_t)(i % slots) * sizeof(buf);

	pddt_pattern(buf, sizeof(buf), SEED_STORM, off);
	_exit(pwrite(fd, buf, sizeof(buf), off) == (ssize_t)sizeof(buf) ? 0 : 1);
}

static int fork_storm(void)
{
	long forks = FORKS / shorten, failed = 0, running = 0;
	/* a file no larger than the storm writes: each slot at least once */
	long slots = forks < STORM_SLOTS ? forks : STORM_SLOTS;
	double t0 = pddt_now();
	int fd, st;

	fd = open(STORM_F, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)slots * 2 * PAGE))
		return pddt_result("stress.fork_storm", PDDT_FAIL, "cannot make %s", STORM_F);
	/* slot by slot, so the whole file holds the pattern */
	for (long i = 0; i < forks; i++) {
		pid_t pid;

		if (running == STORM_PAR) {
			wait(&st);
			running--;
			failed += !WIFEXITED(st) || WEXITSTATUS(st);
		}
		pid = fork();
		if (pid < 0) {
			failed++;
			continue;
		}
		if (!pid)
			storm_child(fd, i, slots);
		running++;
		if (i && i % 10000 == 0) {
			printf("pddt: stress: %ld forks in %.0f s\n", i, pddt_now() - t0);
			fflush(stdout);
		}
	}
	while (running-- > 0) {
		wait(&st);
		failed += !WIFEXITED(st) || WEXITSTATUS(st);
	}
	close(fd);
	keep(STORM_F, SEED_STORM);
	return pddt_check("stress.fork_storm", !failed,
			  "%ld short-lived tasks, %ld failed, in %.1f s",
			  forks, failed, pddt_now() - t0);
}

/* the series' sysctls, and whether the kernel has them */
#define LIGHT_PCT	"/proc/sys/vm/dirty_light_percent"
#define TIME_MS		"/proc/sys/vm/dirty_device_time_ms"
static int series;

/* The series on, as the bench's mode on: the number of writes refused. */
static int series_on(void)
{
	return series ? (pddt_write_file(LIGHT_PCT, "25") != 0) +
			(pddt_write_file(TIME_MS, "3000") != 0) : 0;
}

static int sysctl_flips(void)
{
	static const char *const vals[][2] = {
		{ "dirty_light_percent", "0" }, { "dirty_bytes", "33554432" },
		{ "dirty_device_time_ms", "0" }, { "dirty_light_percent", "100" },
		{ "dirty_ratio", "15" }, { "dirty_device_time_ms", "250" },
		{ "dirty_light_percent", "25" }, { "dirty_bytes", "67108864" },
		{ "dirty_device_time_ms", "60000" }, { "dirty_device_time_ms", "3000" },
	};
	long flips = FLIPS / shorten, refused = 0, writes = 0;
	double t0 = pddt_now();
	char path[96];
	pid_t second;
	int ran;

	second = pddt_stream_start(SECOND_F, SEED_SECOND, 256 << 20, 1 << 20, NULL);
	for (long i = 0; i < flips; i++) {
		const char *const *v = vals[i % (sizeof(vals) / sizeof(vals[0]))];

		if (!series && (!strcmp(v[0], "dirty_light_percent") ||
				!strcmp(v[0], "dirty_device_time_ms")))
			continue;
		snprintf(path, sizeof(path), "/proc/sys/vm/%s", v[0]);
		refused += pddt_write_file(path, v[1]) != 0;
		writes++;
		if (i % 64 == 0)
			usleep(1000);
	}
	ran = pddt_stream_stop(second);
	keep(SECOND_F, SEED_SECOND);
	/* back to the setting of the run */
	refused += pddt_write_file("/proc/sys/vm/dirty_bytes", "67108864") != 0;
	refused += series_on();
	return pddt_check("stress.sysctl_flips", !refused && ran,
			  "%ld writes of valid values (%s), %ld refused, the writer %s, in %.1f s",
			  writes, series ? "the series' sysctls among them" :
			  "no series: only dirty_bytes and dirty_ratio", refused,
			  ran ? "ran throughout" : "died", pddt_now() - t0);
}

static int cpu_hotplug(void)
{
	int cycles = HOTPLUGS / shorten, failed = 0, ran;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	double t0 = pddt_now();
	char path[96];
	pid_t second;

	if (cpus < 2)
		return pddt_result("stress.cpu_hotplug", PDDT_SKIP, "one CPU: nothing to unplug");
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/online", cpus - 1);
	second = pddt_stream_start(SECOND_F, SEED_SECOND, 256 << 20, 1 << 20, NULL);
	for (int i = 0; i < cycles; i++) {
		failed += pddt_write_file(path, "0") != 0;
		usleep(20000);
		failed += pddt_write_file(path, "1") != 0;
		usleep(20000);
	}
	ran = pddt_stream_stop(second);
	return pddt_check("stress.cpu_hotplug", !failed && ran && pddt_read_ll(path) == 1,
			  "%d offline/online cycles of cpu%ld, %d writes failed, the writer %s, in %.1f s",
			  cycles, cpus - 1, failed, ran ? "ran throughout" : "died",
			  pddt_now() - t0);
}

/*
 * MMAP_F dirtied page by page through a shared mapping; between two passes
 * every other MiB is rewritten with O_DIRECT (which writes back and drops
 * the cached pages of its range first). Same pattern either way.
 */
static int mmap_odirect(void)
{
	enum { MIB = 1 << 20 };
	double t0 = pddt_now();
	unsigned char *map, *dbuf = NULL;
	int fd, dfd, bad = 0;

	fd = open(MMAP_F, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, MMAP_BYTES))
		return pddt_result("stress.mmap_odirect", PDDT_FAIL, "cannot make %s", MMAP_F);
	map = mmap(NULL, MMAP_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return pddt_result("stress.mmap_odirect", PDDT_FAIL, "mmap: %s", strerror(errno));
	for (size_t off = 0; off < MMAP_BYTES; off += PAGE)
		pddt_pattern(map + off, PAGE, SEED_MMAP, off);
	dfd = open(MMAP_F, O_WRONLY | O_DIRECT);
	if (dfd < 0 || posix_memalign((void **)&dbuf, PAGE, MIB))
		bad++;
	for (size_t off = 0; !bad && off < MMAP_BYTES; off += 2 * MIB) {
		pddt_pattern(dbuf, MIB, SEED_MMAP, off);
		bad += pwrite(dfd, dbuf, MIB, off) != MIB;
	}
	/* and once more through the mapping: pages dirtied again by faults */
	for (size_t off = 0; !bad && off < MMAP_BYTES; off += PAGE)
		pddt_pattern(map + off, PAGE, SEED_MMAP, off);
	bad += msync(map, MMAP_BYTES, MS_SYNC) != 0;
	munmap(map, MMAP_BYTES);
	close(fd);
	if (dfd >= 0)
		close(dfd);
	free(dbuf);
	keep(MMAP_F, SEED_MMAP);
	return pddt_check("stress.mmap_odirect", !bad,
			  "%d MiB dirtied by faults twice, half rewritten with O_DIRECT in between, in %.1f s",
			  MMAP_BYTES >> 20, pddt_now() - t0);
}

static int memcg(void)
{
	double t0 = pddt_now();
	pid_t pid;
	int st, fd;

	if (pddt_write_file("/sys/fs/cgroup/cgroup.subtree_control", "+memory +io") ||
	    (mkdir(MEMCG, 0755) && errno != EEXIST) ||
	    pddt_write_file(MEMCG "/memory.max", MEMCG_MAX))
		return pddt_result("stress.memcg", PDDT_FAIL, "cannot set up %s", MEMCG);
	pid = fork();
	if (!pid) {
		if (pddt_write_file(MEMCG "/cgroup.procs", "0"))
			_exit(4);
		fd = open(MEMCG_F, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		_exit(fd < 0 || pddt_write_pattern(fd, (uint64_t)MEMCG_MIB << 20, SEED_MEMCG,
						   64 << 10) || close(fd) ? 3 : 0);
	}
	waitpid(pid, &st, 0);
	rmdir(MEMCG);
	keep(MEMCG_F, SEED_MEMCG);
	return pddt_check("stress.memcg", WIFEXITED(st) && WEXITSTATUS(st) == 0,
			  "%d MiB written from a cgroup with memory.max %s: %s %d, in %.1f s",
			  MEMCG_MIB, MEMCG_MAX, WIFEXITED(st) ? "exit" : "killed by signal",
			  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), pddt_now() - t0);
}

int main(void)
{
	int fails = 0, ran;
	pid_t stream;

	if (access("/mnt/slow", F_OK) || access("/mnt/fast", F_OK))
		return pddt_result("stress", PDDT_FAIL, "needs disks 'slow' and 'fast'");
	if (access("/dev/pddt/slow", F_OK) || access("/dev/pddt/fast", F_OK))
		return pddt_result("stress", PDDT_FAIL, "no /dev/pddt/slow or /dev/pddt/fast");
	pddt_set_dirty_bytes(64 << 10, 32 << 10);
	if (getenv("PDDT_SHORT") && atoi(getenv("PDDT_SHORT")))
		shorten = 10;
	series = !access(TIME_MS, F_OK);
	if (series_on())
		return pddt_result("stress", PDDT_FAIL, "cannot set %s 25 and %s 3000",
				   LIGHT_PCT, TIME_MS);

	stream = pddt_stream_start(STREAM_F, SEED_STREAM, 64 << 20, 64 << 10, NULL);
	fails += fork_storm();
	fails += check_data("fork_storm");
	fails += sysctl_flips();
	fails += check_data("sysctl_flips");
	fails += cpu_hotplug();
	fails += check_data("cpu_hotplug");
	fails += mmap_odirect();
	fails += check_data("mmap_odirect");
	fails += memcg();
	ran = pddt_stream_stop(stream);
	keep(STREAM_F, SEED_STREAM);
	fails += pddt_check("stress.streaming_writer_ran", ran,
			    "the slow disk's streaming writer ran through every phase");
	fails += check_data("end");

	if (pddt_disk_remount("slow", NULL) || pddt_disk_remount("fast", NULL))
		fails += pddt_result("stress.remount", PDDT_FAIL, "cannot remount the disks");
	else
		fails += check_data("remount");
	for (int i = 0; i < nkept; i++)
		unlink(kept[i].path);
	sync();
	pddt_default_dirty_ratios();
	return fails ? 1 : 0;
}
