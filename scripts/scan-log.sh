#!/bin/sh
# Scan a serial log for kernel splats: panic, Oops, BUG, WARNING, lockdep,
# KASAN/UBSAN, hung task, soft/hard lockup, RCU stall. Memory leaks are not
# judged here: kmemleak's one-line notice says neither what leaked nor
# whether it is a known leak of stock 6.12; the guest's kmemleak.* results
# read the whole report (guest/lib/pddt.c) and fail on any other leak.
# Only kernel lines count (they carry the "[ seconds.micro]" stamp of
# PRINTK_TIME), so nothing a test prints can fake or hide one.
# Usage: scan-log.sh LOG    exit 0 if clean, 1 with excerpts if not.
. "$(dirname "$0")/lib.sh"

log=$1
[ -f "$log" ] || die "usage: scan-log.sh LOG (no file '$log')"

stamp='\[ *[0-9]+\.[0-9]+\] '
splat="Kernel panic - not syncing|\
kernel BUG at|BUG: |Oops: |Oops - |general protection fault|Unable to handle kernel|\
WARNING: |------------\[ cut here \]------------|\
possible circular locking|possible recursive locking|inconsistent lock state|\
DEBUG_LOCKS_WARN_ON|suspicious RCU usage|\
KASAN: |UBSAN: |\
INFO: task .* blocked for more than|blocked for more than [0-9]+ seconds|\
soft lockup|hard LOCKUP|rcu_.*detected stall|rcu: INFO: "

hits=$(grep -nE "$stamp.*($splat)" "$log" | cut -d: -f1)
[ -z "$hits" ] && exit 0

echo "kernel splats in $log: $(echo "$hits" | wc -l) lines" >&2
last=0
shown=0
for n in $hits; do
	[ "$n" -le "$last" ] && continue
	shown=$((shown + 1))
	[ "$shown" -le 3 ] || break
	last=$((n + 25))
	echo "--- excerpt at line $n:" >&2
	sed -n "${n},${last}p" "$log" >&2
done
exit 1
