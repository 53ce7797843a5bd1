#!/bin/sh
# Judge one kernel's boot (DIR = results/<run>/<variant>/) against its
# manifest, tests/manifest/<variant> (with the files it includes): every
# pattern of the boot's TESTS matches a test of guest/tests; every test
# the manifest names and TESTS selects has a result row; when bench_smoke
# ran, every run of the bench's quick plan (guest/bench/run, PDDT_LIST=1)
# has its row; every KUnit suite it names has a case in kunit.tsv; no row
# is a SKIP it does not allow. A manifest line ending "when VAR=GLOB" (or
# "when VAR!=GLOB") counts only if the boot's option VAR matches GLOB (or
# does not): DIR/options.txt (scripts/test.sh: PATCHES, SMP, DISKS,
# TESTS; one missing is its default). Nothing missing is silent: each miss
# is a line "manifest.<what>.<name>\tFAIL\t<detail>"; none, one PASS line,
# which names each skip allowed only by the boot's options.
# Usage: manifest.sh DIR >DIR/manifest.tsv    exit 1 on any FAIL line.
. "$(dirname "$0")/lib.sh"
# Manifests and TESTS hold patterns: no pathname expansion here.
set -f

dir=$(cd "${1:-/nonexistent}" 2>/dev/null && pwd) || die "usage: manifest.sh DIR (no directory '${1:-}')"
variant=$(basename "$dir")
mdir=${MANIFEST_DIR:-$TOP/tests/manifest}
man=$mdir/$variant
shown=tests/manifest/$variant
guest=$dir/guest/results.tsv
kunit=$dir/kunit.tsv
fails=0
tab=$(printf '\t')

fail() {
	printf 'manifest.%s\tFAIL\t%s\n' "$1" "$2"
	fails=$((fails + 1))
}
# has_row FILE NAME: FILE has a row NAME or NAME.<anything>.
has_row() {
	[ -f "$1" ] && awk -F'\t' -v n="$2" '$1 == n || index($1, n ".") == 1 { f = 1 } END { exit !f }' "$1"
}
# opt VAR: the boot's option VAR as DIR/options.txt has it; without it,
# the default (PATCHES: this shell's, as before options.txt).
opt() {
	if grep -q "^$1=" "$dir/options.txt" 2>/dev/null; then
		sed -n "s/^$1=//p" "$dir/options.txt" | tail -n 1
	else
		case $1 in PATCHES) echo "$PATCHES" ;; SMP) echo 2 ;; DISKS) echo "$DEFAULT_DISKS" ;; esac
	fi
}
# holds VAR=GLOB|VAR!=GLOB: whether the boot's option matches; 2: no
# such condition.
holds() {
	case $1 in
	*!=*) var=${1%%!=*} pat=${1#*!=} neg=1 ;;
	*=*) var=${1%%=*} pat=${1#*=} neg= ;;
	*) return 2 ;;
	esac
	case $var in PATCHES | SMP | DISKS) ;; *) return 2 ;; esac
	# shellcheck disable=SC2254
	case $(opt "$var") in $pat) [ -z "$neg" ] ;; *) [ -n "$neg" ] ;; esac
}
# lines FILE: FILE's lines, each "include NAME" replaced by the lines of
# NAME beside it (one level: an include there is left as it is, and fails
# below), comments and blank lines dropped.
lines() {
	while read -r kind rest; do
		case $kind in
		'' | '#'*) ;;
		include)
			ok=$2
			case $rest in '' | *[!a-z0-9_-]*) ok=no ;; esac
			if [ -z "$ok" ] && [ -f "$mdir/$rest" ]; then lines "$mdir/$rest" nested; else echo "$kind $rest"; fi ;;
		*) echo "$kind $rest" ;;
		esac
	done <"$1"
}
# options: the boot's options the conditions read, for a message.
options() { echo "PATCHES=$(opt PATCHES) SMP=$(opt SMP) DISKS=$(opt DISKS)"; }

if [ ! -f "$man" ]; then
	fail missing "no manifest for '$variant': no $shown says what its boot must report"
	exit 1
fi
# Each line of the manifest as "KIND NAME COND HOLDS": COND '-' for none,
# HOLDS 1 if the line counts for this boot.
all=
while read -r line; do
	[ -n "$line" ] || continue
	# shellcheck disable=SC2086
	set -- $line
	case $1.$#.${3:-} in
	test.2. | kunit.2. | skip.2.) c=- h=0 ;;
	test.4.when | kunit.4.when | skip.4.when) c=$4 && holds "$c"; h=$? ;;
	*) h=2 ;;
	esac
	if [ "$h" -lt 2 ]; then
		all="$all$1 $2 $c $((1 - h))
"
	else
		fail syntax "$shown: '$line' (expected: test|kunit|skip NAME [when VAR=GLOB or VAR!=GLOB], VAR one of PATCHES SMP DISKS; or include NAME, a file beside it, one level)"
	fi
