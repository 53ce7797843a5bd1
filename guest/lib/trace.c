// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - the writeback:balance_dirty_pages tracepoint, for one task.
 *
 * While a task is traced, the trace clock is "mono": the events' times are
 * CLOCK_MONOTONIC, pddt_now()'s clock, so that a caller can tell which of
 * its own intervals a call fell in. Stopping puts back "local", the
 * kernel's default.
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
		err = pddt_write_file(TRACE "/trace_clock", "mono");
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

/*
 * Stop tracing and call @fn for each traced call of @pid, in time order,
 * with its time (the word before the event's name, "12.345678:") and the
 * event's text. -1 if the trace cannot be read or its buffer dropped
 * events (its header's entries-in-buffer/entries-written differ), else 0.
 */
static int bdp_trace_each(pid_t pid, void (*fn)(double t, const char *ev, void *arg),
			  void *arg)
{
	char line[1024], pat[32];
	long in_buf = -1, written = -2;
	FILE *f;

	pddt_write_file(BDP_EVENT "/enable", "0");
	f = fopen(TRACE "/trace", "r");
	if (!f) {
		pddt_write_file(TRACE "/trace_clock", "local");
		return -1;
	}
	snprintf(pat, sizeof(pat), "-%d ", (int)pid);
	while (fgets(line, sizeof(line), f)) {
		char *ev = strstr(line, "balance_dirty_pages:");
		char *who = strstr(line, pat);
		char *t = ev;

		if (sscanf(line, "# entries-in-buffer/entries-written: %ld/%ld",
			   &in_buf, &written) == 2)
			continue;
		if (!ev || !who || who > ev)
			continue;
		/* back over the space before the event, then to the time's start */
		while (t > who && t[-1] == ' ')
			t--;
		while (t > who && t[-1] != ' ')
			t--;
		fn(atof(t), ev, arg);
	}
	fclose(f);
	pddt_write_file(TRACE "/trace_clock", "local");
	return in_buf == written ? 0 : -1;
}

static void sum_call(double t __attribute__((unused)), const char *ev, void *arg)
{
	struct pddt_bdp_trace *s = arg;
	long pause = trace_field(ev, "pause");
	long wait = trace_field(ev, "paused") + (pause > 0 ? pause : 0);

	s->events++;
	s->paused += pause > 0;
	/* fields of the dirty time budget (0 on a kernel without them) */
	s->limited += trace_field(ev, "limited") > 0;
	s->bound += trace_field(ev, "budget_bound") > 0;
	if (pause > s->max_pause_ms)
		s->max_pause_ms = pause;
	if (wait > s->max_wait_ms)
		s->max_wait_ms = wait;
}

void pddt_bdp_trace_stop(pid_t pid, struct pddt_bdp_trace *t)
{
	memset(t, 0, sizeof(*t));
	bdp_trace_each(pid, sum_call, t);
}

struct event_list {
	struct pddt_bdp_event *ev;
	long n, max;
};

static void add_call(double t, const char *ev, void *arg)
{
	struct event_list *l = arg;

	if (l->n < l->max) {
		l->ev[l->n].t = t;
		l->ev[l->n].pause_ms = trace_field(ev, "pause");
	}
	l->n++;
}

long pddt_bdp_trace_events(pid_t pid, struct pddt_bdp_event *ev, long max)
{
	struct event_list l = { ev, 0, max };

	if (bdp_trace_each(pid, add_call, &l) || l.n > max)
		return -1;
	return l.n;
}

double pddt_bdp_paused_ms(const struct pddt_bdp_event *ev, long n, long *from,
			  double t0, double t1)
{
	double ms = 0;

	while (*from < n && ev[*from].t < t0)
		(*from)++;
	for (long i = *from; i < n && ev[i].t <= t1; i++)
		ms += ev[i].pause_ms > 0 ? ev[i].pause_ms : 0;
	return ms;
}
