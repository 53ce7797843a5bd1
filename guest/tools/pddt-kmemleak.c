// SPDX-License-Identifier: GPL-2.0
/*
 * pddt-kmemleak NAME: report the memory leaks kmemleak finds now that it
 * has not reported before, as the result NAME (SKIP without kmemleak), and
 * clear its list. /init runs it after boot and after each test.
 * pddt-kmemleak --count REPORT: count the objects of a saved report, as
 * the result would ("objects N known K first: ..."); for the harness's own
 * tests on canned reports.
 */
#include "pddt.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	static char rep[256 << 10];
	struct pddt_leaks l;

	if (argc == 3 && !strcmp(argv[1], "--count")) {
		if (pddt_read_file(argv[2], rep, sizeof(rep)) < 0)
			pddt_die("pddt-kmemleak: cannot read %s", argv[2]);
		pddt_kmemleak_count(rep, &l);
		printf("objects %ld known %ld first: %s\n", l.count, l.known, l.first);
		return 0;
	}
	if (argc != 2)
		pddt_die("usage: pddt-kmemleak RESULT-NAME | --count REPORT");
	return pddt_kmemleak_check(argv[1]);
}
