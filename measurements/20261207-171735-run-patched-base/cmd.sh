make run TIMEOUT=900 CMD='PDDT_PLAN="slow_waits 256K usb on" PDDT_REPS=1 PDDT_VERIFY=1 /bench/run && /bench/judge /results/bench'
