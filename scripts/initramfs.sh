#!/bin/sh
# Build the guest programs (guest/Makefile) and the base initramfs:
# busybox-static, guest/init, /tests, /bench, /bin tools and the field
# kit at /fieldkit. Prints its path.
# The per-boot job (what to run) is a second cpio appended by qemu.sh.
. "$(dirname "$0")/lib.sh"

out=$BUILD/guest
log=$BUILD/logs/guest.log
mkdir -p "$out" "$BUILD/logs"
BUSYBOX=${BUSYBOX:-/bin/busybox}
[ -x "$BUSYBOX" ] || die "no $BUSYBOX: install busybox-static (scripts/deps.sh)"

make -C "$TOP/guest" OUT="$out" >"$log" 2>&1 || {
	tail -n 30 "$log" >&2
	die "guest programs failed to build (log: $log)"
}

# the field kit as a tester unpacks it, at /fieldkit (make test runs it)
"$TOP/scripts/fieldkit.sh" >/dev/null || die "the field kit failed to build"
kit=$BUILD/fieldkit/pddt-field

# gen_init_cpio from the kernel source: no root needed for device nodes.
gen=$out/gen_init_cpio
src=$(ls -d "$BUILD"/src/*/usr/gen_init_cpio.c 2>/dev/null | head -n 1)
[ -n "$src" ] || die "no kernel tree with usr/gen_init_cpio.c: run scripts/tree.sh"
[ "$gen" -nt "$src" ] || gcc -O2 -o "$gen" "$src" || die "cannot build gen_init_cpio"

list=$out/initramfs.list
{
	for d in /bench /bin /dev /etc /etc/pddt /fieldkit /fieldkit/bin /mnt /proc /results /run /sys \
		/tests /tmp /usr /usr/bin; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "file /bin/busybox $BUSYBOX 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /init $TOP/guest/init 0755 0 0"
	for f in "$out"/bin/*; do
		[ -f "$f" ] && echo "file /bin/${f##*/} $f 0755 0 0"
	done
	for f in "$out"/tests/*; do
		[ -f "$f" ] && echo "file /tests/${f##*/} $f 0755 0 0"
	done
	for f in "$out"/bench/*; do
		[ -f "$f" ] && echo "file /bench/${f##*/} $f 0755 0 0"
	done
	for f in "$kit"/* "$kit"/bin/*; do
		[ -f "$f" ] && echo "file /fieldkit/${f#"$kit"/} $f 0755 0 0"
	done
} >"$list"
"$gen" "$list" >"$out/initramfs.cpio.tmp" || die "gen_init_cpio failed"
mv "$out/initramfs.cpio.tmp" "$out/initramfs.cpio"
note "initramfs: $(grep -c '^file' "$list") files, $(($(stat -c %s "$out/initramfs.cpio") / 1024)) KiB"
echo "$out/initramfs.cpio"
