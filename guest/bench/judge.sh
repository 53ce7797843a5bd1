#!/bin/sh
# /bench/judge DIR: judge a bench run for make test (bench_smoke), from
# DIR/runs.tsv (rep, scenario, argument, mode, and the queue profile: none
# or usb, the default, or another, whose figures are the scenario's
# <scenario>_<profile>), DIR/failures.tsv (label,
# mode, rep, why) and DIR/summary.tsv (scenario, mode, rep, metric, value,
# unit). One line per run: PREFIX.<label>.<mode> (PREFIX: $PDDT_JUDGE, or
# bench_smoke), with .rREP after the mode for repetitions after the
# first, PASS or FAIL, and
# why, tab-separated. A run passes if it did not fail, reported figures,
# each of its *_data_intact, *_writers_ran and objects_intact is 1, each
# figure its scenario must report (must_report) is there and above 0, and
# it had at least one such check: a run judged on nothing fails. Exit 1 if
# a run failed or there were none. Timing is not judged.
dir=${1:?usage: judge DIR}
prefix=${PDDT_JUDGE:-bench_smoke}

# must_report SCENARIO: the figures a scenario must report, each above 0:
# what the judge checks where there is nothing to read back. hotpath
# writes to brd and keeps nothing: its CPU per page and its wall time.
# stream's rate is what the disk wrote, its data read back too.
must_report() {
	case $1 in
	hotpath) echo "cpu_per_dirtied_page wall" ;;
	stream_*) echo "rate_kbps" ;;
	esac
}
# reported SCENARIO ARG: the name its figures are under: <scenario>_<ARG>
# for the scenarios that call bench_init_apart() (lib/bench.h).
reported() {
	case $1:$2 in
	inter_process:t8 | copy_sync:[!-]* | slow_waits:[!-]* | stream:[!-]*) echo "$1_$2" ;;
	*) echo "$1" ;;
	esac
}
[ -s "$dir/runs.tsv" ] || {
	printf '%s.runs\tFAIL\tno runs in %s/runs.tsv\n' "$prefix" "$dir"
	exit 1
}
fails=0
while IFS='	' read -r rep sc arg mode prof; do
	label=$sc
	[ "$arg" = - ] || label="$label $arg"
	sc=$(reported "$sc" "$arg")
	case $prof in
	'' | usb) ;;
	*) label="$label $prof" sc=${sc}_$prof ;;
	esac
	verdict=$(awk -F'\t' -v sc="$sc" -v lb="$label" -v mo="$mode" -v rep="$rep" \
		-v must="$(must_report "$sc")" '
		FILENAME ~ /failures.tsv$/ { if ($1 == lb && $2 == mo && $3 == rep) why = $4; next }
		$1 == sc && $2 == mo && $3 == rep {
			n++
			if ($4 ~ /(_data_intact|_writers_ran|^objects_intact)$/) {
				c++
				if ($5 + 0 != 1) bad = bad " " $4 "=" $5
			}
			got[$4] = $5
		}
		END {
			m = split(must, req, " ")
			for (i = 1; i <= m; i++)
				if (!(req[i] in got)) missing = missing " " req[i]
				else if (got[req[i]] + 0 <= 0) low = low " " req[i] "=" got[req[i]]
			if (why != "") printf "FAIL\t%s", why
			else if (!n) printf "FAIL\tno figures"
			else if (missing != "") printf "FAIL\t%d figures; missing:%s", n, missing
			else if (low != "") printf "FAIL\t%d figures; not above 0:%s", n, low
			else if (bad != "") printf "FAIL\t%d figures; not 1:%s", n, bad
			else if (!c && !m) printf "FAIL\t%d figures and no check: nothing to read back, no figure it must report", n
			else printf "PASS\t%d figures; %d checks: %d read-back and progress, all 1; %d required figures, all above 0", n, c + m, c, m
		}' "$dir/failures.tsv" "$dir/summary.tsv" 2>/dev/null)
	[ -n "$verdict" ] || verdict="FAIL	no failures.tsv or summary.tsv"
	r=
	[ "$rep" = 1 ] || r=.r$rep
	printf '%s.%s.%s%s\t%s\n' "$prefix" "$(printf %s "$label" | tr -c 'A-Za-z0-9_' '_')" \
		"$mode" "$r" "$verdict"
	[ "${verdict%%	*}" = PASS ] || fails=$((fails + 1))
done <"$dir/runs.tsv"
[ "$fails" -eq 0 ]
