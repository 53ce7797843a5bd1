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

/* @fn for each event of @pid (0: any) in @f; -1 if it dropped events */
static int bdp_read(FILE *f, pid_t pid, pddt_bdp_fn fn, void *arg)
{
	char line[1024];
	long in_buf = -1, written = -2;

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
	return in_buf == written ? 0 : -1;
}

int pddt_bdp_trace_each(pid_t pid, pddt_bdp_fn fn, void *arg)
{
	FILE *f;
	int err;

	pddt_write_file(BDP_EVENT "/enable", "0");
	pddt_write_file(BDP_EVENT "/filter", "0");
	f = fopen(TRACE "/trace", "r");
	if (!f) {
		pddt_write_file(TRACE "/trace_clock", "local");
		return -1;
	}
	err = bdp_read(f, pid, fn, arg);
	fclose(f);
	pddt_write_file(TRACE "/trace_clock", "local");
	return err;
}

/* Count the call summed last (s->cur) as stock's or judged. */
static void end_call(struct pddt_bdp_trace *s)
{
	struct pddt_bdp_call *max = &s->longest;

	if (s->cur_stock && !s->cur_budget) {
		s->stock_calls++;
		max = &s->longest_stock;
	}
	if (s->cur.ms > max->ms)
		*max = s->cur;
	memset(&s->cur, 0, sizeof(s->cur));
	s->cur_open = s->cur_stock = s->cur_budget = 0;
}

void pddt_bdp_sum(struct pddt_bdp_trace *s, const char *ev)
{
	struct pddt_bdp_call *c = &s->cur;
	long pause = pddt_bdp_field(ev, "pause");
	long paused = pddt_bdp_field(ev, "paused");
	int stop = pause > 0 && pddt_bdp_field(ev, "task_ratelimit") == 0;
	/* fields of the dirty time budget (0 on a kernel without them) */
	int bound = pddt_bdp_field(ev, "budget_bound") > 0;

	s->events++;
	s->paused += pause > 0;
	s->limited += pddt_bdp_field(ev, "limited") > 0;
	s->bound += bound;
	if (pause > s->max_pause_ms)
		s->max_pause_ms = pause;
	/*
	 * An event is of the call before it when that one's last event was a
	 * stop and its paused counts that pause (a new call's starts from 0).
	 */
	if (!s->cur_open || paused < c->ms)
		end_call(s);
	c->ms = paused + (pause > 0 ? pause : 0);
	c->pauses += pause > 0;
	c->stops += stop;
	snprintf(c->ev, sizeof(c->ev), "%s", ev);
	c->ev[strcspn(c->ev, "\n")] = 0;
	s->cur_open = stop;
	s->cur_stock |= stop && !bound;
	s->cur_budget |= stop && bound;
}

void pddt_bdp_sum_end(struct pddt_bdp_trace *s)
{
	end_call(s);
}

static void sum_call(double t __attribute__((unused)), pid_t pid __attribute__((unused)),
		     const char *ev, void *arg)
{
	pddt_bdp_sum(arg, ev);
}

void pddt_bdp_trace_stop(pid_t pid, struct pddt_bdp_trace *t)
{
	memset(t, 0, sizeof(*t));
	pddt_bdp_trace_each(pid, sum_call, t);
	end_call(t);
}

int pddt_bdp_trace_sum_file(const char *path, struct pddt_bdp_trace *t)
{
	FILE *f = fopen(path, "r");
	int err;

	memset(t, 0, sizeof(*t));
	if (!f)
		return -1;
	err = bdp_read(f, 0, sum_call, t);
	fclose(f);
	end_call(t);
	return err;
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
