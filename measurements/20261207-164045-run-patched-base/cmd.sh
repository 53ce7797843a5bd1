make run TIMEOUT=3600 CMD='PDDT_PLAN="stream 256K usb off budget on
stream 1M usb off budget on
stream 4M usb off budget on
stream 256K virtio off budget on
stream 1M virtio off budget on
stream 4M virtio off budget on" PDDT_REPS=3 /bench/run'
