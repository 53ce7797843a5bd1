for n in slow slow2 fast; do d=$(readlink -f /dev/pddt/$n); d=${d##*/}; q=/sys/block/$d/queue; echo "$n $d sched=$(cat $q/scheduler) nr=$(cat $q/nr_requests) maxkb=$(cat $q/max_sectors_kb) hwmax=$(cat $q/max_hw_sectors_kb) rot=$(cat $q/rotational)"; done
for n in slow slow2; do d=$(readlink -f /dev/pddt/$n); q=/sys/block/${d##*/}/queue; echo 4 > $q/nr_requests; echo 256 > $q/max_sectors_kb; done
for n in slow slow2 fast; do d=$(readlink -f /dev/pddt/$n); d=${d##*/}; q=/sys/block/$d/queue; echo "$n $d sched=$(cat $q/scheduler) nr=$(cat $q/nr_requests) maxkb=$(cat $q/max_sectors_kb) hwmax=$(cat $q/max_hw_sectors_kb) rot=$(cat $q/rotational)"; done
echo $((64<<20)) > /proc/sys/vm/dirty_bytes
echo $((32<<20)) > /proc/sys/vm/dirty_background_bytes
export PDDT_BENCH=/tmp/b
mon() {
  t0=$(cut -d' ' -f1 /proc/uptime)
  while :; do
    t=$(awk -v a=$t0 '{printf "%.1f", $1-a}' /proc/uptime)
    hp=$(for j in $(ls /proc | grep '^[0-9]*$'); do [ "$(cat /proc/$j/comm 2>/dev/null)" = heavy ] && echo $j; done)
    [ -z "$hp" ] && break
    if [ "${t%.*}" -ge 6 ]; then
      echo "== t=$t"; grep -E "^(Dirty|Writeback):" /proc/meminfo | tr '\n' ' '; echo
    fi
    sleep 0.7
  done
}
for mode in on off on off on; do
if [ $mode = on ]; then echo 2 > /proc/sys/vm/dirty_task_scale; echo 1000 > /proc/sys/vm/dirty_device_limit_ms
else echo 0 > /proc/sys/vm/dirty_task_scale; echo 0 > /proc/sys/vm/dirty_device_limit_ms; fi
/bench/heavy $mode 1 4 & sleep 0.3; mon; wait; sync
done
