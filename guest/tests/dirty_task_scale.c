// SPDX-License-Identifier: GPL-2.0
/*
 * dirty_task_scale - dirty balancing for tasks, off and on in one boot.
 *
 * 1. vm.dirty_task_scale takes 0 and 2..1024; anything else is EINVAL and
 *    leaves the value as it was.
 * 2. /proc/<pid>/dirty_share: its fields, a fresh child at 0, and no read
 *    without ptrace read access (another user's task).
 * 3. With per-device limits off (stock but for task scaling), on the slow
 *    disk a streaming writer runs; beside it a restrained one
 *    writes a burst every second. The writeback:balance_dirty_pages
 *    tracepoint, filtered on the restrained writer, fires for each call
 *    that throttles it (one past the freerun ceiling): with the scale off
 *    it is throttled (the dirty pages sit at the shared setpoint, above
 *    its freerun ceiling; whether a call then sleeps depends on the think
 *    time it has banked, so the pauses are counted, not required); with
 *    it on, the streaming writer is held below its own cut limits and
 *    the restrained writer stays under its freerun ceiling: not one call
 *    throttles it, so none can pause it. The comparison needs the
 *    contested state with the scale off: the streaming writer holding
 *    Dirty + Writeback above the freerun ceiling as bursts start. Each
 *    call of such a burst finds the domain past the ceiling unless the
 *    disk drained it meanwhile, and one comes within 64 pages
 *    (dirty_poll_interval() under a 48 MiB ceiling): with more than half
 *    of the bursts starting there, not one throttled is a FAIL. ext4
 *    journal stalls of seconds hold the streaming writer while the disk
 *    drains the dirty pages (down to 10 MiB), so the state comes and goes:
 *    5 of 15 bursts started above the ceiling in one run of each kernel,
 *    throttled 8 times on base and 5 on debug, and once 0 on debug. A
 *    stock run not throttled with at most half of its bursts contested
 *    shows nothing either way: both checks SKIP, which only
 *    tests/manifest/debug allows. The streaming writer's
 *    share tends to 1 (median at least 0.6), the restrained one's follows
 *    its part of the dirtying: the median of its shares read right after
 *    each of its bursts is at most SHARE_PHASE times its part of what both
 *    writers dirtied between its first and last burst (their own counts).
 *    Every byte both wrote is read back after sync and drop_caches.
 * Burst latencies, alone and beside the streaming writer, are printed for
 * information only: timing belongs to the bench.
 */
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
#include <time.h>
#include <unistd.h>

#define SCALE "/proc/sys/vm/dirty_task_scale"
#define DEVICE_LIMIT "/proc/sys/vm/dirty_device_limit_ms"

#define WARMUP_S	8	/* the bandwidth estimate adapts to the disk */
#define SETTLE_MAX_S	40	/* then at most this long for the dirty pages */
#define DEFAULT_SCALE	2	/* vm.dirty_task_scale at boot */
#define DEFAULT_SCALE_S	"2"
#define BURSTS		15
#define BURST_KB	512
#define BURST_GAP_MS	1000
#define FREERUN_KB	((PDDT_DIRTY_KB + PDDT_BG_KB) / 2)	/* dirty_freerun_ceiling() */
/*
 * How far above its part s of the dirtying a task's share reads right after
 * one of its bursts, at steady rates. The share is aged on the 3 s clock
 * (VM_COMPLETIONS_PERIOD_LEN): every count halves at each period's end, so
 * a count that grows by E a period holds E as a period starts and 2E as it
 * ends. The restrained writer dirties 3 bursts of B a period, 3B = sE: read
 * after its k-th burst of a period, at a fraction f of it, its share is
 * (3B + kB) / (E(1 + f)), k - 1 <= 3f < k: at most (3B + B) / E = 4/3 s,
 * for a burst right as a period starts.
 */
#define SHARE_PHASE	(4.0 / 3)

