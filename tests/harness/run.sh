#!/bin/sh
# The harness tests itself on canned inputs: a splat scanner, a KUnit
# reader or a result summary that is never shown to fail could hide every
# failure. Also: bad input to the front door fails fast with a message.
# Usage: tests/harness/run.sh OUT.tsv    (one line per check)
here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../.." && pwd)
S=$TOP/scripts
out=$1
[ -n "$out" ] || { echo "usage: run.sh OUT.tsv" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
: >"$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

res() { printf 'harness.%s\t%s\t%s\n' "$1" "$2" "$3" >>"$out"; }
expect() { # NAME WANT_RC GOT_RC DETAIL
	if [ "$2" = "$3" ]; then res "$1" PASS "$4"; else res "$1" FAIL "exit $3, wanted $2: $4"; fi
}

# --- splat scanner: every splat-* log is caught, every clean-* log passes
for f in "$here"/logs/*.log; do
	n=$(basename "$f" .log)
	"$S/scan-log.sh" "$f" >/dev/null 2>"$tmp/scan"
	rc=$?
	case $n in
	splat-*) expect "scan.$n" 1 $rc "$(head -n 1 "$tmp/scan")" ;;
	clean-*) expect "scan.$n" 0 $rc "clean log" ;;
	esac
done
"$S/scan-log.sh" "$tmp/no-such.log" >/dev/null 2>&1
expect scan.missing_log_is_an_error 1 $? "a missing log is not a clean one"

# --- summary: the closing line and the exit status on canned results (a
# run's kernels judged against the run's own canned manifests)
for d in "$here"/results/*/; do
	n=$(basename "$d")
	rm -rf "$tmp/r"
	cp -r "$d" "$tmp/r"
	MANIFEST_DIR=$tmp/r/manifest PATCHES=series "$S/summarize.sh" "$tmp/r" >"$tmp/sum" 2>&1
	rc=$?
	want=$(cat "$d/expect")
	got=$(tail -n 1 "$tmp/sum")
	case $want in "0 passed"* | *" 0 failed"*) [ "$n" = all-pass ] && wrc=0 || wrc=1 ;; *) wrc=1 ;; esac
	if [ "$got" = "$want" ] && [ "$rc" = "$wrc" ]; then
		res "summary.$n" PASS "$got (exit $rc)"
	else
		res "summary.$n" FAIL "got '$got' exit $rc, wanted '$want' exit $wrc"
	fi
done

# --- test report: each kernel's tests with their durations and outcomes
rm -rf "$tmp/r"
cp -r "$here/results/two-kernels" "$tmp/r"
MANIFEST_DIR=$tmp/r/manifest PATCHES=series "$S/summarize.sh" "$tmp/r" >/dev/null 2>&1
"$S/test-report.sh" "$tmp/r" >/dev/null 2>&1
rc=$?
for want in '| stress | 412 s | 1 | 0 | 0 | 0 |' '| faults | 171 s | 1 | 1 | 0 | 1 |' \
	'| kmemleak.after_faults | FAIL | 1 new suspected leaks |' '## Kernel `debug`'; do
	grep -qxF -- "$want" "$tmp/r/report.md" 2>/dev/null || rc="$rc (no line '$want')"
done
expect report.test_tables 0 "$rc" "per-kernel tests, durations, every check in report.md"

# --- the manifest (tests/manifest/base): a canned good boot of the base
# kernel on the default options passes, and each thing missing from it is
# a FAIL row
mani() { # NAME EDIT-COMMAND ROW [TEXT...]: summarize a copy of the canned
	# boot, edited; ROW: PASS or the FAIL row wanted; each TEXT must be
	# in results.tsv
	rm -rf "$tmp/m"
	mkdir -p "$tmp/m"
	cp -r "$here/manifest/base" "$tmp/m/base"
	(cd "$tmp/m/base" && eval "$2")
	PATCHES=series "$S/summarize.sh" "$tmp/m" >"$tmp/msum" 2>&1
	rc=$?
	failed=$(grep '^FAILED ' "$tmp/msum")
	case $3 in
	PASS) grep -q "	manifest	PASS	" "$tmp/m/results.tsv" && [ "$rc" = 0 ] && [ -z "$failed" ] ;;
	*) [ "$rc" = 1 ] && [ "$failed" = "$(grep "^FAILED [a-z]*/manifest/$3: " "$tmp/msum")" ] &&
		[ -n "$failed" ] ;;
	esac
	ok=$?
	n=$1 want=$3
	shift 3
	for text; do
		grep -qF "$text" "$tmp/m/results.tsv" || { ok=1 failed="${failed:-no '$text' in results.tsv}"; }
	done
	expect "manifest.$n" 0 $ok "wanted $want; summarize.sh exit $rc; ${failed:-$(tail -n 1 "$tmp/msum")}"
}
cpu_skip="sed -i 's/^stress.cpu_hotplug	PASS	.*/stress.cpu_hotplug	SKIP	one CPU: nothing to unplug/' guest/results.tsv"
mani passes_a_complete_boot : PASS
mani fails_a_missing_test "sed -i '/^removal/d' guest/results.tsv" manifest.test.removal
mani fails_a_missing_bench_smoke_run "sed -i '/^bench_smoke.hotpath__mnt_ram.on	/d' guest/results.tsv" \
	manifest.bench_smoke.hotpath__mnt_ram.on
