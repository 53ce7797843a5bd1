#!/bin/sh
# `make test`: set up, check the harness itself, then for each kernel of the
# plan build it and the initramfs, boot it with the test disks, and judge
# the boot: guest results, KUnit, QEMU's exit, the completion marker and a
# splat-free log.
#
# The plan: `make test CONFIG=NAME` tests that one kernel with every
# in-guest test (or those of TESTS=), stress at its full counts. Plain
# `make test`, what CI runs in its 45 minutes, tests the base kernel with
# every test, then the debug kernel (config/debug.config: lockdep, KASAN,
# kmemleak, fault injection, ...) with the bounded subset DEBUG_TESTS (or
# TESTS=); both run stress's short form (a tenth of its counts).
#
# Results: results/<date>-test-<tree>-<plan>/: results.tsv, report.md
# (scripts/test-report.sh), and <config>/ for each kernel.
# Always ends with "N passed, M failed"; exits non-zero on any failure.
given_config=${CONFIG:-}
given_tests=${TESTS:-}
. "$(dirname "$0")/lib.sh"
check_patches_var
[ -z "$given_config" ] || check_config_var
check_run_vars

# The debug kernel's part of plain `make test`: what fits a CI run.
DEBUG_TESTS=${DEBUG_TESTS:-"bdi_counters faults light_dirtier removal stress"}
if [ -n "$given_config" ]; then
	plan=$given_config
else
	plan="base debug"
fi

out=$TOP/results/$(date +%Y%m%d-%H%M%S)-test-$(tree_name)-$(echo "$plan" | tr ' ' '+')
mkdir -p "$out"
ln -sfn "$out" "$TOP/results/latest"
t0=$(date +%s)
note "results: $out"

# Results of the run as a whole, and of the kernel being tested.
res() { printf '%s\t%s\t%s\n' "$2" "$1" "$3" >>"${tsv:-$out/setup.tsv}"; }
pass() { res PASS "$@"; }
fail() { res FAIL "$@"; }
# The summary's last line, "N passed, M failed", is the run's last line.
finish() {
	note "total $(($(date +%s) - t0)) s"
	# what the user gave, not what the last kernel of the plan was run with
	CONFIG=$given_config
	TESTS=$given_tests
	# shellcheck disable=SC2086
	run_manifest "$out" $plan
	"$TOP/scripts/summarize.sh" "$out" >"$out/summary.txt" 2>&1
	rc=$?
	"$TOP/scripts/test-report.sh" "$out" || note "no report.md"
	cat "$out/summary.txt"
	exit "$rc"
}

# test_kernel CONFIG TESTS SHORT: build, boot and judge one kernel, into
# $out/CONFIG/. TESTS selects in-guest tests (empty: all); SHORT=1 runs
# the stress test's short form.
test_kernel() {
	CONFIG=$1 TESTS=$2 SHORT=$3
	export CONFIG TESTS SHORT
	dir=$out/$CONFIG
	tsv=$dir/boot.tsv
	mkdir -p "$dir"
	: >"$tsv"
	# what this boot was asked for: its manifest (scripts/manifest.sh)
	# requires the tests TESTS selects, its "when" conditions read the rest
	printf 'PATCHES=%s\nSMP=%s\nDISKS=%s\nTESTS=%s\n' "$PATCHES" "${SMP:-2}" \
		"${DISKS:-$DEFAULT_DISKS}" "$TESTS" >"$dir/options.txt"
	note "kernel $CONFIG: tests ${TESTS:-all}${SHORT:+ (short stress)}"
	step "config ($CONFIG)" "$TOP/scripts/kconfig.sh" || { fail build.config "kconfig failed"; return; }
	step "kernel build ($CONFIG)" "$TOP/scripts/build.sh" >"$dir/kernel.txt" || {
		cat "$dir/kernel.txt"
		fail build.kernel "see build/logs"
		return
	}
	cat "$dir/kernel.txt"
	step "initramfs" "$TOP/scripts/initramfs.sh" || { fail build.initramfs "guest programs or cpio failed"; return; }

	# A debug kernel runs the same tests several times slower: the full
	# stress test forks at about 100 tasks/s there, against 1,300 on base.
	to=${TIMEOUT:-} tto=${TEST_TIMEOUT:-}
	case $CONFIG in
	debug) : "${to:=5400}" "${tto:=2700}" ;;
	*) : "${to:=1800}" "${tto:=900}" ;;
	esac
	step "boot and run tests ($CONFIG)" env TIMEOUT="$to" TEST_TIMEOUT="$tto" \
		"$TOP/scripts/qemu.sh" test "$dir"
	rc=$?
	case $rc in
	0) pass boot.qemu "QEMU exited 0 and the guest said it was done" ;;
	124) fail boot.qemu "host-side timeout ($to s): hung guest" ;;
	1) fail boot.qemu "QEMU exited 1: guest panic (pvpanic)" ;;
	3) fail boot.qemu "no completion marker in the serial log" ;;
	*) fail boot.qemu "QEMU exited $rc" ;;
	esac
	if [ -f "$dir/serial.log" ]; then
		if step "KUnit (kunit.py parse)" "$TOP/scripts/kunit.sh" "$dir/serial.log" "$dir"; then :; fi
		if step "splat scan" "$TOP/scripts/scan-log.sh" "$dir/serial.log"; then
			pass boot.no_splats "no panic, Oops, BUG, WARNING, lockdep, KASAN, hung task or lockup report"
		else
			fail boot.no_splats "kernel splat in serial.log (excerpt above)"
		fi
	fi
	[ -f "$dir/guest/results.tsv" ] || fail boot.guest_results "the results disk held no results.tsv"
}

step "deps (apt)" "$TOP/scripts/deps.sh" test || { fail setup.deps "apt install failed"; finish; }
step "tree (extract + patch)" "$TOP/scripts/tree.sh" || { fail build.tree "tree or patches failed"; finish; }
step "harness self-tests" "$TOP/tests/harness/run.sh" "$out/harness.tsv"

if [ -n "$given_config" ]; then
	test_kernel "$given_config" "${TESTS:-}" ""
else
	test_kernel base "${TESTS:-}" 1
	test_kernel debug "${TESTS:-$DEBUG_TESTS}" 1
fi
finish
