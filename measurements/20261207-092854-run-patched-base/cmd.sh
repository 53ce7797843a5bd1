make run DISKS='fast:100M slow:256K' TIMEOUT=900 CMD='pddt-estimate slow 3000'
