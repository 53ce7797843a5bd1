#!/bin/sh
# `make kernel`: set up, extract and patch the tree, configure, build.
# The last line printed is the absolute path of the bzImage.
. "$(dirname "$0")/lib.sh"
check_patches_var
check_config_var
step "deps (apt)" "$TOP/scripts/deps.sh" test &&
step "tree (extract + patch)" "$TOP/scripts/tree.sh" &&
step "config ($CONFIG)" "$TOP/scripts/kconfig.sh" &&
step "kernel build" "$TOP/scripts/build.sh" >"$BUILD/logs/kernel.out" || {
	cat "$BUILD/logs/kernel.out" 2>/dev/null
	exit 1
}
head -n -1 "$BUILD/logs/kernel.out"
tail -n 1 "$BUILD/logs/kernel.out"
