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

# Progress goes to stderr, which the callers leave on the terminal (they
# keep stdout, whose last line is the bzImage path): every PROGRESS_S
# seconds, the time so far and the objects compiled, from the log. The
# ticker runs beside make and ends with it, or with this script.
progress=${PROGRESS_S:-30}
case $progress in '' | *[!0-9]* | 0) die "PROGRESS_S='$progress': seconds (> 0) expected" ;; esac
ccache -z >/dev/null 2>&1
note "building $(tree_name) kernel, config $CONFIG, make -j$jobs (log: $log)" >&2
: >"$log"
t0=$(date +%s)
(
	n=0
	while sleep 1 && kill -0 $$ 2>/dev/null; do
		n=$((n + 1))
		[ $((n % progress)) -eq 0 ] || continue
		note "kernel build: $(($(date +%s) - t0)) s, $(grep -c '^  CC ' "$log") objects compiled (log: $log)" >&2
	done
) >/dev/null &
tick=$!
trap 'kill "$tick" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
if ! make -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
	-j"$jobs" ${KBUILD_EXTRA:-} bzImage >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 20 >&2
	echo "--- last lines of $log:" >&2
	tail -n 40 "$log" >&2
	die "kernel build failed ($(tree_name), $CONFIG)"
fi
n=$(grep -c ': warning:' "$log")
[ "$n" -eq 0 ] || note "$n compiler warnings, see $log"
kill "$tick" 2>/dev/null
ccache -s 2>/dev/null | grep -iE '^ *(hits|misses)' | head -n 2 | sed 's/^ */  ccache (this build): /'
bzimage
