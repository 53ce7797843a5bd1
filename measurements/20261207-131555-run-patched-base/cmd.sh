make run TIMEOUT=2400 CMD='PDDT_PLAN="slow_waits 256K usb on off" PDDT_REPS=3 PDDT_VERIFY=1 /bench/run'
