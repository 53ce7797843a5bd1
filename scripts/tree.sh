#!/bin/sh
# Make build/src/<tree>/: a copy of linux-source-6.12 with patches/series
# applied (the first $UPTO patches if set). The tree is re-made only when
# the source package or a patch changes. A failing hunk names the patch
# and the package version and stops.
#
# The package is extracted once into build/src/.pristine; a tree is a copy
# with timestamps kept, so that an O= build rebuilds only what a patch
# touched. Every file a patch touches, in the old or the new series, gets
# a fresh timestamp, so that no object built from another series survives.
. "$(dirname "$0")/lib.sh"
check_patches_var
case ${UPTO:-} in '' | [0-9] | [0-9][0-9]) ;; *) die "UPTO='$UPTO': a patch count expected" ;; esac

src=$(src_dir)
ver=$(ksrc_version)
pristine=$BUILD/src/.pristine
[ -r "$KSRC_TARBALL" ] || die "$KSRC_TARBALL not found: install $KSRC_PKG (scripts/deps.sh)"

series=$(series_files | head -n "${UPTO:-999}")
for p in $series; do
	[ -f "$PATCH_DIR/$p" ] || die "patches/series names '$p', which is not in $PATCH_DIR/"
done

# The identity of the wanted tree: package version plus every patch's bytes.
want=$( {
	echo "$ver"
	for p in $series; do echo "$p $(sha256sum <"$PATCH_DIR/$p")"; done
} | sha256sum | cut -d' ' -f1)

if [ -f "$src/.pddt-stamp" ] && [ "$(cat "$src/.pddt-stamp")" = "$want" ]; then
	note "tree $src is up to date ($KSRC_PKG $ver, $(echo "$series" | grep -c .) patches)"
	exit 0
fi

if [ "$(cat "$pristine/.pddt-version" 2>/dev/null)" != "$ver" ]; then
	rm -rf "$pristine" "$pristine.tmp"
	mkdir -p "$pristine.tmp"
	note "extracting $KSRC_TARBALL ($ver)"
	tar -xJf "$KSRC_TARBALL" -C "$pristine.tmp" --strip-components=1 ||
		die "extracting $KSRC_TARBALL failed"
	echo "$ver" >"$pristine.tmp/.pddt-version"
	mv "$pristine.tmp" "$pristine"
	rm -rf "$BUILD/src/patched" "$BUILD/src/stock"	# made from another package
fi

old_files=$(cat "$src/.pddt-files" 2>/dev/null)
rm -rf "$src.tmp"
cp -a "$pristine" "$src.tmp" || die "cannot copy $pristine"
rm -f "$src.tmp/.pddt-version"

n=0
for p in $series; do
	n=$((n + 1))
	if ! out=$(cd "$src.tmp" && patch -p1 --fuzz=0 --forward --batch \
		--no-backup-if-mismatch -r - <"$PATCH_DIR/$p" 2>&1); then
		echo "$out" >&2
		die "patch $n, $p, does not apply to $KSRC_PKG $ver"
	fi
	# --fuzz=0 refuses fuzz; offsets are tolerated but shown.
	echo "$out" | grep -i 'offset\|fuzz' | sed "s|^|  $p: |"
	note "applied $p"
done

new_files=$(for p in $series; do sed -n 's|^+++ b/||p' "$PATCH_DIR/$p"; done)
for f in $old_files $new_files; do
	[ -e "$src.tmp/$f" ] && touch "$src.tmp/$f"
done
echo "$new_files" | sort -u >"$src.tmp/.pddt-files"
echo "$want" >"$src.tmp/.pddt-stamp"
rm -rf "$src"
mv "$src.tmp" "$src"
note "tree ready: $src ($KSRC_PKG $ver, $n patches)"
