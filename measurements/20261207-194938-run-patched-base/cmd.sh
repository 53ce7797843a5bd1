make run TIMEOUT=1800 CMD='PDDT_PLAN="slow_waits 256K usb on@1000 on@3000" PDDT_REPS=4 PDDT_VERIFY=1 /bench/run && /bench/judge /results/bench'
