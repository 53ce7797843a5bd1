#!/bin/sh
# `make test`: set up, check the harness itself, build the kernel and the
# initramfs, boot it with the test disks, and judge the run: guest results,
# KUnit, QEMU's exit, the completion marker and a splat-free log.
# Always ends with "N passed, M failed"; exits non-zero on any failure.
. "$(dirname "$0")/lib.sh"
check_patches_var
check_config_var
check_run_vars

out=$TOP/results/$(date +%Y%m%d-%H%M%S)-test-$(tree_name)-$CONFIG
mkdir -p "$out"
ln -sfn "$out" "$TOP/results/latest"
boot=$out/boot.tsv
: >"$boot"
t0=$(date +%s)
note "results: $out"

fail() { printf '%s\tFAIL\t%s\n' "$1" "$2" >>"$boot"; }
pass() { printf '%s\tPASS\t%s\n' "$1" "$2" >>"$boot"; }
finish() {
	note "total $(($(date +%s) - t0)) s"
	exec "$TOP/scripts/summarize.sh" "$out"
}

step "deps (apt)" "$TOP/scripts/deps.sh" test || { fail setup.deps "apt install failed"; finish; }
step "tree (extract + patch)" "$TOP/scripts/tree.sh" || { fail build.tree "tree or patches failed"; finish; }
step "harness self-tests" "$TOP/tests/harness/run.sh" "$out/harness.tsv"
step "config ($CONFIG)" "$TOP/scripts/kconfig.sh" || { fail build.config "kconfig failed"; finish; }
step "kernel build" "$TOP/scripts/build.sh" >"$out/kernel.txt" || {
	cat "$out/kernel.txt"
	fail build.kernel "see build/logs"
	finish
}
cat "$out/kernel.txt"
step "initramfs" "$TOP/scripts/initramfs.sh" || { fail build.initramfs "guest programs or cpio failed"; finish; }

step "boot and run tests" "$TOP/scripts/qemu.sh" test "$out"
rc=$?
case $rc in
0) pass boot.qemu "QEMU exited 0 and the guest said it was done" ;;
124) fail boot.qemu "host-side timeout (${TIMEOUT:-1800} s): hung guest" ;;
1) fail boot.qemu "QEMU exited 1: guest panic (pvpanic)" ;;
3) fail boot.qemu "no completion marker in the serial log" ;;
*) fail boot.qemu "QEMU exited $rc" ;;
esac
if [ -f "$out/serial.log" ]; then
	if step "KUnit (kunit.py parse)" "$TOP/scripts/kunit.sh" "$out/serial.log" "$out"; then :; fi
	if step "splat scan" "$TOP/scripts/scan-log.sh" "$out/serial.log"; then
		pass boot.no_splats "no panic, Oops, BUG, WARNING, lockdep, KASAN, hung task or lockup report"
	else
		fail boot.no_splats "kernel splat in serial.log (excerpt above)"
	fi
fi
[ -f "$out/guest/results.tsv" ] || fail boot.guest_results "the results disk held no results.tsv"
finish
