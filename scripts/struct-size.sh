#!/bin/sh
# struct-size.sh STRUCT FILE.c: sizeof(struct STRUCT) in each kernel built
# here (stock and patched, config base), read with pahole from FILE.c
# compiled again with -g by its own saved kbuild command, to a temporary
# object: the build itself is not touched. Prints "tree<TAB>bytes" lines.
. "$(dirname "$0")/lib.sh"
[ $# -eq 2 ] || die "usage: struct-size.sh STRUCT FILE.c"
command -v pahole >/dev/null || die "no pahole: install dwarves"
st=$1
obj=${2%.c}.o
found=0
for t in patched stock; do
	dir=$BUILD/obj/$t-base
	cmdf=$dir/$(dirname "$obj")/.$(basename "$obj").cmd
	[ -f "$cmdf" ] || continue
	tmp=$(mktemp /tmp/pddt-struct.XXXXXX.o)
	# the compile command only: the objtool pass after ';' is left out
	cmd=$(sed -n "s|^savedcmd_$obj := ||p" "$cmdf" | cut -d';' -f1 |
		sed "s|-Wp,-MMD,[^ ]*||; s| -o $obj | -g -o $tmp |")
	(cd "$dir" && eval "$cmd") || { rm -f "$tmp"; die "cannot compile $2 in $dir"; }
	size=$(pahole -C "$st" "$tmp" | sed -n 's|.*/\* size: \([0-9]*\),.*|\1|p')
	rm -f "$tmp"
	[ -n "$size" ] || die "pahole found no struct $st in $2"
	printf '%s\t%s\n' "$t" "$size"
	found=1
done
[ "$found" = 1 ] || die "no built kernel with $obj under $BUILD/obj"