mani fails_a_missing_kunit_suite "sed -i '/^kunit.dirty_device_limit\\./d' kunit.tsv" \
	manifest.kunit.dirty_device_limit
mani fails_a_disallowed_skip "$cpu_skip" manifest.skip.stress.cpu_hotplug
# a skip an option chosen by hand causes is allowed, and stays a SKIP row
mani allows_the_skip_smp_1_causes "echo SMP=1 >>options.txt; $cpu_skip" PASS \
	"base/guest	stress.cpu_hotplug	SKIP	" "by the options of this boot: stress.cpu_hotplug (when SMP=1)"
mani allows_the_skip_disks_without_slow2_cause "echo 'DISKS=fast:100M slow:4M fast2:100M' >>options.txt;
	printf 'device_limit\tSKIP\tscenario min_max_bytes: no disk at /mnt/slow2\n' >>guest/results.tsv" PASS \
	"base/guest	device_limit	SKIP	"
mani fails_a_series_test_skipped_on_the_patched_tree \
	"printf 'device_limit\tSKIP\tno /proc/sys/vm/dirty_device_time_ms: kernel without the series\n' >>guest/results.tsv" \
	manifest.skip.device_limit
# stock 6.12 (PATCHES=none): no series KUnit suites, the tests of its
# sysctls and bench_smoke skip
mani passes_a_stock_boot "echo PATCHES=none >>options.txt
	sed -i '/^kunit.dirty_device_limit\\./d' kunit.tsv
	sed -i '/^bench_smoke\\./d; /^device_limit\\./d; /^fresh_device\\./d; /^light_dirtier\\./d' guest/results.tsv
	for t in bench_smoke device_limit fresh_device light_dirtier; do
		printf '%s\tSKIP\tkernel without the series\n' \$t >>guest/results.tsv
	done" PASS "0 bench_smoke runs, 3 KUnit suites"
mani fails_a_stock_boot_without_the_list_suites "echo PATCHES=none >>options.txt
	sed -i '/^kunit.dirty_device_limit\\./d; /^kunit.hlist\\./d' kunit.tsv" \
	manifest.kunit.hlist
mani passes_a_lean_boot "cd .. && mv base lean" PASS
mani fails_a_tests_pattern_matching_nothing "echo 'TESTS=bdi_counters nosuch*' >>options.txt" \
	manifest.tests_pattern.nosuch_
mani requires_only_the_selected_tests "echo 'TESTS=b*' >>options.txt; sed -i '/^[dflrs]/d' guest/results.tsv" PASS
mani fails_a_boot_that_reported_nothing "rm guest/results.tsv kunit.tsv" manifest.nothing_ran
mani fails_a_variant_without_manifest "cd .. && mv base nosuch" manifest.missing
# every guest test named in every manifest (with what it includes): a new
# test is required somewhere; every config variant has a manifest
for f in "$TOP"/tests/manifest/*; do
	inc=$(awk -v d="${f%/*}/" '$1 == "include" { print d $2 }' "$f")
	miss=
	for t in "$TOP"/guest/tests/*.c "$TOP"/guest/tests/*.sh; do
		t=${t##*/}
		t=${t%.*}
		# shellcheck disable=SC2086
		cat "$f" $inc | grep -q "^test $t\( \|$\)" || miss="$miss $t"
	done
	[ -z "$miss" ]
	expect "manifest.$(basename "$f").names_every_test" 0 $? "not named:${miss:- none}"
done
miss=
for c in "$TOP"/config/*.config; do
	c=${c##*/}
	[ -f "$TOP/tests/manifest/${c%.config}" ] || miss="$miss ${c%.config}"
done
[ -z "$miss" ]
expect manifest.one_per_config_variant 0 $? "config variants without a manifest:${miss:- none}"

# --- kmemleak reports: known leaks of stock 6.12 apart, any other one counts
if make -s -C "$TOP/guest" OUT="$tmp/g" "$tmp/g/bin/pddt-kmemleak" >"$tmp/mkg" 2>&1; then
	for r in known-only:'objects 12 known 12 first: ' \
		mixed:'objects 13 known 12 first: size 16: __kmalloc_cache_noprof < copy_process <'; do
		got=$("$tmp/g/bin/pddt-kmemleak" --count "$here/kmemleak/${r%%:*}.kmemleak")
		case $got in "${r#*:}"*) rc=0 ;; *) rc=1 ;; esac
		expect "kmemleak.${r%%:*}" 0 "$rc" "$got"
	done
