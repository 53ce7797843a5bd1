make run TIMEOUT=4800 CMD='PDDT_PLAN="heavy 4 usb off on@1000 on@3000 on@5000
hotpath /mnt/ram usb off on@1000 on@3000 on@5000
inter_device - virtio off on@1000 on@3000 on@5000
stream 256K virtio off budget@1000 budget@3000 budget@5000
stream 4M virtio off budget@1000 budget@3000 budget@5000
stacked - usb on@1000 on@3000 on@5000" PDDT_REPS=3 PDDT_VERIFY=1 /bench/run && /bench/judge /results/bench'
