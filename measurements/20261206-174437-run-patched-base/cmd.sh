make run TIMEOUT=1500 DISKS="fast:100M slow:256K fast2:100M slow2:4M" CMD='PDDT_PLAN="inter_process - usb off on" PDDT_REPS=1 /bench/run'
