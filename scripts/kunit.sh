#!/bin/sh
# Parse the KUnit KTAP in a serial log with the tree's own
# tools/testing/kunit/kunit.py parse; write one line per test case to
# OUT/kunit.tsv ("kunit.<suite>.<case>\tPASS|FAIL|SKIP\t"). Whatever keeps
# the cases from being read whole is a FAIL line too, never silence:
# kunit.parse (no tool, no results, an error kunit.py found in the KTAP:
# a missing subtest or result line, a wrong count) and kunit.exit
# (kunit.py parse exited non-zero with no failed case to say why).
# Usage: kunit.sh LOG OUT    exit 1 on a kunit.parse or kunit.exit line.
. "$(dirname "$0")/lib.sh"

[ -d "$2" ] || die "usage: kunit.sh LOG OUT (no directory '$2')"
out=$(realpath "$2")
tsv=$out/kunit.tsv
: >"$tsv"

# broken NAME DETAIL: the results could not be read whole: a FAIL line.
broken() {
	printf '%s\tFAIL\t%s\n' "$1" "$2" >>"$tsv"
	echo "kunit: $1: $2" >&2
	exit 1
}

[ -f "$1" ] || broken kunit.parse "no serial log '$1'"
log=$(realpath "$1")
kdir=$(src_dir)/tools/testing/kunit
[ -f "$kdir/kunit.py" ] || broken kunit.parse "no $kdir/kunit.py: run scripts/tree.sh"

rm -f "$out/kunit.json"
(cd "$kdir" && python3 kunit.py parse --json="$out/kunit.json" "$log") \
	>"$out/kunit.txt" 2>&1
rc=$?
last=$(grep . "$out/kunit.txt" | tail -n 1)
[ -s "$out/kunit.json" ] || broken kunit.parse "kunit.py parse wrote no results (exit $rc): $last"
# Each test case, named by the groups it is in; a parameterised case is a
# group of its own whose parameters are the cases.
jq -r 'def cases(p): (.test_cases[] | [p + "." + .name, .status, ""]),
		(.sub_groups[] as $g | $g | cases(p + "." + $g.name));
	.sub_groups[] as $s | $s | cases("kunit." + $s.name) | @tsv' \
	"$out/kunit.json" >"$tsv.cases" || broken kunit.parse "jq cannot read $out/kunit.json"
# ERROR (crashed) is a failure like any other.
sed 's/\tERROR\t/\tFAIL\t/' "$tsv.cases" >"$tsv"
rm -f "$tsv.cases"
errors=$(grep -c '\[ERROR\]' "$out/kunit.txt")
first=$(grep -m 1 '\[ERROR\]' "$out/kunit.txt" | sed 's/.*\[ERROR\] *//')
[ -s "$tsv" ] || broken kunit.parse "no KUnit test case in the log${first:+: $first}"
# kunit.py's own errors: the KTAP did not say all it should, so cases may
# be missing although every one read passed.
[ "$errors" -eq 0 ] || broken kunit.parse "kunit.py parse found $errors errors in the KTAP, first: $first"
# kunit.py parse exits 1 when a case failed (a FAIL line says so already);
# a non-zero exit without one is an error of its own.
[ "$rc" -eq 0 ] || grep -q '	FAIL	' "$tsv" ||
	broken kunit.exit "kunit.py parse exited $rc with no failed case: $last"
exit 0
