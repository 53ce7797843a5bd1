#!/bin/sh
# Merge the results of one run (OUT/{setup,harness,series,boot,kunit}.tsv,
# OUT/guest/results.tsv, and the same of each kernel in OUT/<config>/) into
# OUT/results.tsv ("source\tname\tstatus\tdetail"), list what failed and
# what was skipped, and end with the line "N passed, M failed[, K
# skipped]". Each kernel's boot is first judged against its manifest
# (scripts/manifest.sh: what must have run, the skips allowed), into
# OUT/<config>/manifest.tsv.
# Usage: summarize.sh OUT    exit 1 on any failure or if nothing ran.
. "$(dirname "$0")/lib.sh"

out=$1
[ -d "$out" ] || die "usage: summarize.sh OUT (no directory '$out')"
: >"$out/results.tsv.tmp"
# A kernel's directory has a boot.tsv from its first step (scripts/test.sh).
for f in "$out"/*/boot.tsv; do
	[ -f "$f" ] || continue
	m=${f%boot.tsv}manifest.tsv
	"$TOP/scripts/manifest.sh" "${f%/boot.tsv}" >"$m" || grep -q '	FAIL	' "$m" ||
		printf 'manifest\tFAIL\tscripts/manifest.sh stopped without a verdict\n' >>"$m"
done
# A run of several kernels keeps each one's boot, KUnit and guest results
# in a directory named after its config: their source is "config/boot".
for f in "$out"/setup.tsv "$out"/harness.tsv "$out"/series.tsv "$out"/boot.tsv \
	"$out"/kunit.tsv "$out"/guest/results.tsv "$out"/*/boot.tsv "$out"/*/kunit.tsv \
	"$out"/*/manifest.tsv "$out"/*/guest/results.tsv; do
	[ -f "$f" ] || continue
	src=${f#"$out"/}
	src=${src%.tsv}
	src=${src%/guest/results}
	src=${src%guest/results}
	case $f in */guest/results.tsv) src=${src:+$src/}guest ;; esac
	awk -F'\t' -v src="$src" 'NF >= 2 { printf "%s\t%s\t%s\t%s\n", src, $1, $2, $3 }' "$f" \
		>>"$out/results.tsv.tmp"
done
mv "$out/results.tsv.tmp" "$out/results.tsv"

awk -F'\t' '
	$3 == "PASS" { pass++ }
	$3 == "SKIP" { skip++; printf "SKIPPED %s/%s: %s\n", $1, $2, $4 }
	$3 != "PASS" && $3 != "SKIP" { fail++; printf "FAILED %s/%s: %s\n", $1, $2, $4 }
	END {
		line = sprintf("%d passed, %d failed", pass, fail)
		if (skip) line = line sprintf(", %d skipped", skip)
		print line
		exit (fail > 0 || pass == 0)
	}' "$out/results.tsv"
