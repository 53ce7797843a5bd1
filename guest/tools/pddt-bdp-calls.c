// SPDX-License-Identifier: GPL-2.0
/*
 * pddt-bdp-calls TRACE: sum up the balance_dirty_pages calls of a saved
 * trace of one task (/sys/kernel/tracing/trace) as device_limit judges
 * them: the longest call apart from those stock's control stopped, and
 * those (struct pddt_bdp_trace). For reading a trace by hand, and for the
 * harness's own tests on canned traces.
 */
#include "pddt.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	struct pddt_bdp_trace t;

	if (argc != 2)
		pddt_die("usage: pddt-bdp-calls TRACE");
	if (pddt_bdp_trace_sum_file(argv[1], &t))
		pddt_die("pddt-bdp-calls: cannot read %s, or it dropped events", argv[1]);
	printf("events %ld paused %ld longest %ld ms %ld pauses %ld stops; stock %ld longest %ld ms %ld pauses\n",
	       t.events, t.paused, t.longest.ms, t.longest.pauses, t.longest.stops,
	       t.stock_calls, t.longest_stock.ms, t.longest_stock.pauses);
	return 0;
}
