#!/bin/sh
# report.sh RUNDIR: RUNDIR/report.md and its PNG plots from the figures the
# guest wrote there (summary.tsv, *.csv, conditions.tsv, failures.tsv) and
# task_struct.tsv. Every number in the report is read from those files.
# report.sh --tracked RUNDIR prints only the table of tracked figures (the
# README's headline table is that of a named run).
. "$(dirname "$0")/lib.sh"
only=
[ "${1:-}" = --tracked ] && { only=tracked; shift; }
run=${1:-}
[ -n "$run" ] && [ -f "$run/summary.tsv" ] || die "usage: report.sh [--tracked] RUNDIR (with summary.tsv)"
AIMS=${AIMS:-$TOP/guest/bench/aims.tsv}
[ -f "$AIMS" ] || die "no $AIMS"
md=$run/report.md

# awk: the median of a[1..c] (sorted in place), or "" when c is 0.
MEDIAN='
function median(a, c,    i, j, t) {
	if (!c) return ""
	for (i = 2; i <= c; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
}'

# One table per scenario: each figure's median per mode, and its ratio to off.
tables() {
	awk -F'\t' "$MEDIAN"'
	{ k = $1 SUBSEP $4; v[k, $2, ++n[k, $2]] = $5; unit[k] = $6
	  if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
	  if (!(($1, $2) in sm)) { sm[$1, $2] = 1; modes[$1] = modes[$1] " " $2 } }
	function med(k, m,    c, i, a) {
		c = n[k, m]
		for (i = 1; i <= c; i++) a[i] = v[k, m, i]
		return median(a, c)
	}
	function fmt(x) { return x == "" ? "" : sprintf("%.4g", x) }
	END {
		for (i = 1; i <= nk; i++) {
			split(order[i], p, SUBSEP); sc = p[1]; me = p[2]
			if (sc != last) {
				nm = split(modes[sc], ms, " ")
				printf "\n## %s\n\n| figure | unit |", sc
				for (j = 1; j <= nm; j++) printf " %s |", ms[j]
				for (j = 1; j <= nm; j++) if (ms[j] != "off") printf " %s/off |", ms[j]
				printf "\n|---|---|"
				for (j = 1; j <= nm; j++) printf "---:|"
				for (j = 1; j <= nm; j++) if (ms[j] != "off") printf "---:|"
				printf "\n"; last = sc
			}
			k = order[i]; off = med(k, "off")
			printf "| %s | %s |", me, unit[k]
			for (j = 1; j <= nm; j++) printf " %s |", fmt(med(k, ms[j]))
			for (j = 1; j <= nm; j++) if (ms[j] != "off") {
				x = med(k, ms[j]); printf " %s |", (off != "" && off != 0 && x != "") ? sprintf("%.3f", x / off) : ""
			}
			printf "\n"
		}
	}' "$run/summary.tsv"
}

# The tracked figures (guest/bench/aims.tsv), one row each: the figure off
# (stock) beside the figure measured, each the median over the repetitions
# with their min and max; a ratio to another mode is taken per repetition.
# The aim is met when every repetition meets it, not met when none does,
# and not resolved when the spread crosses it.
tracked() {
	echo "| figure | stock (off) | measured | aim | |"
	echo "|---|---:|---:|---|---|"
	grep -v '^#' "$AIMS" | while IFS='	' read -r label sc me mo op b dm; do
		# a scenario this run did not run has no row
		cut -f1 "$run/summary.tsv" | grep -qxF "$sc" || continue
		awk -F'\t' -v l="$label" -v sc="$sc" -v me="$me" -v mo="$mo" -v op="$op" -v b="$b" \
			-v dm="$dm" "$MEDIAN"'
		$1 == sc && $4 == me { V[$2, $3] = $5; R[$3] = 1 }
		# "median (min-max)" of the figure of mode m (over dm), or "" if none
		function spread(m,    r, c, a, x, lo, hi) {
			c = 0
			for (r in R) {
				if (!((m, r) in V)) continue
				x = V[m, r]
				if (dm != "") { if (!((dm, r) in V) || V[dm, r] == 0) continue; x /= V[dm, r] }
				a[++c] = x
				if (c == 1 || x < lo) lo = x
				if (c == 1 || x > hi) hi = x
				met += (op == "<=") ? x <= b + 0 : x >= b + 0
			}
			n = c
			if (!c) return ""
			x = median(a, c)
			return c == 1 ? sprintf("%.3f", x) : sprintf("%.3f (%.3f-%.3f)", x, lo, hi)
		}
		END {
			stock = (dm == "" && mo != "off") ? spread("off") : "-"
			if (stock == "") stock = "not measured"
			met = 0
			x = spread(mo)
			if (x == "") { printf "| %s | %s | not measured | %s %s | |\n", l, stock, op, b; exit }
			v = met == n ? "met" : met == 0 ? "**not met**" : "**not resolved**"
			printf "| %s | %s | %s | %s %s | %s |\n", l, stock, x, op, b, v
		}' "$run/summary.tsv"
	done
}

# The modes of a per-disk CSV (mode,rep,t,disk,...) that have a rep 1.
modes_of() { awk -F, 'NR > 1 && $2 == 1 { print $1 }' "$1" | sort -u; }
# split_disks CSV MODE: rep 1 of MODE, one .plot-MODE-DISK.csv per disk.
split_disks() {
	for d in slow fast; do
		awk -F, -v m="$2" -v d="$d" 'NR > 1 && $1 == m && $2 == 1 && $4 == d' "$1" >".plot-$2-$d.csv"
	done
}

plots() {
	command -v gnuplot >/dev/null || { echo "(no gnuplot: no plots)"; return; }
	cd "$run" || return
	if [ -f inter_device-dirty.csv ]; then
		for m in $(modes_of inter_device-dirty.csv); do
			split_disks inter_device-dirty.csv "$m"
			gnuplot <<-EOF2
			set terminal png size 800,450 noenhanced
			set output "inter_device-dirty-$m.png"
			set datafile separator ","
			set title "inter_device, mode $m, rep 1: dirty+writeback per disk vs its share and time budget"
			set xlabel "s"; set ylabel "kB"; set key outside bottom center horizontal
			plot ".plot-$m-slow.csv" using 3:5 with lines title "slow dirty", \
			     "" using 3:6 with lines title "slow BdiDirtyThresh", \
			     "" using 3:7 with lines title "slow BdiDirtyLimit", \
			     ".plot-$m-fast.csv" using 3:5 with lines title "fast dirty"
			EOF2
			rm -f ".plot-$m-slow.csv" ".plot-$m-fast.csv"
			echo "![inter_device $m](inter_device-dirty-$m.png)"
		done
	fi
	if [ -f adaptivity-share.csv ]; then
		for m in $(modes_of adaptivity-share.csv); do
			split_disks adaptivity-share.csv "$m"
			gnuplot <<-EOF2
			set terminal png size 800,450 noenhanced
			set output "adaptivity-$m.png"
			set datafile separator ","
			set title "adaptivity, mode $m, rep 1: share and time budget per disk; bandwidths swapped at t = 0"
			set xlabel "s"; set ylabel "kB"; set key outside bottom center horizontal
			set arrow from 0, graph 0 to 0, graph 1 nohead dashtype 2
			plot ".plot-$m-slow.csv" using 3:6 with lines title "slow BdiDirtyThresh", \
			     "" using 3:7 with lines title "slow BdiDirtyLimit", \
			     ".plot-$m-fast.csv" using 3:6 with lines title "fast BdiDirtyThresh", \
			     "" using 3:7 with lines title "fast BdiDirtyLimit", \
			     "" using 3:5 with lines title "fast dirty"
			EOF2
			rm -f ".plot-$m-slow.csv" ".plot-$m-fast.csv"
			echo "![adaptivity $m](adaptivity-$m.png)"
		done
	fi
	if [ -f heavy-progress.csv ]; then
		for m in off on; do
			awk -F, -v m="$m" 'NR > 1 && $1 == m && $2 == 1 && $3 == 4' heavy-progress.csv >".plot-$m.csv"
			[ -s ".plot-$m.csv" ] || { rm -f ".plot-$m.csv"; continue; }
			gnuplot <<-EOF2
			set terminal png size 800,450 noenhanced
			set output "heavy-progress-$m.png"
			set datafile separator ","
			set title "heavy, 4 writers on the slow disk, mode $m, rep 1: cumulative MiB per task"
			set xlabel "s"; set ylabel "MiB"; set key left top
			plot for [i=0:3] ".plot-$m.csv" using (\$5 == i ? \$4 : 1/0):6 with lines title sprintf("task %d", i)
			EOF2
			rm -f ".plot-$m.csv"
			echo "![heavy $m](heavy-progress-$m.png)"
		done
	fi
	if [ -f inter_process-latency.csv ]; then
		for w in saver ticker; do
			for m in $(awk -F, 'NR > 1 { print $1 }' inter_process-latency.csv | sort -u) idle; do
				phs="beside1 beside4"
				[ "$m" != idle ] || phs=idle
				for ph in $phs; do
					f=".cdf-$w-$m-$ph.dat"
					[ "$m" != idle ] || f=".cdf-$w-idle.dat"
					awk -F, -v w="$w" -v m="$m" -v ph="$ph" '
					NR > 1 && (m == "idle" || $1 == m) && $3 == ph && $4 == w { print $5 }' inter_process-latency.csv |
						sort -g | awk '{ x[NR] = $1 } END { for (i = 1; i <= NR; i++) print x[i], i / NR }' >"$f"
				done
			done
			gnuplot <<-EOF2
			set terminal png size 800,450 noenhanced
			set output "inter_process-cdf-$w.png"
			set title "inter_process: $w write latency CDF (mode-phase, all reps; idle: every mode)"
			set xlabel "ms"; set ylabel "fraction"; set yrange [0:1]; set logscale x; set key right bottom
			plot for [f in system("ls .cdf-$w-*.dat")] f using 1:2 with steps title f[7+strlen("$w"):strlen(f)-4]
			EOF2
			rm -f .cdf-"$w"-*.dat
			echo "![inter_process $w](inter_process-cdf-$w.png)"
		done
	fi
}

if [ "$only" = tracked ]; then
	tracked
	exit
fi
{
	echo "# Bench report: $(basename "$run")"
	echo
	echo "Every figure is the median over the repetitions of this run, measured in"
	echo "one boot, the modes interleaved. Ratios are against mode off (stock 6.12"
	echo "behaviour) of the same run. Where it ran: the conditions below."
	echo
	echo "## Conditions"
	echo
	echo "| | |"
	echo "|---|---|"
	awk -F'\t' '{ printf "| %s | %s |\n", $1, $2 }' "$run/conditions.tsv" "$run/run-manifest.tsv" 2>/dev/null
	if [ -s "$run/task_struct.tsv" ]; then
		awk -F'\t' '{ printf "| sizeof(struct task_struct), %s | %s bytes |\n", $1, $2 }' "$run/task_struct.tsv"
	fi
	if [ -s "$run/splats.txt" ]; then
		echo
		echo "## Kernel splats: this run fails"
		echo
		echo '```'
		head -n 80 "$run/splats.txt"
		echo '```'
	fi
	if [ -s "$run/failures.tsv" ]; then
		echo
		echo "## Runs that failed"
		echo
		awk -F'\t' '{ printf "- %s, mode %s, rep %s: %s\n", $1, $2, $3, $4 }' "$run/failures.tsv"
	fi
	echo
	echo "## Tracked figures (aims, not pass/fail tests)"
	echo
	echo "Median over the repetitions (min-max); met: every repetition meets the"
	echo "aim; not resolved: the spread crosses it."
	echo
	tracked
	tables
	echo
	echo "## Plots"
	echo
	plots
	echo
	echo "Raw data: summary.tsv (one row per figure and repetition) and the CSVs beside this file."
} >"$md"
note "report: $md"
