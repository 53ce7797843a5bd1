T=/sys/kernel/tracing
echo 16384 > $T/buffer_size_kb
echo 1 > $T/events/writeback/bdi_dirty_ratelimit/enable
for i in 1 2 3; do
  PDDT_SCENARIOS=bandwidth /tests/device_limit
  mkdir -p /results/r$i
  cp /results/device_limit-bandwidth-*.csv /results/r$i/
  cp $T/trace /results/r$i/trace.txt
done
