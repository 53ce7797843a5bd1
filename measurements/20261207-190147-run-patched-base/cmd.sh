make run TIMEOUT=3600 CMD='PDDT_PLAN="slow_waits 256K usb on@1000 on@3000 on@5000
slow_waits 1M usb on@1000 on@3000 on@5000
slow_waits 4M usb on@1000 on@3000 on@5000
stream 256K usb off budget@1000 budget@3000 budget@5000
stream 4M usb off budget@1000 budget@3000 budget@5000" PDDT_REPS=3 PDDT_VERIFY=1 /bench/run && /bench/judge /results/bench'
