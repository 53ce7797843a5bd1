#!/bin/sh
# Install with apt what the build and the QEMU runs need, if missing.
# Usage: scripts/deps.sh [test|bench|check|deb]
. "$(dirname "$0")/lib.sh"

# Kernel build (tinyconfig needs flex, bison, bc; objtool needs libelf),
# the host side of the harness, and the guest's static userland.
PKGS_TEST="linux-source-6.12 build-essential libc6-dev gcc make flex bison bc
libelf-dev libssl-dev cpio xz-utils patch ccache python3 jq e2fsprogs
qemu-system-x86 qemu-utils busybox-static libfuse3-dev fio"
PKGS_BENCH="gnuplot-nox dwarves"
# checkpatch.pl's SPDX check needs ply and git; C=2 needs sparse.
PKGS_CHECK="sparse python3-ply python3-git"
# make deb: the kernel build, and bindeb-pkg's dpkg-buildpackage, kmod
# (modules) and rsync (the headers package).
PKGS_DEB="linux-source-6.12 build-essential gcc make flex bison bc libelf-dev
libssl-dev cpio xz-utils patch ccache dpkg-dev kmod rsync"

case ${1:-test} in
test) want=$PKGS_TEST ;;
bench) want="$PKGS_TEST $PKGS_BENCH" ;;
check) want="$PKGS_TEST $PKGS_CHECK" ;;
deb) want=$PKGS_DEB ;;
*) die "deps.sh: unknown set '$1' (test, bench, check, deb)" ;;
esac

missing=
for p in $want; do
	s=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)
	[ "$s" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

note "installing missing packages:$missing"
[ "$(id -u)" -eq 0 ] ||
	die "missing packages:$missing; run as root (apt-get install) or install them: sudo apt-get install$missing"
command -v apt-get >/dev/null || die "no apt-get: this harness expects Debian 12 (missing:$missing)"
export DEBIAN_FRONTEND=noninteractive
log=$BUILD/logs/apt.log
mkdir -p "$BUILD/logs"
# shellcheck disable=SC2086
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	die "apt-get failed installing:$missing (full log: $log)"
fi
