#!/bin/sh
# Write OUT/report.md for a `make test` run: for each kernel, a table of
# the in-guest tests (how long each took, its checks passed and failed),
# then every check with its outcome and detail (the counts and durations
# the tests report), from OUT/results.tsv (scripts/summarize.sh) and each
# kernel's serial log.
# Usage: test-report.sh OUT
. "$(dirname "$0")/lib.sh"

out=$1
[ -f "$out/results.tsv" ] || die "usage: test-report.sh OUT (no $out/results.tsv: run summarize.sh)"
rep=$out/report.md

# md_table HEADER: the tab-separated lines on stdin as a Markdown table.
md_table() {
	echo "$1"
	echo "$1" | sed 's/[^|]*|/---|/g; s/^---|/|/'
	sed 's/|/\\|/g; s/\t/ | /g; s/^/| /; s/$/ |/'
}

{
	echo "# make test: $(basename "$out")"
	echo
	echo "Kernel: $KSRC_PKG $(ksrc_version), the $(tree_name) tree" \
		"($(series_files | grep -c .) patches of patches/series); QEMU TCG, -cpu max."
	awk -F'\t' '{ n[$3]++ }
		END { printf "\nAll checks: %d passed, %d failed, %d skipped.\n", n["PASS"], n["FAIL"], n["SKIP"] }' \
		"$out/results.tsv"
	if [ -s "$out/run-manifest.tsv" ]; then
		echo
		echo "## The run"
		echo
		md_table "| what | |" <"$out/run-manifest.tsv"
	fi
	for dir in "$out"/*/; do
		[ -f "$dir/serial.log" ] || continue
		k=$(basename "$dir")
		echo
		echo "## Kernel \`$k\`"
		echo
		# one row per in-guest test: its duration from the guest's own
		# line, its checks from results.tsv (kmemleak.after_<test> is the
		# test's too)
		sed -n 's/^pddt: test \([a-z_0-9]*\): exit \([0-9]*\) after \([0-9.]*\)s$/\1\t\2\t\3/p' \
			"$dir/serial.log" |
			while IFS="$(printf '\t')" read -r t rc secs; do
				awk -F'\t' -v src="$k/guest" -v t="$t" -v rc="$rc" -v secs="$secs" '
					$1 == src && (index($2, t ".") == 1 || $2 == t || $2 == "kmemleak.after_" t) { n[$3]++ }
					END { printf "%s\t%.0f s\t%d\t%d\t%d\t%s\n", t, secs, n["PASS"], n["FAIL"], n["SKIP"], rc }' \
					"$out/results.tsv"
			done | md_table "| test | took | passed | failed | skipped | exit |"
		echo
		awk -F'\t' -v k="$k" '$1 ~ "^" k "/" { n[$1 "\t" $3]++ }
			END { for (s in n) print s "\t" n[s] }' "$out/results.tsv" | sort |
			md_table "| source | outcome | checks |"
		echo
		echo "### Every check"
		echo
		awk -F'\t' -v k="$k" '$1 ~ "^" k "/" { print $2 "\t" $3 "\t" $4 }' "$out/results.tsv" |
			md_table "| check | outcome | detail |"
	done
} >"$rep"
note "report: $rep"
