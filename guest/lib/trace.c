// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - the writeback:balance_dirty_pages tracepoint, for one task.
 */
#include "pddt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
