make run TIMEOUT=3600 CMD='PDDT_PLAN="slow_waits 4M usb on off
slow_waits 1M usb off on
slow_waits 4M virtio off on
slow_waits 1M virtio off on" PDDT_REPS=3 PDDT_VERIFY=1 /bench/run'
