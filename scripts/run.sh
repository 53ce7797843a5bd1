#!/bin/sh
# `make run [CMD=...]`: build what is missing, then boot with the disks:
# a shell on the serial console, or one command run in the guest.
# Exit status: the command's in the guest (cmd mode), else QEMU's.
. "$(dirname "$0")/lib.sh"
check_patches_var
check_config_var
check_run_vars
"$TOP/scripts/kernel.sh" >/dev/null || { "$TOP/scripts/kernel.sh"; exit 1; }
"$TOP/scripts/initramfs.sh" >/dev/null || exit 1
out=$TOP/results/$(date +%Y%m%d-%H%M%S)-run-$(tree_name)-$CONFIG
# CMD comes from the environment (make exports it): quotes in it survive.
cmd=${CMD:-}
if [ -z "$cmd" ]; then
	exec "$TOP/scripts/qemu.sh" shell "$out"
fi
"$TOP/scripts/qemu.sh" cmd "$out" "$cmd"
rc=$?
[ -d "$out" ] && run_manifest "$out" "$CONFIG"
[ "$rc" -eq 0 ] || exit "$rc"
note "serial log and results: $out"
exit "$(cat "$out/guest/cmd.rc" 2>/dev/null || echo 1)"
