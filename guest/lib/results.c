// SPDX-License-Identifier: GPL-2.0
/*
 * results.c - results: the rows a test reports (PDDT_RESULTS), and dying with a message.
 */
#include "pddt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void pddt_results_path(const char *file, char *path, size_t size)
{
	const char *res = getenv("PDDT_RESULTS"), *slash = res ? strrchr(res, '/') : NULL;

	if (slash)
		snprintf(path, size, "%.*s/%s", (int)(slash - res), res, file);
	else
		snprintf(path, size, "/results/%s", file);
}
