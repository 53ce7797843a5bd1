// SPDX-License-Identifier: GPL-2.0
/*
 * kmemleak.c - kmemleak scans: new suspected leaks, known leaks of stock 6.12 apart.
 */
#include "pddt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
