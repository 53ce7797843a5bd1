#!/bin/sh
# `make check-series`: what every patch of patches/series must meet.
#   1. scripts/checkpatch.pl --strict (the 6.12 tree's): 0 errors,
#      0 warnings, 0 checks;
#   2. every prefix of the series builds (the series is bisectable), and
#      the whole series in config/lean.config (fewer options);
#   3. the C files the series touches get no new W=1 or sparse (C=2)
#      warnings: compared with the same files built in the stock tree.
# Ends with "N passed, M failed"; results in results/<date>-check-series/.
. "$(dirname "$0")/lib.sh"
PATCHES=series
CONFIG=${CONFIG:-base}
check_config_var

out=$TOP/results/$(date +%Y%m%d-%H%M%S)-check-series
mkdir -p "$out"
tsv=$out/series.tsv
: >"$tsv"
res() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$tsv"; echo "$2 $1: $3"; }

"$TOP/scripts/deps.sh" check || exit 1
"$TOP/scripts/tree.sh" >/dev/null || exit 1
pristine=$BUILD/src/.pristine
series=$(series_files)
n=$(echo "$series" | grep -c .)

# The files a patch adds, one per line; fails if none.
new_files() {
	awk '/^--- \/dev\/null/ { getline; sub(/^\+\+\+ b\//, ""); print }' "$1" | grep .
}
# Whether a MAINTAINERS section other than THE REST lists each FILE (read
# in the patched tree, where the files exist).
covered() {
	for f in "$@"; do
		(cd "$(src_dir)" && perl scripts/get_maintainer.pl --nogit --nogit-fallback \
			--sections -f "$f") 2>/dev/null | grep -v '^THE REST' |
			grep -q '^[A-Z][A-Z]' || return 1
	done
}

# 1. checkpatch, run from the pristine tree on each patch file
for p in $series; do
	# /usr/bin first: the SPDX check needs the python3 that has python3-ply
	(cd "$pristine" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --no-color \
		"$PATCH_DIR/$p") >"$out/checkpatch-$p.txt" 2>&1
	total=$(grep '^total:' "$out/checkpatch-$p.txt")
	case $total in
	"total: 0 errors, 0 warnings, 0 checks"*) res "checkpatch.$p" PASS "$total" ;;
	"total: 0 errors, 1 warnings, 0 checks"*)
		# checkpatch asks about MAINTAINERS for every new file; a file
		# an existing MAINTAINERS section already covers needs no hunk
		# shellcheck disable=SC2086
		if [ "$(grep -c '^WARNING:' "$out/checkpatch-$p.txt")" = 1 ] &&
			grep -q '^WARNING: added, moved or deleted file' "$out/checkpatch-$p.txt" &&
			new=$(new_files "$PATCH_DIR/$p") && covered $new; then
			res "checkpatch.$p" PASS "$total: the MAINTAINERS question, for$(printf ' %s' $new), which MAINTAINERS covers"
		else
			res "checkpatch.$p" FAIL "$total; see $out/checkpatch-$p.txt"
		fi ;;
	*) res "checkpatch.$p" FAIL "${total:-no verdict}; see $out/checkpatch-$p.txt" ;;
	esac
done

# 2. every prefix builds
i=1
while [ "$i" -le "$n" ]; do
	p=$(echo "$series" | sed -n "${i}p")
	if UPTO=$i "$TOP/scripts/tree.sh" >/dev/null && UPTO=$i "$TOP/scripts/kconfig.sh" >/dev/null &&
		"$TOP/scripts/build.sh" >"$out/build-$i.txt" 2>&1; then
		res "builds_up_to.$i" PASS "$p"
	else
		res "builds_up_to.$i" FAIL "$p: see $out/build-$i.txt"
	fi
	i=$((i + 1))
done
"$TOP/scripts/tree.sh" >/dev/null && "$TOP/scripts/kconfig.sh" >/dev/null &&
	"$TOP/scripts/build.sh" >/dev/null 2>&1 || res build.full FAIL "the whole series"
# ... and in config/lean.config: no cgroup writeback, memcg or debugfs
if CONFIG=lean "$TOP/scripts/kconfig.sh" >"$out/build-lean.txt" 2>&1 &&
	CONFIG=lean "$TOP/scripts/build.sh" >>"$out/build-lean.txt" 2>&1; then
	res build.lean PASS "the whole series, config/lean.config"
else
	res build.lean FAIL "the whole series, config/lean.config: see $out/build-lean.txt"
fi

# 3. W=1 and sparse on the touched C files, patched against stock
files=$(cat "$(src_dir)/.pddt-files" | grep '\.c$')
objs=$(echo "$files" | sed 's/\.c$/.o/')
for t in series none; do
	PATCHES=$t
	# single objects: make prepares the O= directory by itself
	"$TOP/scripts/tree.sh" >/dev/null && "$TOP/scripts/kconfig.sh" >/dev/null ||
		{ res "warnings.$t" FAIL "no tree or config"; continue; }
	present=
	for o in $objs; do [ -f "$(src_dir)/${o%.o}.c" ] && present="$present $o"; done
	for o in $present; do rm -f "$(obj_dir)/$o"; done
	# shellcheck disable=SC2086
	make -C "$(src_dir)" O="$(obj_dir)" ARCH=x86_64 W=1 C=2 $present \
		>"$out/warnings-$t.log" 2>&1
	# /tree/file:line:col: warning: text  ->  file: warning: text (the
	# two trees have their own paths, and line numbers move)
	grep -E '(warning|error):' "$out/warnings-$t.log" |
		sed -E "s|^$(src_dir)/||; s/^([^:]+):[0-9]+:([0-9]+:)? /\\1: /" |
		sort >"$out/warnings-$t.txt"
done
PATCHES=series
new=$(comm -13 "$out/warnings-none.txt" "$out/warnings-series.txt")
if [ -z "$new" ]; then
	res warnings.new PASS "no new W=1 or sparse warnings in: $(echo $files)"
else
	echo "$new" >"$out/warnings-new.txt"
	res warnings.new FAIL "$(echo "$new" | wc -l) new: see $out/warnings-new.txt"
fi
"$TOP/scripts/tree.sh" >/dev/null && "$TOP/scripts/kconfig.sh" >/dev/null &&
	"$TOP/scripts/build.sh" >/dev/null 2>&1
exec "$TOP/scripts/summarize.sh" "$out"
