#!/bin/sh
# Developer tool: export the commits of a kernel git tree since BASE as
# patches/ (git format-patch files, a series file and a cover letter made
# from patches/cover-letter.txt: its first line is the subject).
# Usage: scripts/export-series.sh KERNEL_GIT_DIR BASE
. "$(dirname "$0")/lib.sh"
kdir=$1
base=$2
[ -d "$kdir/.git" ] && [ -n "$base" ] || die "usage: export-series.sh KERNEL_GIT_DIR BASE"
cover=$TOP/patches/cover-letter.txt
[ -f "$cover" ] || die "no $cover"

mkdir -p "$BUILD"
rm -f "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch
git -C "$kdir" format-patch -q --cover-letter --zero-commit -o "$TOP/patches" "$base" ||
	die "git format-patch failed"
subject=$(head -n 1 "$cover")
tail -n +3 "$cover" >"$BUILD/cover-body.txt"
awk -v subject="$subject" -v body="$BUILD/cover-body.txt" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < body) > 0) print l; next }
	{ print }' "$TOP/patches/0000-cover-letter.patch" >"$BUILD/cover.patch"
mv "$BUILD/cover.patch" "$TOP/patches/0000-cover-letter.patch"
{
	echo "# Patch series against linux-source-6.12 (Debian), applied in order"
	echo "# with zero fuzz by scripts/tree.sh. The cover letter is"
	echo "# 0000-cover-letter.patch (not applied)."
	cd "$TOP/patches" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-'
} >"$TOP/patches/series"
note "exported $(($(grep -vc '^#' "$TOP/patches/series"))) patches to patches/"
