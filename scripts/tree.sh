#!/bin/sh
# Extract linux-source-6.12 into build/src/<tree>/ and apply patches/series.
# The tree is re-made only when the source package or a patch changes.
# Prints nothing but progress; fails naming the patch that does not apply.
. "$(dirname "$0")/lib.sh"
check_patches_var

src=$(src_dir)
ver=$(ksrc_version)
[ -r "$KSRC_TARBALL" ] || die "$KSRC_TARBALL not found: install $KSRC_PKG (scripts/deps.sh)"

# The identity of the wanted tree: package version plus every patch's bytes.
want=$( {
	echo "$ver"
	series_files | while read -r p; do
		[ -f "$TOP/patches/$p" ] || { echo "MISSING $p"; continue; }
		echo "$p $(sha256sum <"$TOP/patches/$p")"
	done
} | sha256sum | cut -d' ' -f1)
series_files | while read -r p; do
	[ -f "$TOP/patches/$p" ] || die "patches/series names '$p', which is not in patches/"
done || exit 1

if [ -f "$src/.pddt-stamp" ] && [ "$(cat "$src/.pddt-stamp")" = "$want" ]; then
	note "tree $src is up to date ($KSRC_PKG $ver, $(series_files | wc -l) patches)"
	exit 0
fi

rm -rf "$src" "$src.tmp"
mkdir -p "$src.tmp"
note "extracting $KSRC_TARBALL ($ver)"
tar -xJf "$KSRC_TARBALL" -C "$src.tmp" --strip-components=1 ||
	die "extracting $KSRC_TARBALL failed"

n=0
for p in $(series_files); do
	n=$((n + 1))
	if ! out=$(cd "$src.tmp" && patch -p1 --fuzz=0 --forward --batch \
		--no-backup-if-mismatch -r - <"$TOP/patches/$p" 2>&1); then
		echo "$out" >&2
		die "patch $n, patches/$p, does not apply to $KSRC_PKG $ver"
	fi
	# patch reports fuzz and offsets on stdout; fuzz is refused by
	# --fuzz=0, offsets are tolerated but shown.
	echo "$out" | grep -i 'offset\|fuzz' | sed "s|^|  $p: |"
	note "applied $p"
done
echo "$want" >"$src.tmp/.pddt-stamp"
mv "$src.tmp" "$src"
note "tree ready: $src ($KSRC_PKG $ver, $n patches)"
