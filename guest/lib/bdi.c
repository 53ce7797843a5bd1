// SPDX-License-Identifier: GPL-2.0
/*
 * bdi.c - bdi and wb statistics from /sys/kernel/debug/bdi.
 */
#include "pddt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

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

/* @key of @s, or 0 on a kernel that does not print it. */
static long long bdi_stat_or_0(const struct bdi_stats *s, const char *key)
{
	return bdi_stat_has(s, key) ? bdi_stat(s, key) : 0;
}

/* The bandwidths and budget of wb stats @w into @s. */
static void wb_bandwidths(const struct bdi_stats *w, struct pddt_wb_sample *s)
{
	s->avg_bw = bdi_stat(w, "WbWriteBandwidth");
	s->bw = bdi_stat_has(w, "WbLimitBandwidth") ? bdi_stat(w, "WbLimitBandwidth") : s->avg_bw;
	s->wb_limit = bdi_stat_or_0(w, "WbDirtyLimit");
	s->wb_limited = bdi_stat_or_0(w, "WbLimited");
}

int pddt_wb_sample(const char *path, unsigned long cg_ino, struct pddt_wb_sample *s)
{
	struct bdi_stats b, w;

	memset(s, 0, sizeof(*s));
	if (bdi_stats_read(path, &b))
		return -1;
	s->dirty_thresh = bdi_stat(&b, "DirtyThresh");
	if (cg_ino) {
		if (wb_stats_read(path, cg_ino, &w))
			return 1;
		s->dirty = bdi_stat(&w, "WbReclaimable") + bdi_stat(&w, "WbWriteback");
		s->thresh = bdi_stat(&w, "WbDirtyThresh");
		s->written = bdi_stat(&w, "WbWritten");
		s->dirtied = bdi_stat(&w, "WbDirtied");
		wb_bandwidths(&w, s);
		s->limit = s->wb_limit;
		s->limited = s->wb_limited;
		return 0;
	}
	s->dirty = bdi_stat(&b, "BdiReclaimable") + bdi_stat(&b, "BdiWriteback");
	s->thresh = bdi_stat(&b, "BdiDirtyThresh");
	s->limit = bdi_stat_or_0(&b, "BdiDirtyLimit");
	s->limited = bdi_stat_or_0(&b, "BdiLimitedWbs");
	s->written = bdi_stat(&b, "BdiWritten");
	s->dirtied = bdi_stat(&b, "BdiDirtied");
	if (wb_stats_read(path, 1, &w))
		s->bw = s->avg_bw = bdi_stat(&b, "BdiWriteBandwidth");
	else
		wb_bandwidths(&w, s);
	return 0;
}

/* The largest request of a bdi without a request queue: bdi_init()'s io_pages */
#define VM_READAHEAD_PAGES	32	/* 128 KiB */

int pddt_budget_terms(const char *path, struct pddt_budget_terms *t)
{
	char dir[128], file[192];
	const char *name;
	long long kb;

	if (bdi_dir_of(path, dir, sizeof(dir)))
		return -1;
	name = strrchr(dir, '/') + 1;	/* "M:m", also its /sys/class/bdi name */
	/* a block device's bdi: bdi->io_pages = max_sectors >> 3 (blk_apply_bdi_limits()) */
	snprintf(file, sizeof(file), "/sys/dev/block/%s", name);
	if (access(file, F_OK)) {
		t->io_pages = VM_READAHEAD_PAGES;
	} else {
		snprintf(file, sizeof(file), "/sys/dev/block/%s/queue/max_sectors_kb", name);
		kb = pddt_read_ll(file);
		if (kb < 0)
			return -1;
		t->io_pages = kb / 4;
	}
	snprintf(file, sizeof(file), "/sys/class/bdi/%s/min_ratio_fine", name);
	t->min_fine = pddt_read_ll(file);
	snprintf(file, sizeof(file), "/sys/class/bdi/%s/max_ratio_fine", name);
	t->max_fine = pddt_read_ll(file);
	return t->min_fine < 0 || t->max_fine < 0 ? -1 : 0;
}

long long pddt_budget_kb(long long bw_kbps, long long ms, long long thresh_kb,
			 const struct pddt_budget_terms *t)
{
	/* in pages, as dirty_device_budget() and wb_dirty_budget() */
	unsigned long long thresh = thresh_kb / 4, budget = (unsigned long long)(bw_kbps / 4) * ms / 1000;
	unsigned long long floor = 4 * t->io_pages;
	/* thresh * ratio / (100 * BDI_RATIO_SCALE) */
	unsigned long long min = thresh * t->min_fine / 1000000;
	unsigned long long max = thresh * t->max_fine / 1000000;

	if (floor < min)
		floor = min;
	if (budget < floor)
		budget = floor;
	if (budget > max)
		budget = max;
	return (long long)budget * 4;
}
