make run DISKS="fast:100M slow:1M fast2:100M slow2:4M" CMD='PDDT_PLAN="copy_sync 16 usb off on" PDDT_REPS=2 /bench/run'