/*
 * Whether the run with the scale off met the contested state, or was
 * throttled without it (run_mode()).
 */
static int stock_contested;

/* Set vm.dirty_task_scale; 0 or -errno. */
static int write_scale(const char *val)
{
	return pddt_write_file(SCALE, val);
}

static int test_sysctl(void)
{
	static const char *const good[] = { "0", "2", "8", "1024", "4\n" };
	static const struct pddt_bad_input bad[] = {
		{ "negative", "-1" }, { "one", "1" }, { "too_large", "1025" },
		{ "huge", "99999999999999999999" }, { "non_numeric", "abc" },
		{ "trailing_junk", "8x" }, { "empty_line", "\n" }, { "empty", "" },
	};

	return pddt_check_int_sysctl("dirty_task_scale.sysctl", SCALE,
				     good, sizeof(good) / sizeof(good[0]),
				     bad, sizeof(bad) / sizeof(bad[0]), 8);
}

struct share {
	long long dirtied, all, ppm;
};

/* What the restrained writer reports, in shared memory. */
struct light_out {
	double ms[BURSTS];	/* burst durations */
	double ppm[BURSTS];	/* its share after each burst */
	double heavy_ppm[BURSTS];	/* the streaming writer's, then */
	double dirty_kb[BURSTS];	/* Dirty + Writeback as a burst starts */
	double heavy_kb[BURSTS];	/* what the streaming writer wrote, then */
	const struct pddt_stream *heavy;	/* its progress, NULL: none */
	int share_err;
};

static int read_share(pid_t pid, struct share *s)
{
	char path[64], buf[256];

	snprintf(path, sizeof(path), "/proc/%d/dirty_share", (int)pid);
	if (pddt_read_file(path, buf, sizeof(buf)) <= 0)
		return -errno;
	if (sscanf(buf, "dirtied: %lld\ndirtied_all: %lld\nshare_ppm: %lld",
		   &s->dirtied, &s->all, &s->ppm) != 3)
		return -EBADMSG;
	return 0;
}

