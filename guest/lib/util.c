// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - small helpers: the clock, sorting, word lists.
 */
#include "pddt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double pddt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void pddt_sleep_until(double t)
{
	struct timespec ts = { (time_t)t, (long)((t - (time_t)t) * 1e9) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
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

int pddt_word_in(const char *word, const char *list)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}
