#!/bin/sh
# bench_smoke - the short functional version of every bench scenario: the
# bench's quick plan (PDDT_QUICK=1: each scenario off and on, or on only,
# one repetition), with PDDT_VERIFY=1: each scenario reads back the files
# its streaming writers wrote, after sync and drop_caches. /bench/judge
# says per run (scenario and mode) whether it exited 0, reported figures,
# read every file and object back intact and saw every writer it checks
# make progress. Nothing is timed: the figures are the bench's. A splat
# fails the boot on the host. Skipped on a kernel without the series: its
# modes are the series' sysctls.
if [ ! -e /proc/sys/vm/dirty_device_time_ms ] || [ ! -e /proc/sys/vm/dirty_light_percent ]; then
	/bin/pddt-result bench_smoke SKIP "no /proc/sys/vm/dirty_device_time_ms or dirty_light_percent: kernel without the series"
	exit 0
fi
B=/results/bench-smoke
rm -rf "$B"
PDDT_BENCH=$B PDDT_QUICK=1 PDDT_VERIFY=1 /bench/run
# the sysctls and queues it sets are put back by /init before the next
# test; the brd mount is the bench's own
umount /mnt/ram 2>/dev/null

/bench/judge "$B" >"$B/judged.tsv"
rc=$?
while IFS='	' read -r name status detail; do
	/bin/pddt-result "$name" "$status" "$detail"
done <"$B/judged.tsv"
exit "$rc"
