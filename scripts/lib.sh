# shellcheck shell=sh
# Common definitions for the host scripts; sourced, never run.
#
# Layout of the build directory (ignored by git):
#   build/src/<tree>/      extracted linux-source-6.12, patched or stock
#   build/obj/<kernel>/    O= output of one (tree, config variant) pair
#   build/guest/           static guest programs and the initramfs
#   build/logs/            build logs
#   build/run/             per-boot disk images and QMP socket

TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
KSRC_TARBALL=${KSRC_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
KSRC_PKG=linux-source-6.12

# PATCHES=series applies patches/series; PATCHES=none is stock 6.12.
PATCHES=${PATCHES:-series}
PATCH_DIR=${PATCH_DIR:-$TOP/patches}
# CONFIG names a variant: config/base.config plus config/<variant>.config.
CONFIG=${CONFIG:-base}
# The disks of a boot when DISKS is not set (the Makefile sets the same).
DEFAULT_DISKS="fast:100M slow:4M fast2:100M slow2:4M"

die() {
	echo "error: $*" >&2
	exit 1
}

note() {
	echo "pddt: $*"
}

# step NAME CMD...: run CMD, say what it does and how long it took.
step() {
	_name=$1
	shift
	_t0=$(date +%s.%N)
	echo "==> $_name"
	"$@"
	_rc=$?
	_dt=$(echo "$(date +%s.%N) - $_t0" | bc)
	if [ "$_rc" -eq 0 ]; then
		printf '<== %s: done in %.1f s\n' "$_name" "$_dt"
	else
		printf '<== %s: FAILED (exit %d) after %.1f s\n' "$_name" "$_rc" "$_dt"
	fi
	return "$_rc"
}

check_patches_var() {
	case $PATCHES in
	series | none) ;;
	*) die "PATCHES='$PATCHES': expected 'series' (patches/series) or 'none' (stock 6.12)" ;;
	esac
}

check_config_var() {
	case $CONFIG in
	'' | *[!a-z0-9_-]*) die "CONFIG='$CONFIG': not a variant name" ;;
	esac
	[ -f "$TOP/config/$CONFIG.config" ] ||
		die "CONFIG='$CONFIG': no config/$CONFIG.config (variants: $(cd "$TOP/config" && ls ./*.config | sed 's|^\./||; s|\.config$||' | tr '\n' ' '))"
}

# The version of the installed source package, e.g. 6.12.118-1~deb12u1.
ksrc_version() {
	dpkg-query -W -f='${Version}' "$KSRC_PKG" 2>/dev/null || echo unknown
}

# Where the (patched or stock) tree and its objects live.
tree_name() {
	if [ "$PATCHES" = none ]; then echo stock; else echo patched; fi
}
src_dir() { echo "${SRC_DIR:-$BUILD/src/$(tree_name)}"; }
obj_dir() { echo "$BUILD/obj/$(tree_name)-$CONFIG"; }
bzimage() { echo "$(obj_dir)/arch/x86/boot/bzImage"; }

# The patch files named by patches/series, in order, one per line.
series_files() {
	[ "$PATCHES" = none ] && return 0
	[ -f "$PATCH_DIR/series" ] || die "$PATCH_DIR/series is missing"
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$PATCH_DIR/series"
}

# A short hash of the series: each file of patches/series, in order.
series_hash() {
	(cd "$PATCH_DIR" && series_files | while read -r _p; do sha256sum "$_p"; done) |
		sha256sum | cut -c1-16
}

# Check the variables of a boot (make test, make run) before any work.
check_run_vars() {
	case ${TIMEOUT:-1800} in '' | *[!0-9]* | 0) die "TIMEOUT='$TIMEOUT': seconds (> 0) expected" ;; esac
	case ${MEM:-1024} in '' | *[!0-9]*) die "MEM='$MEM': MiB expected" ;; esac
	[ "${MEM:-1024}" -ge 256 ] || die "MEM='$MEM': at least 256 MiB"
	# no more vCPUs than the kernel takes: CONFIG_NR_CPUS of the variant
	# (config/CONFIG.config, else config/base.config; else x86_64's
	# default, 64)
	_ncpus=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$TOP/config/base.config" \
		"$TOP/config/${CONFIG:-base}.config" 2>/dev/null | tail -n 1)
	case ${SMP:-2} in
	'' | *[!0-9]* | 0*) die "SMP='$SMP': a number of vCPUs expected" ;;
	*) [ "${SMP:-2}" -le "${_ncpus:-64}" ] ||
		die "SMP='$SMP': 1 to ${_ncpus:-64} expected (CONFIG_NR_CPUS of config ${CONFIG:-base})" ;;
	esac
	# shellcheck disable=SC2086
	"$TOP/scripts/disks.sh" check ${DISKS:-$DEFAULT_DISKS} >/dev/null || exit 1
}