done <<EOF
$(lines "$man")
EOF
# entries KIND: the names of the lines KIND that count for this boot.
entries() { printf '%s' "$all" | awk -v k="$1" '$1 == k && $4 { print $2 }'; }

# The guest's tests, as guest/init names them: tests/*.c built as NAME,
# tests/*.sh kept as NAME.sh (guest/Makefile).
have=
set +f
for t in "$TOP"/guest/tests/*.c "$TOP"/guest/tests/*.sh; do
	[ -f "$t" ] || continue
	t=${t##*/}
	have="$have ${t%.*}"
done
set -f
# The boot's selection, matched as guest/init does.
sel=$(opt TESTS)
selected() {
	[ -z "$sel" ] && return 0
	for pat in $sel; do
		# shellcheck disable=SC2254
		case $1 in $pat) return 0 ;; esac
	done
	return 1
}
for pat in $sel; do
	hit=
	for t in $have; do
		# shellcheck disable=SC2254
		case $t in $pat) hit=1 ;; esac
	done
	[ -n "$hit" ] || fail "tests_pattern.$(printf %s "$pat" | tr -c 'A-Za-z0-9_' '_')" \
		"TESTS pattern '$pat' matches no test of guest/tests:$have"
done

# A boot that reported nothing at all (no build, no boot): one line, not
# one per test and suite.
if [ ! -s "$guest" ] && [ ! -s "$kunit" ]; then
	fail nothing_ran "no guest results and no KUnit results: nothing $shown names ran"
	exit 1
fi

n_test=0 n_run=0 n_suite=0 n_skip=0
for t in $(entries test); do
	selected "$t" || continue
	n_test=$((n_test + 1))
	has_row "$guest" "$t" ||
		fail "test.$t" "selected and named in $shown, but no result row $t or $t.*: it did not run or report"
done
# bench_smoke's runs: the bench's quick plan, as guest/bench/run lists it
# (nothing of the host's environment); none if bench_smoke skipped as a
# whole (that SKIP is judged below).
if selected bench_smoke && entries test | grep -qx bench_smoke &&
	! awk -F'\t' '$1 == "bench_smoke" && $2 == "SKIP" { f = 1 } END { exit !f }' "$guest"; then
	plan=$(env -i PATH="$PATH" PDDT_QUICK=1 PDDT_LIST=1 sh "$TOP/guest/bench/run")
	[ -n "$plan" ] || fail bench_smoke_plan "PDDT_QUICK=1 PDDT_LIST=1 guest/bench/run listed no runs"
	while read -r rep sc arg mode prof; do
		[ -n "$sc" ] || continue
		label=$sc
		[ "$arg" = - ] || label="$label $arg"
		[ "$prof" = usb ] || label="$label $prof"
		r=$(printf %s "$label" | tr -c 'A-Za-z0-9_' '_').$mode
		n_run=$((n_run + 1))
		has_row "$guest" "bench_smoke.$r" ||
			fail "bench_smoke.$r" "bench_smoke run $r (rep $rep of the quick plan of guest/bench/run) has no row bench_smoke.$r"
	done <<EOF
$plan
EOF
fi
for s in $(entries kunit); do
	n_suite=$((n_suite + 1))
	has_row "$kunit" "kunit.$s" ||
		fail "kunit.$s" "KUnit suite $s, named in $shown, did not run: no case kunit.$s.* in kunit.tsv"
done
# Every SKIP row of the boot, the guest's and KUnit's, against the skips
# the manifest allows: unconditionally, or when the boot's options hold.
skips=$(cat "$dir/boot.tsv" "$kunit" "$guest" 2>/dev/null | awk -F'\t' '$2 == "SKIP" { print $1 "\t" $3 }')
chosen=
while IFS=$tab read -r row why; do
	[ -n "$row" ] || continue
	n_skip=$((n_skip + 1))
	# the skip lines naming the row: "-" if one counts without a
	# condition, else the conditions of those that count, else "!" and
	# the conditions, none of which holds
	by=$(printf '%s' "$all" | awk -v r="$row" '$1 == "skip" && (r == $2 || index(r, $2 ".") == 1) {
			if ($4 && $3 == "-") u = 1; else if ($4) c = c " or " $3; else n = n " or " $3 }
		END { if (u) print "-"; else if (c) print substr(c, 5); else if (n) print "!" substr(n, 5) }')
	case $by in
	-) ;;
	!*) fail "skip.$row" "SKIP allowed by $shown only when ${by#!}, not with this boot's $(options): $why" ;;
	?*) chosen="$chosen, $row (when ${by})" ;;
	*) fail "skip.$row" "SKIP not allowed by $shown: $why" ;;
	esac
done <<EOF
$skips
EOF

[ "$fails" -eq 0 ] || exit 1
printf 'manifest\tPASS\t%s\n' "as $shown requires: $n_test tests, $n_run bench_smoke runs, $n_suite KUnit suites reported; $n_skip skips, all allowed${chosen:+; by the options of this boot:${chosen#,}}"
