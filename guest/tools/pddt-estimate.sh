#!/bin/sh
# pddt-estimate [DISK [MS]]: how the bandwidth estimate a time budget is
# built on (WbLimitBandwidth, the root wb's) follows what the block device
# writes. DISK is a disk of the boot (/dev/pddt/DISK, default slow), MS the
# budget set for the run (vm.dirty_device_time_ms, default 3000).
#   stream: one dd of 40 MiB to the disk, 450 samples 0.1 s apart (and
#           the sampling's own time: about 60 s under TCG); the estimate
#           against the disk's rate from 10 s on, and its first figure (the
#           boot's first budget: the wb not yet measured) and when;
#   bursts: three times, 4 MiB written and fsync()ed, then 15 s idle; the
#           estimate against the disk's rate while it wrote the burst, and
#           the estimate the idle left (150 samples);
#   reopen: the budget off (0) while a dd of 40 MiB starts, on again 5 s
#           later with pages in flight (300 samples); the estimate against
#           the disk's rate from 10 s after that on.
# The disk's rate counts every sector it wrote, journal and metadata
# included, which the estimate does not. Samples to pddt-estimate.tsv
# beside the boot's results (phase, uptime, sectors written,
# WbLimitBandwidth KiB/s, WbWriteBandwidth KiB/s). The sysctl is set back
# on exit. By hand:
#   make run DISKS='fast:100M slow:256K' CMD='pddt-estimate slow 3000'
name=${1:-slow}
ms=${2:-3000}
dev=/dev/pddt/$name
sysctl=/proc/sys/vm/dirty_device_time_ms
die() { echo "pddt-estimate: ERROR: $*" >&2; exit 1; }
case $name in '' | *[!A-Za-z0-9_-]*) die "DISK is a disk's name (slow, fast, ...), not '$name'" ;; esac
[ -b "$dev" ] || die "no disk $name ($dev)"
case $ms in '' | *[!0-9]* | 0*) die "MS is milliseconds, 1..60000, not '$ms'" ;; esac
[ "$ms" -le 60000 ] || die "MS is milliseconds, 1..60000, not $ms"
mnt=/mnt/$name
grep -q " $mnt ext4 " /proc/mounts || die "$mnt is not a mounted ext4 filesystem"
blk=$(basename "$(readlink -f "$dev")")
mm=$(cat "/sys/block/$blk/dev")
wbs=/sys/kernel/debug/bdi/$mm/wb_stats
[ -r "$wbs" ] || die "no $wbs (debugfs not mounted?)"
[ -w "$sysctl" ] || die "no $sysctl (a kernel without the series?)"
light=/proc/sys/vm/dirty_light_percent
# light dirtiers measure the estimate too: the budget off would not stop it
[ ! -e "$light" ] || [ "$(cat "$light")" -eq 0 ] || die "vm.dirty_light_percent is not 0"
old=$(cat "$sysctl")
out=$(dirname "${PDDT_RESULTS:-/tmp/.}")/pddt-estimate.tsv
cleanup() {
	[ -n "${dd:-}" ] && kill "$dd" 2>/dev/null
	rm -f "$mnt"/pddt-estimate*
	echo "$old" >"$sysctl" || echo "pddt-estimate: ERROR: $sysctl not restored to $old" >&2
}
set_ms() {
	echo "$1" >"$sysctl" 2>/dev/null && [ "$(cat "$sysctl")" -eq "$1" ] ||
		die "vm.dirty_device_time_ms $1 not taken"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
set_ms "$ms"
: >"$out"

# one sample: phase, uptime, sectors written, the root wb's two estimates
sample() {
	read -r up _ </proc/uptime
	# shellcheck disable=SC2046 # the fields of the disk's stat
	set -- $(cat "/sys/block/$blk/stat")
	printf '%s\t%s\t%s\t%s\n' "$ph" "$up" "$7" \
		"$(awk '/^WbLimitBandwidth:/ { l = $2 } /^WbWriteBandwidth:/ { w = $2 }
			/^$/ { exit } END { printf "%d\t%d", l, w }' "$wbs")" >>"$out"
}
samples() {	# N samples every 100 ms
	i=0
	while [ "$i" -lt "$1" ]; do sample; usleep 100000; i=$((i + 1)); done
}

ph=stream
dd if=/dev/zero of="$mnt/pddt-estimate" bs=1M count=40 2>/dev/null &
dd=$!
samples 450
kill "$dd" 2>/dev/null
wait "$dd"
dd=
sync
for b in 1 2 3; do
	ph=burst$b
	dd if=/dev/zero of="$mnt/pddt-estimate-$b" bs=1M count=4 conv=fsync 2>/dev/null &
	dd=$!
	samples 160
	wait "$dd" || die "the burst's dd failed"
	dd=
	ph=idle$b
	samples 150
done
ph=off
set_ms 0
dd if=/dev/zero of="$mnt/pddt-estimate-reopen" bs=1M count=40 2>/dev/null &
dd=$!
samples 50
set_ms "$ms"
ph=reopen
samples 300
kill "$dd" 2>/dev/null
wait "$dd"
dd=

awk -F'\t' '
function ratio(ph, i0, i1, rate,    i, x, n) {
	n = 0
	if (rate <= 0) return "the disk wrote nothing"
	for (i = i0; i <= i1; i++) if (L[ph, i] > 0) { x = L[ph, i] / rate; R[++n] = x }
	if (!n) return "no estimate"
	sort(R, n)
	return sprintf("min %.2f p50 %.2f max %.2f (%d samples)", R[1], R[int((n + 1) / 2)], R[n], n)
}
# the rate the disk wrote in phase ph from 10 s on, its first sample into
# R0 and the seconds it spans into SPAN; 0 with too few samples
function rate10(ph,    i, k) {
	k = n[ph]; R0 = 0; SPAN = 0
	for (i = 1; i <= k; i++) if (T[ph, i] >= T[ph, 1] + 10) { R0 = i; break }
	if (!R0 || R0 >= k) return 0
	SPAN = T[ph, k] - T[ph, R0]
	return (D[ph, k] - D[ph, R0]) / SPAN
}
function sort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
}
{ n[$1]++; T[$1, n[$1]] = $2; D[$1, n[$1]] = $3 / 2; L[$1, n[$1]] = $4; W[$1, n[$1]] = $5 }
END {
	p = "stream"; k = n[p]; r = rate10(p)
	printf "pddt-estimate: stream: the disk wrote %.0f KiB/s over %.1f s; WbLimitBandwidth / that: %s; WbWriteBandwidth at the end %d KiB/s\n",
		r, (r > 0 ? SPAN : 0), ratio(p, R0, k, r), W[p, k]
	for (i = 1; i <= k && L[p, i] <= 0; i++) ;
	if (i > k) printf "pddt-estimate: stream: never measured\n"
	else if (i == 1) printf "pddt-estimate: stream: measured before the dd started\n"
	else if (r <= 0) printf "pddt-estimate: stream: the disk wrote nothing from 10 s on\n"
	else printf "pddt-estimate: stream: first measured %.1f s after the dd started, %d KiB/s: %.2f of the stream'"'"'s rate\n",
		T[p, i] - T[p, 1], L[p, i], L[p, i] / r
	p = "reopen"; k = n[p]; r = rate10(p)
	printf "pddt-estimate: reopen: the disk wrote %.0f KiB/s over %.1f s; WbLimitBandwidth / that: %s\n",
		r, (r > 0 ? SPAN : 0), (r > 0 ? ratio(p, R0, k, r) : "too few samples or nothing written")
	for (b = 1; b <= 3; b++) {
		p = "burst" b; k = n[p]; f = 0; l = 0
		for (i = 2; i <= k; i++) if (D[p, i] > D[p, i - 1]) { if (!f) f = i - 1; l = i }
		r = (l > f) ? (D[p, l] - D[p, f]) / (T[p, l] - T[p, f]) : 0
		printf "pddt-estimate: burst %d: the disk wrote %.0f KiB/s over %.1f s; WbLimitBandwidth / that: %s; after 15 s idle %d KiB/s\n",
			b, r, T[p, l] - T[p, f], ratio(p, f, l, r), L["idle" b, n["idle" b]]
	}
}' "$out"
