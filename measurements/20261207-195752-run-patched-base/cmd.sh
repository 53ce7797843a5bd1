make run TIMEOUT=3600 CMD='PDDT_PLAN="inter_device - usb off on@1000 on@3000 on@5000
inter_process - usb off on@1000 on@3000 on@5000
copy_sync - usb off on@1000 on@3000 on@5000" PDDT_REPS=3 PDDT_VERIFY=1 /bench/run && /bench/judge /results/bench'
