make run CMD='PDDT_PLAN="inter_process t8 usb off on" PDDT_REPS=3 /bench/run'
