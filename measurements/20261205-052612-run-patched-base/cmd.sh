T=/sys/kernel/tracing
echo 16384 > $T/buffer_size_kb
echo 1 > $T/events/writeback/bdi_dirty_ratelimit/enable
for i in 1 2 3; do
  mkdir -p /results/r$i
  ( while :; do for p in /proc/[0-9]*; do s=$(cat $p/stat 2>/dev/null); case "$s" in *") D "*) echo "== $(cat /proc/uptime) $s"; cat $p/stack;; esac; done; sleep 1; done ) > /results/r$i/stacks.txt 2>&1 &
  sp=$!
  PDDT_SCENARIOS=bandwidth /tests/device_limit
  kill $sp
  cp /results/device_limit-bandwidth-*.csv /results/r$i/
  cp $T/trace /results/r$i/trace.txt
  echo > $T/trace
done
