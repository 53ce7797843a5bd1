#!/bin/sh
# `make deb`: installable Debian packages of the kernel with patches/series,
# for testers with real disks (field/README.md). Configuration: the file
# KCONFIG names (e.g. a distribution's /boot/config-*; its modules are
# built too), else x86_64_defconfig, then field/deb.config over it, then
# olddefconfig. The packages (linux-image, linux-headers, linux-libc-dev;
# version suffix -pddt) go to build/deb/; nothing is installed here. Not
# part of make test.
. "$(dirname "$0")/lib.sh"
export PATCHES=series
kconfig=${KCONFIG:-}
if [ -n "$kconfig" ]; then
	[ -f "$kconfig" ] && [ -r "$kconfig" ] || die "KCONFIG='$kconfig': no such readable file"
	grep -q '^CONFIG_X86_64=y' "$kconfig" ||
		die "KCONFIG='$kconfig': not an x86_64 kernel configuration (no CONFIG_X86_64=y)"
	kconfig=$(cd "$(dirname "$kconfig")" && pwd)/$(basename "$kconfig")
fi
progress_check
jobs=${JOBS:-$(nproc)}
out=$BUILD/deb
obj=$out/obj
log=$BUILD/logs/deb.log
frag=$TOP/field/deb.config

step "deps (apt)" "$TOP/scripts/deps.sh" deb || exit 1
step "tree (extract + patch)" "$TOP/scripts/tree.sh" >/dev/null || exit 1
src=$(src_dir)
mkdir -p "$obj" "$BUILD/logs"
rm -f "$out"/*.deb "$out"/*.buildinfo "$out"/*.changes

export CCACHE_BASEDIR="$TOP" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export KBUILD_BUILD_USER=pddt KBUILD_BUILD_HOST=pddt
k() { make -C "$src" O="$obj" ARCH=x86_64 "$@"; }
configure() {
	if [ -n "$kconfig" ]; then cp "$kconfig" "$obj/.config"; else k x86_64_defconfig; fi &&
		(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "$frag") &&
		k olddefconfig
}
step "config (${kconfig:-x86_64_defconfig} + field/deb.config)" configure >"$log" 2>&1 || {
	tail -n 20 "$log" >&2
	die "config failed (log: $log)"
}
bad=$(config_missing "$obj/.config" "$frag")
[ -z "$bad" ] || {
	echo "$bad" >&2
	die "options above did not stick (a dependency is missing; log: $log)"
}

note "building the packages, make -j$jobs (log: $log)" >&2
t0=$(date +%s)
progress_start "$log" "make deb"
k CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" LOCALVERSION=-pddt bindeb-pkg >>"$log" 2>&1 || {
	grep -E 'error|Error' "$log" | head -n 20 >&2
	tail -n 30 "$log" >&2
	die "package build failed (log: $log)"
}
progress_stop
debs=$(ls "$out"/*.deb 2>/dev/null)
[ -n "$debs" ] || die "the build ended without packages in $out (log: $log)"
note "packages built in $(($(date +%s) - t0)) s, in $out:"
for d in $debs; do echo "  $d"; done
note "install on the test machine with: apt install ./linux-image-*-pddt_*.deb"
