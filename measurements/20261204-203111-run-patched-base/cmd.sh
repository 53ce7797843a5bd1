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
      for p in $hp; do echo "-- $p $(cut -d' ' -f3 /proc/$p/stat) $(cat /proc/$p/wchan)"; cat /proc/$p/stack | head -10; done
      for j in $(ls /proc | grep '^[0-9]*$'); do c=$(cat /proc/$j/comm 2>/dev/null); case $c in jbd2*|kworker*) s=$(cut -d' ' -f3 /proc/$j/stat 2>/dev/null); [ "$s" = D ] && { echo "-- $j $c D"; cat /proc/$j/stack | head -14; } ;; esac; done
    fi
    sleep 0.7
  done
}
for mode in on off on; do
if [ $mode = on ]; then echo 2 > /proc/sys/vm/dirty_task_scale; echo 1000 > /proc/sys/vm/dirty_device_limit_ms
else echo 0 > /proc/sys/vm/dirty_task_scale; echo 0 > /proc/sys/vm/dirty_device_limit_ms; fi
/bench/heavy $mode 1 4 & sleep 0.3; mon; wait; sync
done
