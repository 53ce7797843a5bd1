make run TIMEOUT=1500 CMD='PDDT_PLAN="slow_waits 1M usb off on" PDDT_REPS=1 PDDT_VERIFY=1 /bench/run'
