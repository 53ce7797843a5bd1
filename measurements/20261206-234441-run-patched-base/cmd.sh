make run TIMEOUT=3000 CMD='PDDT_PLAN="inter_process - usb off on
slow_waits 256K virtio off on
slow_waits 4M virtio on off" PDDT_REPS=1 PDDT_VERIFY=1 /bench/run'
