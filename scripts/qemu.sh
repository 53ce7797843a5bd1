#!/bin/sh
# Boot a kernel in QEMU (TCG) with throttled virtio disks and run a job.
# Usage: qemu.sh MODE OUTDIR [COMMAND]
#   MODE test   run the guest's /tests (TESTS= filters them by name glob)
#   MODE cmd    run COMMAND with sh in the guest, then power off
#   MODE shell  an interactive shell on the serial console (no host relay:
#               a guest program that asks the host to throttle a disk
#               waits for its answer, then fails)
#   MODE bench  run the guest's /bench/run (QUICK=1: the short plan, FULL=1: the full one)
# The serial log is OUTDIR/serial.log; the guest's /results is unpacked
# into OUTDIR/guest/. Exit status: QEMU's (1 = guest panic via pvpanic),
# 124 = host-side timeout, 3 = the guest never said it was done.
. "$(dirname "$0")/lib.sh"

mode=$1
out=$2
cmd=${3:-}
case $mode in
test | cmd | shell | bench) ;;
*) die "usage: qemu.sh test|cmd|shell|bench OUTDIR [COMMAND]" ;;
esac
[ -n "$out" ] || die "usage: qemu.sh MODE OUTDIR [COMMAND]"

KERNEL=${KERNEL:-$(bzimage)}
INITRD=${INITRD:-$BUILD/guest/initramfs.cpio}
DISKS=${DISKS:-$DEFAULT_DISKS}
TIMEOUT=${TIMEOUT:-1800}
MEM=${MEM:-1024}
SMP=${SMP:-2}
check_run_vars
[ -f "$KERNEL" ] || die "no kernel $KERNEL: run 'make kernel'"
[ -f "$INITRD" ] || die "no initramfs $INITRD: run scripts/initramfs.sh"

# shellcheck disable=SC2086
disks=$("$TOP/scripts/disks.sh" check $DISKS) || exit 1
mkdir -p "$out"
run=$BUILD/run
rm -rf "$run"
# shellcheck disable=SC2086
"$TOP/scripts/disks.sh" make "$run" $DISKS || exit 1

# The job: a second cpio appended to the base initramfs.
job=$run/job
mkdir -p "$job"
{
	echo "PDDT_MODE=$mode"
	echo "PDDT_DISKS='$(echo "$disks" | awk '{printf "%s%s:%s", (NR > 1 ? " " : ""), $1, $4}')'"
	echo "PDDT_TESTS='${TESTS:-}'"
	echo "PDDT_TEST_TIMEOUT=${TEST_TIMEOUT:-900}"
	echo "PDDT_BPS='$(echo "$disks" | awk '{printf "%s%s:%s", (NR > 1 ? " " : ""), $1, $2}')'"
	echo "PDDT_QUICK=${QUICK:-0}"
	echo "PDDT_FULL=${FULL:-0}"
	echo "PDDT_SHORT=${SHORT:-0}"
} >"$job/env"
printf '%s\n' "$cmd" >"$job/cmd"
printf 'file /etc/pddt/env %s 0644 0 0\nfile /etc/pddt/cmd %s 0644 0 0\n' \
	"$job/env" "$job/cmd" >"$job/list"
"$BUILD/guest/gen_init_cpio" "$job/list" >"$job/job.cpio" || die "job cpio failed"
# EXTRA_INITRD: more cpio archives for this boot (the bench's fio part).
# shellcheck disable=SC2086
cat "$INITRD" ${EXTRA_INITRD:-} "$job/job.cpio" >"$run/initrd.cpio" || die "cannot assemble the initrd"

# The guest's TSC runs at the host's (TCG's rdtsc reads it); its kernel's
# calibration against the PIT fails now and then under TCG and leaves its
# clock on jiffies (4 ms steps). Given the host's measured frequency, the
# guest does not calibrate: tsc_early_khz.
tsc=$BUILD/tsc-khz
if [ ! -x "$tsc" ] || [ "$TOP/scripts/tsc-khz.c" -nt "$tsc" ]; then
	cc -O2 -o "$tsc" "$TOP/scripts/tsc-khz.c" || die "cannot build $tsc"
