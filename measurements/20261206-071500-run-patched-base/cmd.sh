set -u
pddt-state profile virtio
echo 0 > /proc/sys/vm/dirty_task_scale; echo 0 > /proc/sys/vm/dirty_device_limit_ms
echo $((64<<20)) > /proc/sys/vm/dirty_bytes; echo $((32<<20)) > /proc/sys/vm/dirty_background_bytes
q=$(pddt-state queue slow); st=$q/../stat; b=$(pddt-state bdi slow); dbg=/sys/kernel/debug/bdi/$(basename $b)/stats
echo "pddt: stat=$st dbg=$dbg"
snap() { set -- $(cat $st); sec=$7; inflight=$9; w=$(awk '/BdiWritten/ {print $2}' $dbg); wb=$(awk '/BdiWriteback/ {print $2}' $dbg); t=$(cut -d' ' -f1 /proc/uptime); }
dd if=/dev/zero of=/mnt/slow/x bs=64k count=20000 2>/dev/null &
p1=$!
sleep 10
dd if=/dev/zero of=/mnt/fast/x bs=1M count=100000 2>/dev/null &
p2=$!
sleep 3
for i in 1 2 3 4; do
snap; s0=$sec w0=$w t0=$t
sleep 20
snap
echo "pddt: window $i: secs $(echo "$t $t0" | awk '{print $1-$2}') sectors_MiBps $(echo "$sec $s0 $t $t0" | awk '{printf "%.3f", ($1-$2)*512/1048576/($3-$4)}') bdiwritten_MiBps $(echo "$w $w0 $t $t0" | awk '{printf "%.3f", ($1-$2)/1024/($3-$4)}') inflight $inflight writeback_kB $wb"
done
kill $p1 $p2; wait
date