else
	res kmemleak.reader FAIL "cannot build pddt-kmemleak: $(tail -n 1 "$tmp/mkg")"
fi

# --- balance_dirty_pages traces: calls stock's control stopped apart, the rest judged
if make -s -C "$TOP/guest" OUT="$tmp/g" "$tmp/g/bin/pddt-bdp-calls" >"$tmp/mkb" 2>&1; then
	for r in stock-stop:'events 8 paused 7 longest 92 ms 1 pauses 0 stops; stock 1 longest 504 ms 5 pauses' \
		budget-stop:'events 4 paused 4 longest 300 ms 3 pauses 3 stops; stock 0 longest 0 ms 0 pauses' \
		mixed-stop:'events 3 paused 3 longest 280 ms 3 pauses 2 stops; stock 0 longest 0 ms 0 pauses' \
		new-call:'events 3 paused 3 longest 120 ms 1 pauses 0 stops; stock 1 longest 100 ms 1 pauses'; do
		got=$("$tmp/g/bin/pddt-bdp-calls" "$here/bdp/${r%%:*}.trace" 2>&1)
		[ "$got" = "${r#*:}" ]
		expect "bdp_calls.${r%%:*}" 0 $? "$got"
	done
	for r in missing dropped; do
		got=$("$tmp/g/bin/pddt-bdp-calls" "$here/bdp/$r.trace" 2>&1)
		expect "bdp_calls.$r.trace_is_an_error" 2 $? "$got"
	done
else
	res bdp_calls.reader FAIL "cannot build pddt-bdp-calls: $(tail -n 1 "$tmp/mkb")"
fi

