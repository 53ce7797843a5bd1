make run TIMEOUT=1500 CMD='for i in 1 2 3 4 5 6 7 8; do PDDT_SCENARIOS=memcg /tests/device_limit 2>&1 | grep -E "longest|one_call|FAIL"; done'