static int test_proc(void)
{
	struct share s;
	int fails = 0, err, st;
	int pfd[2];
	pid_t pid;

	err = read_share(getpid(), &s);
	fails += pddt_check("dirty_share.format", !err && s.all >= 1 &&
			    s.dirtied <= s.all && s.ppm <= 1000000,
			    "dirtied %lld, dirtied_all %lld, share_ppm %lld (%s)",
			    s.dirtied, s.all, s.ppm, err ? strerror(-err) : "ok");

	/* a child reads its own share before it dirties anything */
	if (pipe(pfd))
		pddt_die("pipe");
	pid = fork();
	if (!pid) {
		struct share c;

		if (read_share(getpid(), &c))
			c.dirtied = -1;
		if (write(pfd[1], &c, sizeof(c)) != sizeof(c))
			_exit(1);
		_exit(0);
	}
	if (read(pfd[0], &s, sizeof(s)) != sizeof(s))
		s.dirtied = -1;
	waitpid(pid, &st, 0);
	close(pfd[0]);
	close(pfd[1]);
	fails += pddt_check("dirty_share.fork_starts_at_zero", s.dirtied == 0,
			    "a fresh child reads dirtied %lld", s.dirtied);

	/* another user may not read init's share */
	pid = fork();
	if (!pid) {
		char buf[256];
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(3);
		fd = open("/proc/1/dirty_share", O_RDONLY);
		if (fd < 0)
			_exit(errno == EACCES ? 0 : 2);
		_exit(read(fd, buf, sizeof(buf)) < 0 && errno == EACCES ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	fails += pddt_check("dirty_share.other_user_denied",
			    WIFEXITED(st) && WEXITSTATUS(st) == 0,
			    "uid 65534 reading /proc/1/dirty_share: %s",
			    !WIFEXITED(st) ? "crashed" : WEXITSTATUS(st) == 0 ? "EACCES" :
			    WEXITSTATUS(st) == 1 ? "was allowed" : "other error");
	return fails;
}

/*
 * The restrained writer: BURSTS bursts, its own share and the streaming
 * writer @heavy's (if not 0) after each.
 */
static void light_writer(const char *file, uint64_t seed, pid_t heavy,
			 struct light_out *out)
{
	struct share s;
	uint64_t off = 0;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	double next = pddt_now();

	if (fd < 0)
		_exit(2);
	for (int b = 0; b < BURSTS; b++) {
		out->dirty_kb[b] = pddt_meminfo_kb("Dirty") + pddt_meminfo_kb("Writeback");
		out->ms[b] = pddt_write_burst(fd, BURST_KB * 1024, seed, &off);
		if (out->ms[b] < 0)
			_exit(3);
		out->share_err |= read_share(getpid(), &s);
		out->ppm[b] = s.ppm;
		if (heavy) {
			out->share_err |= read_share(heavy, &s);
			out->heavy_ppm[b] = s.ppm;
			out->heavy_kb[b] = out->heavy->bytes / 1024.0;
		}
		next += BURST_GAP_MS / 1000.0;
		pddt_sleep_until(next);
	}
	close(fd);
	_exit(0);
}

/* The restrained writer's p50 burst on an otherwise idle system, in ms. */
static double idle_p50(const char *disk)
{
	struct light_out *out = pddt_shared(sizeof(*out));
	char file[128];
	double p50 = -1;
	pid_t light;
	int st;

	snprintf(file, sizeof(file), "/mnt/%s/idle.dat", disk);
	light = fork();
	if (!light)
		light_writer(file, 0x1d1e, 0, out);
	waitpid(light, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		pddt_sort(out->ms, BURSTS);
		p50 = out->ms[BURSTS / 2];
	}
	unlink(file);
	sync();
	munmap(out, sizeof(*out));
	return p50;
}

/*
 * The restrained writer's part of what both writers dirtied between the
 * end of its first burst and the end of its last, from their own counts.
 */
static double dirtying_share(const struct light_out *out)
{
	double light = (BURSTS - 1) * (double)BURST_KB;
	double heavy = out->heavy_kb[BURSTS - 1] - out->heavy_kb[0];

	return light / (light + (heavy > 0 ? heavy : 0));
}

static int run_mode(const char *disk, int scale, double idle_ms)
{
	char heavy_f[128], light_f[128], name[96], throttled[160];
	struct light_out *out = pddt_shared(sizeof(*out));
	struct pddt_stream *heavy_st = pddt_shared(sizeof(*heavy_st));
	double *ms = out->ms;
	const char *mode = scale ? "on" : "off";
	double dirtying, share_bound;
	struct share hs;
	struct pddt_bdp_trace p;
	pid_t heavy, light;
	int fails = 0, st, contested = 0;
	long long bad, dirty;
	double t0, secs;
	struct stat sb;
	char val[16];

	snprintf(heavy_f, sizeof(heavy_f), "/mnt/%s/heavy.dat", disk);
	snprintf(light_f, sizeof(light_f), "/mnt/%s/light.dat", disk);
	snprintf(val, sizeof(val), "%d", scale);
	if (write_scale(val))
		pddt_die("cannot set %s to %d", SCALE, scale);

	out->heavy = heavy_st;
	heavy = fork();
	if (!heavy)
		pddt_stream_writer(heavy_f, 0x4ea7, 0, 1 << 20, heavy_st);
	t0 = pddt_now();
	sleep(WARMUP_S);
	/*
	 * Let the streaming writer settle: off, the dirty pages climb above
	 * the freerun ceiling (PDDT_DIRTY_KB + PDDT_BG_KB) / 2 to the shared setpoint;
	 * on, its share grows and it is held below its cut limits. Polled,
	 * with a bound; if it never settles the checks below say so.
	 */
	for (;;) {
		dirty = pddt_meminfo_kb("Dirty") + pddt_meminfo_kb("Writeback");
		if (read_share(heavy, &hs))
			hs.ppm = 0;
		if (scale ? hs.ppm >= 600000 && dirty < FREERUN_KB - (6 << 10)
			  : dirty > FREERUN_KB)
			break;
		if (pddt_now() - t0 > WARMUP_S + SETTLE_MAX_S)
			break;
		usleep(200000);
	}
	printf("pddt: scale %d: streaming writer settled after %.1f s: dirty+writeback %lld kB, share %lld ppm\n",
	       scale, pddt_now() - t0, dirty, hs.ppm);

	light = fork();
	if (!light)
		light_writer(light_f, 0x1197, heavy, out);
	snprintf(name, sizeof(name), "dirty_task_scale.%s.traced", mode);
	fails += pddt_check(name, !pddt_bdp_trace_start(light),
			    "writeback:balance_dirty_pages traced for the restrained writer");
	waitpid(light, &st, 0);
	if (read_share(heavy, &hs))
		hs.ppm = -1;
	kill(heavy, SIGTERM);
	waitpid(heavy, NULL, 0);
	secs = pddt_now() - t0;
	pddt_bdp_trace_stop(light, &p);

	snprintf(name, sizeof(name), "dirty_task_scale.%s.light_writer_ran", mode);
	fails += pddt_check(name, WIFEXITED(st) && WEXITSTATUS(st) == 0,
			    "restrained writer exit status %d", st);
	printf("pddt: scale %d: each burst, Dirty+Writeback kB as it started / its ms:", scale);
	for (int b = 0; b < BURSTS; b++)
		printf(" %.0f/%.0f", out->dirty_kb[b], ms[b]);
	printf("\n");
	pddt_sort(ms, BURSTS);
	pddt_sort(out->ppm, BURSTS);
	pddt_sort(out->heavy_ppm, BURSTS);
	printf("pddt: scale %d: restrained writer %d KiB bursts beside a streaming one: "
	       "p50 %.0f ms (%.1fx its idle p50 of %.0f ms), max %.0f ms; %ld bdp events, "
	       "%ld paused; shares after a burst (p50, max): streaming %.0f and %.0f ppm, "
	       "restrained %.0f and %.0f ppm; streaming at its end %lld ppm\n",
	       scale, BURST_KB, ms[BURSTS / 2], ms[BURSTS / 2] / idle_ms, idle_ms,
	       ms[BURSTS - 1], p.events, p.paused, out->heavy_ppm[BURSTS / 2],
	       out->heavy_ppm[BURSTS - 1], out->ppm[BURSTS / 2], out->ppm[BURSTS - 1], hs.ppm);

	for (int b = 0; b < BURSTS; b++)
		contested += out->dirty_kb[b] > FREERUN_KB;
	snprintf(throttled, sizeof(throttled), "balance_dirty_pages throttled it %ld times, "
		 "%ld with a pause (p50 burst %.0f ms; %d of %d bursts started above the freerun "
		 "ceiling)", p.events, p.paused, ms[BURSTS / 2], contested, BURSTS);
	if (scale) {
		snprintf(name, sizeof(name), "dirty_task_scale.%s.light_writer_not_throttled", mode);
		if (!stock_contested)
			pddt_result(name, PDDT_SKIP, "nothing to compare with: with the scale off "
				    "the restrained writer did not meet the contested state "
				    "(dirty_task_scale.off.light_writer_throttled); here it was "
				    "throttled %ld times", p.events);
		else
			fails += pddt_check(name, p.events == 0, "%s", throttled);
		snprintf(name, sizeof(name), "dirty_task_scale.%s.heavy_share_near_one", mode);
		fails += pddt_check(name, !out->share_err && out->heavy_ppm[BURSTS / 2] >= 600000,
				    "streaming writer share p50 %.0f ppm over %d bursts",
				    out->heavy_ppm[BURSTS / 2], BURSTS);
		dirtying = dirtying_share(out);
		share_bound = SHARE_PHASE * dirtying * 1000000;
		snprintf(name, sizeof(name), "dirty_task_scale.%s.light_share_small", mode);
		fails += pddt_check(name, !out->share_err && out->ppm[BURSTS / 2] <= share_bound &&
				    2 * out->ppm[BURSTS / 2] <= out->heavy_ppm[BURSTS / 2],
				    "restrained writer share p50 %.0f ppm after its %d bursts (max %.0f), %.2fx its %.0f ppm of the dirtying between its first and last burst; at most %.0f ppm (%.2fx) and half the streaming writer's",
				    out->ppm[BURSTS / 2], BURSTS, out->ppm[BURSTS - 1],
				    out->ppm[BURSTS / 2] / (dirtying * 1000000), dirtying * 1000000,
				    share_bound, SHARE_PHASE);
	} else {
		snprintf(name, sizeof(name), "dirty_task_scale.%s.light_writer_throttled", mode);
		stock_contested = p.events > 0 || 2 * contested > BURSTS;
		if (!stock_contested)
			pddt_result(name, PDDT_SKIP, "not contested: %d of %d bursts started above the "
				    "freerun ceiling of %d kB (throttled %ld times)", contested, BURSTS,
				    FREERUN_KB, p.events);
		else
			fails += pddt_check(name, p.events > 0, "%s", throttled);
	}

	sync();
	pddt_drop_caches();
	bad = stat(heavy_f, &sb) ? -1 : pddt_verify_pattern(heavy_f, sb.st_size, 0x4ea7);
	snprintf(name, sizeof(name), "dirty_task_scale.%s.heavy_data_intact", mode);
	fails += pddt_check(name, bad == 0 && sb.st_size > 0,
			    "%lld MiB, written in %.0f s, read back, %lld bytes differ",
			    (long long)sb.st_size >> 20, secs, bad);
	bad = pddt_verify_pattern(light_f, (uint64_t)BURSTS * BURST_KB * 1024, 0x1197);
	snprintf(name, sizeof(name), "dirty_task_scale.%s.light_data_intact", mode);
	fails += pddt_check(name, bad == 0, "%lld bytes differ", bad);
	unlink(heavy_f);
	unlink(light_f);
	sync();
	munmap(out, sizeof(*out));
	return fails;
}

int main(void)
{
	const char *disk = getenv("PDDT_SLOW_DISK") ? getenv("PDDT_SLOW_DISK") : "slow";
	int fails = 0;
	double idle;

	if (access(SCALE, F_OK))
		return pddt_result("dirty_task_scale", PDDT_SKIP,
				   "no %s: kernel without the series", SCALE);
	fails += pddt_check("dirty_task_scale.sysctl.default", pddt_read_ll(SCALE) == DEFAULT_SCALE,
			    "%s reads %lld at the start, the default is %d", SCALE,
			    pddt_read_ll(SCALE), DEFAULT_SCALE);
	pddt_set_dirty_bytes(PDDT_DIRTY_KB, PDDT_BG_KB);

	/* task scaling alone, against stock: per-device limits off */
	pddt_write_file(DEVICE_LIMIT, "0");
	fails += test_sysctl();
	fails += test_proc();
	idle = idle_p50(disk);
	fails += pddt_check("dirty_task_scale.idle.light_writer_ran", idle > 0,
			    "restrained writer alone: p50 burst %.0f ms", idle);
	fails += run_mode(disk, 0, idle);
	fails += run_mode(disk, 2, idle);

	write_scale(DEFAULT_SCALE_S);
	pddt_write_file(DEVICE_LIMIT, "1000");
	pddt_default_dirty_ratios();
	return fails ? 1 : 0;
}
