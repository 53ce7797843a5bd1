#!/bin/sh
# `make bench [QUICK=1 | FULL=1]`: set up, build the patched kernel and the guest,
# boot it with a fast and a slow disk and a memory-backed one (brd), run
# /bench/run in the guest, then write results/<run>/report.md and its
# plots. results/latest points at the newest run.
. "$(dirname "$0")/lib.sh"
for _v in QUICK FULL; do
	eval "_x=\${$_v:-0}"
	case $_x in 0 | 1) ;; *) die "$_v='$_x': 0 or 1 expected" ;; esac
done
[ "${QUICK:-0}${FULL:-0}" != 11 ] || die "QUICK=1 and FULL=1: one plan at a time"
# The whole bench is one boot: a longer bound than a test run's; the full
# plan's waits on a disk of 256 KiB/s (slow_waits) take minutes a run.
if [ "${FULL:-0}" = 1 ]; then
	TIMEOUT=${TIMEOUT:-10800}
else
	TIMEOUT=${TIMEOUT:-5400}
fi
export TIMEOUT
check_patches_var
check_config_var
check_run_vars
# FIO=job.fio: before any work, the file must be there (fio parses it later).
if [ -n "${FIO:-}" ]; then
	[ -f "$FIO" ] && [ -r "$FIO" ] || die "FIO='$FIO': no such readable file"
fi

name=bench
[ "${QUICK:-0}" = 1 ] && name=bench-quick
[ "${FULL:-0}" = 1 ] && name=bench-full
out=$TOP/results/$(date +%Y%m%d-%H%M%S)-$name
mkdir -p "$out"
ln -sfn "$out" "$TOP/results/latest"
t0=$(date +%s)
note "results: $out"

step "deps (apt)" "$TOP/scripts/deps.sh" bench || exit 1
step "tree (extract + patch)" "$TOP/scripts/tree.sh" || exit 1
step "config ($CONFIG)" "$TOP/scripts/kconfig.sh" || exit 1
step "kernel build" "$TOP/scripts/build.sh" >"$out/kernel.txt" || { cat "$out/kernel.txt"; exit 1; }
step "initramfs" "$TOP/scripts/initramfs.sh" || exit 1
if [ -n "${FIO:-}" ]; then
	step "fio job $FIO" "$TOP/scripts/fio.sh" initramfs "$FIO" "$BUILD/guest/fio.cpio" || exit 1
	cp "$FIO" "$out/job.fio"
	EXTRA_INITRD=$BUILD/guest/fio.cpio
	export EXTRA_INITRD
fi

export QUICK FULL
# A boot whose clock fell back to jiffies (the guest says so) is booted
# again, at most BOOTS times; its serial log is kept as serial-N.log.
BOOTS=3
boot=1
while :; do
	step "boot and run the bench" "$TOP/scripts/qemu.sh" bench "$out" || {
		echo "bench: the guest run failed (serial log: $out/serial.log)" >&2
		exit 1
	}
	[ -f "$out/guest/bad-clocksource" ] || break
	mv "$out/serial.log" "$out/serial-$boot.log"
	[ "$boot" -lt "$BOOTS" ] || die "clocksource $(cat "$out/guest/bad-clocksource") in $BOOTS boots: no bench"
	note "boot $boot: clocksource $(cat "$out/guest/bad-clocksource"), booting again"
	boot=$((boot + 1))
done
# A splat fails the bench, after the report (which shows it) is written.
splat=0
"$TOP/scripts/scan-log.sh" "$out/serial.log" >"$out/splats.txt" 2>&1 || splat=1
[ -f "$out/guest/bench/summary.tsv" ] || die "the guest wrote no bench/summary.tsv"
cp "$out"/guest/bench/* "$out/"
printf "machine\tQEMU TCG (-cpu max, no KVM), %s vCPUs; disk bandwidth is QEMU's write throttling\n" \
	"${SMP:-2}" >>"$out/conditions.tsv"
"$TOP/scripts/fio.sh" summary "$out" || exit 1

# What the series adds to every task: struct task_struct, from the build.
"$TOP/scripts/struct-size.sh" task_struct kernel/fork.c >"$out/task_struct.tsv" 2>"$out/task_struct.err" ||
	note "task_struct size not measured: $(cat "$out/task_struct.err")"

run_manifest "$out" "$CONFIG"
step "report" "$TOP/scripts/report.sh" "$out" || exit 1
note "bench took $(($(date +%s) - t0)) s; report: $out/report.md"
[ "$splat" = 0 ] || die "kernel splat in the serial log (report.md, $out/splats.txt): the bench fails"
