# the guest command (CMD) of: make run DISKS='fast:100M slow:256K' TIMEOUT=900 CMD="$(cat probe.sh)"
# samples.txt: S uptime sectors_written in_flight WbWriteback WbReclaimable WbWriteBandwidth WbLimitBandwidth BdiWritten (kB, kB/s)
# d=$(basename $(readlink -f /dev/pddt/slow)); mm=$(cat /sys/block/$d/dev)
# echo "probe dev $d $mm $(cat /sys/block/$d/queue/nr_requests) $(cat /sys/block/$d/queue/max_sectors_kb)"
# echo 33554432 > /proc/sys/vm/dirty_bytes; echo 16777216 > /proc/sys/vm/dirty_background_bytes
# echo 3000 > /proc/sys/vm/dirty_device_time_ms
# dd if=/dev/zero of=/mnt/slow/f bs=1M count=40 2>/dev/null &
# i=0
# while [ $i -lt 700 ]; do
#  read up _ < /proc/uptime; set -- $(cat /sys/block/$d/stat)
#  echo "S $up $7 $9 $(awk '/WbLimitBandwidth|WbWriteBandwidth|WbWriteback:|WbReclaimable/ {printf "%s ", $2}' /sys/kernel/debug/bdi/$mm/wb_stats | head -c 80) $(awk '/BdiWritten/ {print $2}' /sys/kernel/debug/bdi/$mm/stats)"
#  usleep 100000; i=$((i+1))
# done
# kill %1