# --- KUnit: the tree's kunit.py parse, through our reader
if . "$S/lib.sh" && [ -f "$(src_dir)/tools/testing/kunit/kunit.py" ]; then
	for f in "$here"/kunit/*.log; do
		n=$(basename "$f" .log)
		mkdir -p "$tmp/k-$n"
		"$S/kunit.sh" "$f" "$tmp/k-$n" >/dev/null 2>&1
		rc=$?
		case $n in
		none)
			grep -q '^kunit.parse	FAIL	' "$tmp/k-$n/kunit.tsv" || rc="$rc (no kunit.parse FAIL row)"
			expect "kunit.$n" 1 "$rc" "a log without KTAP is an error and a FAIL row" ;;
		crashed)
			if [ $rc -eq 1 ] && grep -q '^kunit.demo.	FAIL	' "$tmp/k-$n/kunit.tsv" &&
				grep -q '^kunit.parse	FAIL	' "$tmp/k-$n/kunit.tsv"; then
				res "kunit.$n" PASS "a crash inside a suite is a failed case and a parse error"
			else
				res "kunit.$n" FAIL "exit $rc; $(tr '\n\t' '; ' <"$tmp/k-$n/kunit.tsv")"
			fi ;;
		plan-unmet)
			# every case read passed, but the plan named a second suite
			grep -q '^kunit.parse	FAIL	.*missing expected subtest' "$tmp/k-$n/kunit.tsv" ||
				rc="$rc (no kunit.parse FAIL row)"
			expect "kunit.$n" 1 "$rc" "$(grep -v '	PASS	' "$tmp/k-$n/kunit.tsv" | tr '\t' ' ')" ;;
		*)
			if [ $rc -eq 0 ] && cmp -s "$tmp/k-$n/kunit.tsv" "$here/kunit/$n.expect"; then
				res "kunit.$n" PASS "cases and statuses as expected"
			else
				res "kunit.$n" FAIL "exit $rc; got $(tr '\n\t' '; ' <"$tmp/k-$n/kunit.tsv" 2>/dev/null)"
			fi ;;
		esac
	done
else
	res kunit.reader FAIL "no kernel tree: kunit.py parse cannot be tested"
fi
# kunit.sh's own errors are FAIL rows: no kunit.py, and a kunit.py parse
# that exits non-zero (here 2) although every case it wrote passed
mkdir -p "$tmp/k-err" "$tmp/fake/tools/testing/kunit"
SRC_DIR=$tmp/no-tree "$S/kunit.sh" "$here/kunit/pass-fail.log" "$tmp/k-err" >/dev/null 2>&1
rc=$?
grep -q '^kunit.parse	FAIL	no .*kunit.py' "$tmp/k-err/kunit.tsv" || rc="$rc (no kunit.parse FAIL row)"
expect kunit.no_tool_is_a_fail_row 1 "$rc" "$(tr '\t' ' ' <"$tmp/k-err/kunit.tsv")"
cat >"$tmp/fake/tools/testing/kunit/kunit.py" <<'EOF2'
import json, sys
out = [a[len('--json='):] for a in sys.argv if a.startswith('--json=')][0]
case = {"name": "ok", "status": "PASS"}
json.dump({"name": "KUnit Test Group", "test_cases": [],
           "sub_groups": [{"name": "demo", "sub_groups": [], "test_cases": [case]}]},
          open(out, "w"))
print("Traceback (most recent call last): ValueError")
sys.exit(2)
EOF2
SRC_DIR=$tmp/fake "$S/kunit.sh" "$here/kunit/pass-fail.log" "$tmp/k-err" >/dev/null 2>&1
rc=$?
grep -q '^kunit.exit	FAIL	kunit.py parse exited 2 ' "$tmp/k-err/kunit.tsv" || rc="$rc (no kunit.exit FAIL row)"
expect kunit.nonzero_exit_is_a_fail_row 1 "$rc" "$(grep -v '	PASS	' "$tmp/k-err/kunit.tsv" | tr '\t' ' ')"

# --- bench report: medians over reps, ratios to off, aims met or not
rm -rf "$tmp/b"
cp -r "$here/bench" "$tmp/b"
"$S/report.sh" "$tmp/b" >/dev/null 2>&1
rc=$?
for want in '| fast_beside_vs_solo | ratio | 0.6 | 0.97 | 0.9 | 1.617 | 1.500 |' \
	'| streaming rate on / off: 4 writers on the slow disk, total | - | 0.975 | >= 0.98 | **not met** |' \
	'| CPU per dirtied page on / off | - | 1.010 | <= 1.02 | met |' \
	'| fast disk beside the saturated slow one / solo, on | 0.600 (0.500-0.700) | 0.970 (0.960-0.980) | >= 0.95 | met |' \
	'| slow disk rate / its bandwidth, on | 0.650 (0.600-0.700) | 0.900 (0.850-0.950) | >= 0.9 | **not resolved** |' \
	'- heavy 4, mode on, rep 1: exit 3'; do
	grep -qxF -- "$want" "$tmp/b/report.md" 2>/dev/null || rc="$rc (no line '$want')"
done
expect report.tables_and_aims 0 "$rc" "medians, ratios, aims (met, not met, not resolved) and failed runs in report.md"
"$S/scan-log.sh" "$here/logs/splat-kernel-bug.log" >"$tmp/b/splats.txt" 2>&1
"$S/report.sh" "$tmp/b" >/dev/null 2>&1
rc=$?
grep -qxF '## Kernel splats: this run fails' "$tmp/b/report.md" || rc="$rc (no splat section)"
expect report.shows_splats 0 "$rc" "a bench boot's splat in report.md"
"$S/report.sh" "$tmp/no-such-run" >/dev/null 2>&1
expect report.missing_run_is_an_error 1 $? "no summary.tsv, no report"
# the README's headline table is the one generated from the run it names
hl=$(sed -n 's/^<!-- headline: \(.*\) -->$/\1/p' "$TOP/README.md")
sed -n '/^<!-- headline: /,/^<!-- \/headline -->$/p' "$TOP/README.md" | sed '1d;$d' >"$tmp/hl-have"
if [ -n "$hl" ] && "$S/report.sh" --tracked "$TOP/$hl" >"$tmp/hl-want" 2>&1 && [ -s "$tmp/hl-have" ]; then
	cmp -s "$tmp/hl-have" "$tmp/hl-want"
	expect readme.headline_is_generated 0 $? "README's table against report.sh --tracked $hl"
else
	expect readme.headline_is_generated 0 1 "no headline block or run '${hl:-none}': $(head -n 1 "$tmp/hl-want" 2>/dev/null)"
fi

# --- bench_smoke's judge: a failed run, a bad read-back, no figures, no runs
J=$TOP/guest/bench/judge.sh
smoke() { # NAME WANT_RC EDIT-COMMAND: judge a copy of the canned run, edited
	rm -rf "$tmp/s"
	cp -r "$here/bench-smoke" "$tmp/s"
	(cd "$tmp/s" && eval "$3")
	"$J" "$tmp/s" >"$tmp/judged" 2>&1
	rc=$?
	expect "bench_smoke.$1" "$2" "$rc" "$(grep -v '	PASS	' "$tmp/judged" | head -n 1)"
}
smoke judge_passes_a_good_run 0 :
grep -c '	PASS	' "$tmp/judged" | grep -qx 6
expect bench_smoke.judge_one_line_per_run 0 $? "$(wc -l <"$tmp/judged") lines for 6 runs"
smoke judge_fails_a_failed_run 1 "printf 'heavy 4\ton\t1\texit 3\n' >failures.tsv"
smoke judge_fails_bad_data 1 "sed -i '/on\t1\tloop_data_intact/s/\t1\tbool$/\t0\tbool/' summary.tsv"
smoke judge_fails_a_writer_that_stopped 1 "sed -i '/fuse_writers_ran/s/\t1\tbool$/\t0\tbool/' summary.tsv"
smoke judge_fails_a_run_without_figures 1 "sed -i '/^inter_device\toff/d' summary.tsv"
smoke judge_fails_a_run_with_zero_checks 1 "sed -i '/^inter_device\toff\t1\t.*_data_intact/d' summary.tsv"
smoke judge_fails_hotpath_without_its_figures 1 "sed -i '/^hotpath\ton\t1\tcpu_per_dirtied_page/d' summary.tsv"
# a run with the slow disks' virtio queue reports as <scenario>_virtio
smoke judge_passes_a_profile 0 "printf '1\tinter_device\t-\ton\tvirtio\n' >>runs.tsv &&
	printf 'inter_device_virtio\ton\t1\tfast_data_intact\t1\tbool\n' >>summary.tsv"
grep -q '^bench_smoke\.inter_device_virtio\.on	PASS	' "$tmp/judged"
expect bench_smoke.judge_names_the_profile 0 $? "$(grep virtio "$tmp/judged")"
smoke judge_fails_a_profile_without_its_figures 1 "printf '1\tinter_device\t-\ton\tvirtio\n' >>runs.tsv"
# copy_sync with a size or umount, inter_process t8, slow_waits: figures under
# <scenario>_<arg>[_<profile>]
smoke judge_passes_an_arg_reported_apart 0 "printf '1\tcopy_sync\t256\ton\tusb\n' >>runs.tsv &&
	printf 'copy_sync_256\ton\t1\tcopy_data_intact\t1\tbool\n' >>summary.tsv"
smoke judge_passes_copy_sync_umount_reported_apart 0 "printf '1\tcopy_sync\tumount\toff\tusb\n' >>runs.tsv &&
	printf 'copy_sync_umount\toff\t1\tcopy_data_intact\t1\tbool\n' >>summary.tsv"
smoke judge_passes_slow_waits_reported_apart 0 "printf '1\tslow_waits\t256K\toff\tvirtio\n' >>runs.tsv &&
	printf 'slow_waits_256K_virtio\toff\t1\tlight_data_intact\t1\tbool\n' >>summary.tsv"
smoke judge_passes_stream_reported_apart 0 "printf '1\tstream\t4M\toff\tusb\n' >>runs.tsv &&
	printf 'stream_4M\toff\t1\trate_kbps\t4090\tkB/s\nstream_4M\toff\t1\tstreaming_data_intact\t1\tbool\n' >>summary.tsv"
smoke judge_fails_stream_without_its_rate 1 "printf '1\tstream\t4M\toff\tusb\n' >>runs.tsv &&
	printf 'stream_4M\toff\t1\tstreaming_data_intact\t1\tbool\n' >>summary.tsv"
smoke judge_fails_an_arg_with_the_plain_runs_figures 1 "printf '1\tcopy_sync\t256\ton\tusb\n' >>runs.tsv &&
	printf 'copy_sync\ton\t1\tcopy_data_intact\t1\tbool\n' >>summary.tsv"
smoke judge_fails_no_runs 1 ": >runs.tsv"
smoke judge_fails_no_summary 1 "rm summary.tsv"

# --- the bench's modes: budget@MS and on@MS set that budget and tell the
# scenario; a bad MS or mode is refused and sets nothing. The modes are
# guest/bench/run's own, read from the file (from LIGHT_PCT= to "# end of
# the modes") and run in dash, the sysctl and sysfs writes recorded, and
# what a child process of the bench sees as its budget.
sed -n '/^LIGHT_PCT=/,/^# end of the modes/p' "$TOP/guest/bench/run" >"$tmp/set_mode.sh"
grep -q '^set_mode()' "$tmp/set_mode.sh" && grep -q '^mode_ms()' "$tmp/set_mode.sh"
expect bench_mode.set_mode_found 0 $? "mode_ms and set_mode read from guest/bench/run"
mode() { # NAME WANT_RC MODE WANT_WRITES: the writes and the child's PDDT_BUDGET_MS
	got=$(dash -c '
		say() { echo "pddt: $*"; }
		sysctl_set() { printf "%s=%s " "$1" "$2"; }
		knob_set() { printf "knob%s=%s " "$1" "$2"; }
		bdi_of() { :; }
		PDDT_DISKS=slow
		. "$1"
		set_mode "$2" && sh -c "echo ms=\$PDDT_BUDGET_MS"' - "$tmp/set_mode.sh" "$3" 2>"$tmp/mode.err")
	rc=$?
	if [ "$rc" = "$2" ] && [ "$got" = "$4" ]; then
		res "bench_mode.$1" PASS "$3: ${got:-$(head -n 1 "$tmp/mode.err")}"
	else
		res "bench_mode.$1" FAIL "$3: exit $rc, '$got', wanted exit $2, '$4'"
	fi
}
k="knob/strict_limit=0 "
mode on_sets_the_default_budget 0 on "${k}dirty_light_percent=50 dirty_device_time_ms=3000 ms=3000"
mode budget_at_ms_sets_that_budget 0 budget@1000 "${k}dirty_light_percent=0 dirty_device_time_ms=1000 ms=1000"
mode on_at_ms_sets_that_budget 0 on@60000 "${k}dirty_light_percent=50 dirty_device_time_ms=60000 ms=60000"
mode off_tells_the_default_budget 0 off "${k}dirty_light_percent=0 dirty_device_time_ms=0 ms=3000"
mode strict_sets_the_slow_disks_knob 0 strict "${k}${k}dirty_light_percent=0 dirty_device_time_ms=0 knob/strict_limit=1 ms=3000"
mode refuses_a_budget_of_0 1 on@0 ""
mode refuses_a_leading_0 1 on@0100 ""
mode refuses_a_budget_over_60000 1 budget@60001 ""
mode refuses_no_budget 1 budget@ ""
mode refuses_a_budget_not_a_number 1 on@3s ""
mode refuses_off_at_ms 1 off@1000 ""
mode refuses_an_unknown_mode 1 fast ""

# --- the series: a hunk that does not apply stops with the patch's name
mkdir -p "$tmp/patches"
printf '# one bad patch\n0001-bad.patch\n' >"$tmp/patches/series"
cat >"$tmp/patches/0001-bad.patch" <<'EOF2'
--- a/Makefile
+++ b/Makefile
@@ -1,3 +1,3 @@
 # SPDX-License-Identifier: GPL-2.0
-VERSION = 5
+VERSION = 7
 PATCHLEVEL = 12
EOF2
PATCH_DIR=$tmp/patches SRC_DIR=$tmp/src "$S/tree.sh" >"$tmp/tree" 2>&1
rc=$?
msg=$(grep '^error:' "$tmp/tree")
case $msg in *0001-bad.patch*linux-source-6.12*) ;; *) rc="$rc (message lacks patch or version)" ;; esac
[ -e "$tmp/src" ] && rc="$rc (a tree was left)"
expect tree.failing_hunk_names_patch 1 "$rc" "$msg"
rm -rf "$tmp/src.tmp"

# --- the kernel build: progress on stderr while make runs, the bzImage
# path last on stdout; a bad PROGRESS_S stops it before make runs (a fake
# make and ccache stand in for the real ones)
mkdir -p "$tmp/kb/bin" "$tmp/kb/build/obj/patched-base"
: >"$tmp/kb/build/obj/patched-base/.config"
printf '#!/bin/sh\necho made >"%s"\nfor i in 1 2 3; do echo "  CC      f$i.o"; sleep 1; done\n' \
	"$tmp/kb/made" >"$tmp/kb/bin/make"
printf '#!/bin/sh\nexit 0\n' >"$tmp/kb/bin/ccache"
chmod +x "$tmp/kb/bin/make" "$tmp/kb/bin/ccache"
kb() { PATH=$tmp/kb/bin:$PATH BUILD=$tmp/kb/build PATCHES=series CONFIG=base "$@" \
	"$S/build.sh" >"$tmp/kb/out" 2>"$tmp/kb/err"; }
kb env PROGRESS_S=1
rc=$?
grep -q '^pddt: kernel build: [0-9]* s, [1-3] objects compiled (log: ' "$tmp/kb/err" || rc="$rc (no progress line)"
[ "$(tail -n 1 "$tmp/kb/out")" = "$tmp/kb/build/obj/patched-base/arch/x86/boot/bzImage" ] ||
	rc="$rc (last line not the bzImage)"
expect build.shows_progress 0 "$rc" "$(grep -c 'objects compiled' "$tmp/kb/err") progress lines"
rm -f "$tmp/kb/made"
kb env PROGRESS_S=x
rc=$?
grep -q "^error: PROGRESS_S='x'" "$tmp/kb/err" || rc="$rc (no message)"
[ -e "$tmp/kb/made" ] && rc="$rc (make ran)"
expect build.rejects_bad_progress 1 "$rc" "$(head -n 1 "$tmp/kb/err")"

# --- make deb: a KCONFIG that is no file, or no x86_64 configuration, is
# refused with a message before anything is set up
for c in missing:"$tmp/no-such-config" not_x86_64:"$here/manifest/base/guest/results.tsv"; do
	n=${c%%:*}
	BUILD=$tmp/deb KCONFIG=${c#*:} "$S/deb.sh" >"$tmp/deb.out" 2>&1
	rc=$?
	grep -q "^error: KCONFIG=" "$tmp/deb.out" || rc="$rc (no message)"
	[ -e "$tmp/deb" ] && rc="$rc (it set up $tmp/deb)"
	expect "deb.rejects_kconfig_$n" 1 "$rc" "$(head -n 1 "$tmp/deb.out")"
done

# --- the field kit refuses before it changes anything: a user who is not
# root, and this host's kernel, which lacks the series (were it to have
# it, the check could not run here: a FAIL row says so)
K=$TOP/field/pddt-field
mkdir -p "$tmp/fk/a" "$tmp/fk/b"
fk() { # NAME TEXT CMD...: exit 1 with TEXT, no output directory
	n=$1 t=$2
	shift 2
	"$@" --fast "$tmp/fk/a" --slow "$tmp/fk/b" --out "$tmp/fk/out-$n" >"$tmp/fk/msg" 2>&1
	rc=$?
	grep -q -- "$t" "$tmp/fk/msg" || rc="$rc (no '$t')"
	[ -e "$tmp/fk/out-$n" ] && rc="$rc (output created)"
	expect "fieldkit.$n" 1 "$rc" "$(head -n 1 "$tmp/fk/msg")"
}
if command -v setpriv >/dev/null 2>&1; then
	fk refuses_non_root "must run as root" setpriv --reuid=65534 --regid=65534 --clear-groups "$K"
else
	expect fieldkit.refuses_non_root 0 1 "no setpriv (util-linux) to run it as another user"
fi
if [ -e /proc/sys/vm/dirty_device_time_ms ]; then
	expect fieldkit.refuses_a_kernel_without_the_series 0 1 "this host's kernel has the series: not checked here"
else
	fk refuses_a_kernel_without_the_series "lacks the per-device dirty throttling series" "$K"
fi
"$K" --fast "$tmp/fk/a" >"$tmp/fk/msg" 2>&1
rc=$?
grep -q "^usage: pddt-field" "$tmp/fk/msg" || rc="$rc (no usage)"
expect fieldkit.usage_on_bad_arguments 2 "$rc" "$(tail -n 1 "$tmp/fk/msg")"

# --- disk specifications
for spec in "fast:100M slow:4M" "a:0" "a:1G:64M:raw" "a_1:512K:3G:ext4"; do
	# shellcheck disable=SC2086
	"$S/disks.sh" check $spec >/dev/null 2>&1
	expect "disks.accepts.$(echo "$spec" | tr ' :' '_-')" 0 $? "'$spec'"
done
for spec in "" "fast" "Fast:1M" "a:1X" "a:-1" "a:1MM" "a:1M:1M" "a:1M:2G:xfs" \
	"a:1M:2G:ext4:x" "results:1M" "a:1M a:2M" "a:99999999999999999999"; do
	# shellcheck disable=SC2086
	msg=$("$S/disks.sh" check $spec 2>&1 >/dev/null)
	rc=$?
	case $msg in error:*) ;; *) rc="$rc (no error message)" ;; esac
	expect "disks.rejects.$(echo "${spec:-empty}" | tr ' :' '_-')" 1 "$rc" "'$spec': $msg"
done

# --- guest requests to the host: bad ones are refused with a message, and
# every console line is passed on
printf 'pddt: a\npddt-qmp: throttle nosuch 5\npddt-qmp: throttle slow 5x\npddt-qmp: throttle slow 1 2\npddt-qmp: throttle slow 9999999999999\npddt-qmp: frob\nRESULT b\n' |
	"$S/qmp.sh" relay "$tmp/no.sock" "$tmp/ack" fast slow >"$tmp/qmp" 2>&1
n=$(grep -c '^  | pddt: host: .*\(not a disk\|not a number\|too large\|unknown request\)' "$tmp/qmp")
m=$(grep -c '^  | \(pddt: a\|RESULT b\|pddt-qmp: \)' "$tmp/qmp")
[ "$n" = 5 ] && [ "$m" = 7 ]
expect qmp.rejects_bad_requests 0 $? "$n of 5 bad requests refused, $m of 7 lines passed on"
# each throttle request is answered to the guest, refusals included
a=$(grep -c '^pddt-ack: throttle \(nosuch 5: not a disk\|slow 5x: .*not a number\|slow 1 2: .*not a number\|slow 9999999999999: .*too large\)' "$tmp/ack")
[ "$a" = 4 ] && [ "$(wc -l <"$tmp/ack")" = 4 ]
expect qmp.answers_each_request 0 $? "$a of 4 requests answered, $(wc -l <"$tmp/ack") answers"
printf 'pddt-qmp: throttle slow 1000\n' | "$S/qmp.sh" relay "$tmp/no.sock" "$tmp/ack2" slow >"$tmp/qmp" 2>&1
grep -q 'host: throttle slow 1000: .*Error' "$tmp/qmp" && grep -q '^pddt-ack: throttle slow 1000: .*Error' "$tmp/ack2"
expect qmp.no_socket_is_reported 0 $? "$(tail -n 1 "$tmp/qmp"); answered: $(tail -n 1 "$tmp/ack2")"

# --- fio job files (make bench FIO=): bad ones refused, fio's JSON read
"$S/fio.sh" check "$here/fio/good.fio" >"$tmp/fio" 2>&1
expect fio.accepts_a_job 0 $? "$(head -n 1 "$tmp/fio")"
for j in bad.fio no-such.fio; do
	msg=$("$S/fio.sh" check "$here/fio/$j" 2>&1)
	rc=$?
	case $msg in error:*"$j"*) ;; *) rc="$rc (message lacks the file)" ;; esac
	expect "fio.rejects.$j" 1 "$rc" "$msg"
done
mkdir -p "$tmp/fio-run"
# as fio writes it when the kernel lacks fadvise: a warning before the JSON
{ echo 'fio: cache invalidation of f.0.0 failed: Function not implemented'
	cat "$here/fio/fio-on-1.json"; } >"$tmp/fio-run/fio-on-1.json"
"$S/fio.sh" summary "$tmp/fio-run" >/dev/null 2>&1
rc=$?
n=$(awk -F'\t' '$1 == "fio" && $2 == "on" && $3 == 1 && ($4 ~ /^(stream|burst)_write_(bw|clat_p50|clat_p99|clat_max)$/) && $5 > 0' "$tmp/fio-run/summary.tsv" 2>/dev/null | wc -l)
[ "$rc" = 0 ] && [ "$n" = 8 ]
expect fio.summary_reads_json 0 $? "exit $rc, $n of 8 rows (2 jobs x bw, p50, p99, max)"
# the kernel unpacks an initramfs in order and makes no parent directories
BUILD=$tmp/fio-build "$S/fio.sh" initramfs "$here/fio/good.fio" "$tmp/fio.cpio" >/dev/null 2>&1
bad=$(awk '{ p = $2; sub("/[^/]*$", "", p) } p != "" && !(p in made) { print $2 }
	$1 == "dir" { made[$2] = 1 }' "$tmp/fio.cpio.list" 2>/dev/null | head -n 3)
[ -s "$tmp/fio.cpio.list" ] && [ -z "$bad" ] && grep -q '^file /usr/bin/fio ' "$tmp/fio.cpio.list"
expect fio.initramfs_parents_first 0 $? "$(grep -c '^file' "$tmp/fio.cpio.list" 2>/dev/null) files; before their directory: ${bad:-none}"
echo '{ not json' >"$tmp/fio-run/fio-off-1.json"
"$S/fio.sh" summary "$tmp/fio-run" >/dev/null 2>&1
expect fio.summary_rejects_bad_json 1 $? "a broken fio-off-1.json"

# --- the front door: bad targets and values fail before doing any work
mk() { make -s -C "$TOP" "$@" >"$tmp/mk" 2>&1; }
mk no-such-target
rc=$?
grep -q 'make test' "$tmp/mk" || rc="$rc (no usage)"
expect make.unknown_target 2 "$rc" "usage printed"
for v in "bench QUICK=2" "bench FULL=yes" "bench QUICK=1 FULL=1" "bench FIO=job.fio" PATCHES=bogus CONFIG=nope "CONFIG=../x" \
	TIMEOUT=abc SMP=99 MEM=12 "DISKS=bad"; do
	case $v in bench*) t=bench; v=${v#bench } ;; *) t=test ;; esac
	# one word per variable: "QUICK=1 FULL=1" is two
	# shellcheck disable=SC2086
	mk "$t" $v
	rc=$?
	grep -q 'error:' "$tmp/mk" || rc="$rc (no message)"
	expect "make.$t.rejects.$(echo "$v" | tr -c 'A-Za-z0-9_\n' '_')" 2 "$rc" "$(head -n 1 "$tmp/mk")"
done

# make run CMD='...': the guest gets the text as written, $x and $(x) too
want='for m in a b; do echo "$m" $(date) $$; done'
got=$(make -s -C "$TOP" CMD="$want" --eval 'pddt-cmd: ; @printf "%s\n" "$$CMD"' pddt-cmd 2>&1)
[ "$got" = "$want" ]
expect make.cmd_kept_as_written 0 $? "got: $got"

awk -F'\t' '{ s[$2]++ } END { printf "harness self-tests: %d passed, %d failed\n", s["PASS"], s["FAIL"]; exit s["FAIL"] > 0 }' "$out"