fi
khz=$("$tsc") || khz=
TSC=${khz:+tsc_early_khz=$khz}

# brd: a 128 MiB RAM disk, /dev/ram0, for the bench's hot path; in every
# boot, as make test runs the bench's scenarios too (bench_smoke).
BRD="brd.rd_nr=1 brd.rd_size=131072"
set -- -cpu max -smp "$SMP" -m "$MEM" -nographic -no-reboot \
	-bios /usr/share/qemu/qboot.rom \
	-kernel "$KERNEL" -initrd "$run/initrd.cpio" \
	-append "console=ttyS0 panic=-1 hung_task_panic=1 softlockup_panic=1 $BRD $TSC ${APPEND:-}" \
	-device pvpanic-pci -action panic=exit-failure \
	-qmp "unix:$run/qmp.sock,server=on,wait=off"
# The second serial port (the guest's ttyS1) carries the host's answers to
# its requests: QEMU reads ack.in; ack.out takes what the guest would send
# there (nothing: pddt_host_throttle() opens it raw, without echo). The
# first is what -nographic makes it with no -serial given and -qmp taking
# the monitor: stdio.
rm -f "$run/ack.in" "$run/ack.out"
mkfifo "$run/ack.in" "$run/ack.out" || die "cannot make the pipes $run/ack.*"
set -- "$@" -serial stdio -serial "pipe:$run/ack"
while read -r name bps size fs; do
	thr=
	[ "$bps" -gt 0 ] && thr=",throttling.bps-write=$bps"
	set -- "$@" -drive "file=$run/$name.img,if=none,id=$name,format=raw,cache=unsafe$thr" \
		-device "virtio-blk-pci,drive=$name,serial=$name"
done <<EOF2
$disks
EOF2
truncate -s 64M "$run/results.img"
set -- "$@" -drive "file=$run/results.img,if=none,id=results,format=raw" \
	-device "virtio-blk-pci,drive=results,serial=results"

log=$out/serial.log
note "boot: $(basename "$KERNEL") ($(du -k "$KERNEL" | cut -f1) KiB), disks: $(echo "$disks" | awk '{printf "%s%s=%s B/s", (NR > 1 ? ", " : ""), $1, $2}'), timeout ${TIMEOUT}s"
if [ "$mode" = shell ]; then
	timeout --foreground --kill-after=10 "$TIMEOUT" qemu-system-x86_64 "$@" 2>&1 | tee "$log"
	rc=0
else
	# Show the harness's own lines as they come; the rest is in the log.
	# scripts/qmp.sh relays the guest's requests to QEMU as it goes.
	names=$(echo "$disks" | cut -d' ' -f1 | tr '\n' ' ')
	# shellcheck disable=SC2086
	{ timeout --kill-after=10 "$TIMEOUT" qemu-system-x86_64 "$@" </dev/null 2>&1; echo "QEMU-EXIT $?"; } | sed -u 's/\r$//' |
		tee "$log" | grep --line-buffered -E '^(pddt:|pddt-qmp:|RESULT |QEMU-EXIT )|Kernel panic' |
		"$TOP/scripts/qmp.sh" relay "$run/qmp.sock" "$run/ack.in" $names
	rc=$(sed -n 's/^QEMU-EXIT //p' "$log" | tail -n 1)
	sed -i '/^QEMU-EXIT /d' "$log"
fi

rm -rf "$out/guest"
mkdir -p "$out/guest"
tar -xf "$run/results.img" -C "$out/guest" 2>/dev/null || true

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "--- guest timed out after ${TIMEOUT}s; last lines of $log:" >&2
	tail -n 30 "$log" >&2
	exit 124
fi
if [ "$rc" != 0 ]; then
	echo "--- QEMU exited $rc (1 = guest panic); last lines of $log:" >&2
	tail -n 30 "$log" >&2
	exit "$rc"
fi
grep -q '^pddt: guest done' "$log" || {
	echo "--- the guest never said it was done; last lines of $log:" >&2
	tail -n 30 "$log" >&2
	exit 3
}
exit 0
