make run CMD='PDDT_PLAN="copy_sync 256 usb off on" PDDT_REPS=3 /bench/run'
