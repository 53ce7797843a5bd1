for d in slow slow2; do q=/sys/block/$(readlink -f /dev/pddt/$d | sed 's,.*/,,')/queue; echo 4 > $q/nr_requests; echo 120 > $q/max_sectors_kb; done
echo $((64<<20)) > /proc/sys/vm/dirty_bytes
echo $((32<<20)) > /proc/sys/vm/dirty_background_bytes
export PDDT_BENCH=/tmp/b
for rep in 1 2; do
for ms in 1000 3000 0; do
echo 2 > /proc/sys/vm/dirty_task_scale; echo $ms > /proc/sys/vm/dirty_device_limit_ms
/bench/inter_process ms$ms $rep; sync
/bench/inter_device ms$ms $rep; sync
done; done
grep -E "saver_p50_vs|ticker_p50_vs|saver_beside_stream_p50|streaming_rate|fast_beside_vs|slow_longest|slow_dirty_p50|slow_limit_p50|slow_rate_vs" /tmp/b/summary.tsv | sed 's/^/RES /'
