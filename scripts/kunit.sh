#!/bin/sh
# Parse the KUnit KTAP in a serial log with the tree's own
# tools/testing/kunit/kunit.py parse; write one line per test case to
# OUT/kunit.tsv ("kunit.<suite>.<case>\tPASS|FAIL|SKIP\t").
# Usage: kunit.sh LOG OUT    exit 1 if the log has no KUnit results.
. "$(dirname "$0")/lib.sh"

log=$(realpath "$1")
out=$(realpath "$2")
[ -f "$log" ] || die "usage: kunit.sh LOG OUT (no file '$1')"
kdir=$(src_dir)/tools/testing/kunit
[ -f "$kdir/kunit.py" ] || die "no $kdir/kunit.py: run scripts/tree.sh"

(cd "$kdir" && python3 kunit.py parse --json="$out/kunit.json" "$log") \
	>"$out/kunit.txt" 2>&1
rc=$?
if [ ! -s "$out/kunit.json" ]; then
	tail -n 20 "$out/kunit.txt" >&2
	printf 'kunit.parse\tFAIL\tkunit.py parse found no results (exit %s)\n' "$rc" >"$out/kunit.tsv"
	exit 1
fi
# Each test case, named by the groups it is in; a parameterised case is a
# group of its own whose parameters are the cases.
jq -r 'def cases(p): (.test_cases[] | [p + "." + .name, .status, ""]),
		(.sub_groups[] as $g | $g | cases(p + "." + $g.name));
	.sub_groups[] as $s | $s | cases("kunit." + $s.name) | @tsv' \
	"$out/kunit.json" >"$out/kunit.tsv" || die "cannot read $out/kunit.json"
# ERROR (crashed) is a failure like any other.
sed -i 's/\tERROR\t/\tFAIL\t/' "$out/kunit.tsv"
if [ ! -s "$out/kunit.tsv" ]; then
	printf 'kunit.parse\tFAIL\tno KUnit test case in the log\n' >"$out/kunit.tsv"
	exit 1
fi
exit 0
