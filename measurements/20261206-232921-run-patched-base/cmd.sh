make run TIMEOUT=3000 CMD='PDDT_PLAN="slow_waits 256K usb off on
slow_waits 4M usb off on
slow_waits 1M virtio off on
slow_waits 1M usb on off" PDDT_REPS=1 /bench/run'
