make run TIMEOUT=3600 CMD='PDDT_PLAN="slow_waits 256K usb on off
slow_waits 256K virtio off on" PDDT_REPS=2 PDDT_VERIFY=1 /bench/run'
