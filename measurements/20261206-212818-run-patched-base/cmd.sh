make run TIMEOUT=1500 CMD='PDDT_SHORT=1 /tests/stress; PDDT_PLAN="copy_sync umount usb off on" PDDT_REPS=2 PDDT_VERIFY=1 /bench/run'
