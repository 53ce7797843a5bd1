make run DISKS='fast:100M slow:1M' TIMEOUT=300 CMD='echo 3000 >/proc/sys/vm/dirty_device_time_ms && echo 0 >/proc/sys/vm/dirty_light_percent || exit 1
[ usb = usb ] || pddt-state profile usb || exit 1
dd if=/dev/zero of=/mnt/slow/x bs=1M count=60 2>/dev/null &
pddt-wbtrace /mnt/slow 30; r=$?
kill $!; wait; rm -f /mnt/slow/x; exit $r'
