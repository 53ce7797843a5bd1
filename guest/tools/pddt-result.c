// SPDX-License-Identifier: GPL-2.0
/* pddt-result NAME PASS|FAIL|SKIP [DETAIL...]: report one result from sh. */
#include "pddt.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	char detail[400] = "";
	enum pddt_status st;

	if (argc < 3)
		pddt_die("usage: pddt-result NAME PASS|FAIL|SKIP [DETAIL...]");
	if (!strcmp(argv[2], "PASS"))
		st = PDDT_PASS;
	else if (!strcmp(argv[2], "FAIL"))
		st = PDDT_FAIL;
	else if (!strcmp(argv[2], "SKIP"))
		st = PDDT_SKIP;
	else
		pddt_die("pddt-result: status '%s' is not PASS, FAIL or SKIP", argv[2]);
	for (int i = 3; i < argc; i++) {
		size_t len = strlen(detail);

		snprintf(detail + len, sizeof(detail) - len, "%s%s",
			 i > 3 ? " " : "", argv[i]);
	}
	pddt_result(argv[1], st, "%s", detail);
	return 0;
}
