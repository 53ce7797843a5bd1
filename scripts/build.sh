#!/bin/sh
# Build the bzImage of one kernel (tree from PATCHES, variant from CONFIG)
# with ccache. The log goes to build/logs/; its tail is shown on failure.
# The last line printed is the absolute path of the bzImage.
. "$(dirname "$0")/lib.sh"
check_patches_var
check_config_var

src=$(src_dir)
obj=$(obj_dir)
[ -f "$obj/.config" ] || die "no $obj/.config: run scripts/kconfig.sh"
log=$BUILD/logs/build-$(tree_name)-$CONFIG.log
mkdir -p "$BUILD/logs"

# Same paths and stamps in every clone, so ccache hits across fresh clones.
export CCACHE_BASEDIR="$TOP" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export KBUILD_BUILD_TIMESTAMP='Fri Aug  3 14:37:13 UTC 2007'
export KBUILD_BUILD_USER=pddt KBUILD_BUILD_HOST=pddt
jobs=${JOBS:-$(nproc)}
progress_check

# Progress goes to stderr, which the callers leave on the terminal (they
# keep stdout, whose last line is the bzImage path).
ccache -z >/dev/null 2>&1
note "building $(tree_name) kernel, config $CONFIG, make -j$jobs (log: $log)" >&2
: >"$log"
progress_start "$log" "kernel build"
if ! make -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
	-j"$jobs" ${KBUILD_EXTRA:-} bzImage >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 20 >&2
	echo "--- last lines of $log:" >&2
	tail -n 40 "$log" >&2
	die "kernel build failed ($(tree_name), $CONFIG)"
fi
n=$(grep -c ': warning:' "$log")
[ "$n" -eq 0 ] || note "$n compiler warnings, see $log"
progress_stop
ccache -s 2>/dev/null | grep -iE '^ *(hits|misses)' | head -n 2 | sed 's/^ */  ccache (this build): /'
bzimage
