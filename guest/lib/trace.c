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

int pddt_bdp_trace_filter(const char *filter)
{
	int err = pddt_write_file(BDP_EVENT "/enable", "0");

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

int pddt_bdp_trace_start(pid_t pid)
{
	char filter[64];

	snprintf(filter, sizeof(filter), "common_pid == %d", (int)pid);
	return pddt_bdp_trace_filter(filter);
}

long pddt_bdp_field(const char *ev, const char *key)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(ev, pat);
	return p ? atol(p + strlen(pat)) : 0;
}

int pddt_bdp_trace_each(pid_t pid, pddt_bdp_fn fn, void *arg)
{
	char line[1024];
	long in_buf = -1, written = -2;
	FILE *f;

	pddt_write_file(BDP_EVENT "/enable", "0");
	pddt_write_file(BDP_EVENT "/filter", "0");
	f = fopen(TRACE "/trace", "r");
	if (!f) {
		pddt_write_file(TRACE "/trace_clock", "local");
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *ev = strstr(line, "balance_dirty_pages:");
		char *cpu = strstr(line, " [");
		char *who = cpu, *t = ev;
		pid_t p;

		if (sscanf(line, "# entries-in-buffer/entries-written: %ld/%ld",
			   &in_buf, &written) == 2)
			continue;
		if (!ev || !cpu || cpu > ev)
			continue;
		/* "comm-PID [CPU]": back over the spaces, then the digits */
		while (who > line && who[-1] == ' ')
			who--;
		while (who > line && who[-1] >= '0' && who[-1] <= '9')
			who--;
		p = atoi(who);
		if (pid && p != pid)
			continue;
		/* back over the space before the event, then to the time's start */
		while (t > cpu && t[-1] == ' ')
			t--;
		while (t > cpu && t[-1] != ' ')
			t--;
		fn(atof(t), p, ev, arg);
	}
	fclose(f);
	pddt_write_file(TRACE "/trace_clock", "local");
	return in_buf == written ? 0 : -1;
}

static void sum_call(double t __attribute__((unused)), pid_t pid __attribute__((unused)),
		     const char *ev, void *arg)
{
	struct pddt_bdp_trace *s = arg;
	long pause = pddt_bdp_field(ev, "pause");
	long wait = pddt_bdp_field(ev, "paused") + (pause > 0 ? pause : 0);

	s->events++;
	s->paused += pause > 0;
	/* fields of the dirty time budget (0 on a kernel without them) */
	s->limited += pddt_bdp_field(ev, "limited") > 0;
	s->bound += pddt_bdp_field(ev, "budget_bound") > 0;
	if (pause > s->max_pause_ms)
		s->max_pause_ms = pause;
	if (wait > s->max_wait_ms)
		s->max_wait_ms = wait;
}

void pddt_bdp_trace_stop(pid_t pid, struct pddt_bdp_trace *t)
{
	memset(t, 0, sizeof(*t));
	pddt_bdp_trace_each(pid, sum_call, t);
}

struct event_list {
	struct pddt_bdp_event *ev;
	long n, max;
};

static void add_call(double t, pid_t pid __attribute__((unused)), const char *ev,
		     void *arg)
{
	struct event_list *l = arg;

	if (l->n < l->max) {
		l->ev[l->n].t = t;
		l->ev[l->n].pause_ms = pddt_bdp_field(ev, "pause");
	}
	l->n++;
}

long pddt_bdp_trace_events(pid_t pid, struct pddt_bdp_event *ev, long max)
{
	struct event_list l = { ev, 0, max };

	if (pddt_bdp_trace_each(pid, add_call, &l) || l.n > max)
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