# run_manifest DIR CONFIG...: what made the run in DIR, in DIR/run-manifest.tsv:
# the target and the variables it was given, git describe, a hash of the
# series (patches/series and its files, in order), the source package, a
# hash of each kernel's .config, QEMU's version.
run_manifest() {
	_dir=$1
	shift
	{
		_t=${0##*/}
		printf 'target\tmake %s\n' "${_t%.sh}"
		for _v in PATCHES CONFIG DISKS TESTS TIMEOUT MEM SMP QUICK FULL FIO CMD APPEND; do
			eval "_x=\${$_v:-}"
			[ -z "$_x" ] || printf 'var %s\t%s\n' "$_v" "$_x"
		done
		printf 'git\t%s\n' "$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo 'not a git checkout')"
		printf 'series\t%s (%s patches, PATCHES=%s)\n' "$(series_hash)" \
			"$(series_files | grep -c .)" "$PATCHES"
		printf 'source\t%s %s\n' "$KSRC_PKG" "$(ksrc_version)"
		for _c in "$@"; do
			_f=$BUILD/obj/$(tree_name)-$_c/.config
			if [ -f "$_f" ]; then _h=$(sha256sum "$_f" | cut -c1-16); else _h="none ($_f)"; fi
			printf 'config %s\t%s\n' "$_c" "$_h"
		done
		printf 'qemu\t%s\n' "$(qemu-system-x86_64 --version 2>/dev/null | head -n 1)"
		printf 'host\t%s CPUs, %s\n' "$(nproc)" "$(uname -r)"
	} >"$_dir/run-manifest.tsv"
}

# progress_start LOG WHAT: every $PROGRESS_S seconds (default 30), print
# on stderr the time so far and the objects compiled, from LOG (a kernel
# build's make output), until progress_stop or the end of the script.
# progress_check: die unless PROGRESS_S is a number of seconds; call it
# before changing anything.
progress_check() {
	_every=${PROGRESS_S:-30}
	case $_every in '' | *[!0-9]* | 0) die "PROGRESS_S='$_every': seconds (> 0) expected" ;; esac
}
progress_start() {
	_plog=$1 _pwhat=$2
	progress_check
	_pt0=$(date +%s)
	_ppid=$$
	(
		n=0
		while sleep 1 && kill -0 "$_ppid" 2>/dev/null; do
			n=$((n + 1))
			[ $((n % _every)) -eq 0 ] || continue
			note "$_pwhat: $(($(date +%s) - _pt0)) s, $(grep -c '^  CC ' "$_plog") objects compiled (log: $_plog)" >&2
		done
	) >/dev/null &
	_tick=$!
	trap 'kill "$_tick" 2>/dev/null' EXIT
	trap 'exit 130' INT TERM
}
progress_stop() { kill "$_tick" 2>/dev/null; }

# config_missing CONFIG FRAG...: the options the fragments ask for that
# CONFIG (a .config) does not have, one per line; where two fragments set
# one option, the later one's value (merge_config.sh's rule).
config_missing() {
	_cfg=$1
	shift
	cat "$@" | sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/# \1 is not set/p' |
		awk '{ o = $0; sub(/^# /, "", o); sub(/[= ].*/, "", o); last[o] = $0; if (!(o in seen)) { seen[o] = 1; order[n++] = o } }
			END { for (i = 0; i < n; i++) print last[order[i]] }' |
		while IFS= read -r want; do
			case $want in
			'#'*) opt=${want#\# }; opt=${opt%% *}
				grep -q "^$opt=" "$_cfg" && echo "  $want (got $(grep "^$opt=" "$_cfg"))" ;;
			*) grep -qxF "$want" "$_cfg" ||
				echo "  $want (got $(grep "^${want%%=*}=" "$_cfg" || echo 'not set'))" ;;
			esac
		done
}
