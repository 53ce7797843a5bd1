#!/bin/sh
# A user's fio job file in the bench (`make bench FIO=job.fio`).
# Usage:
#   fio.sh check JOB          the job file exists and fio parses it
#   fio.sh initramfs JOB OUT  OUT: a cpio with fio, every library it loads
#                             and the job as /etc/pddt/job.fio
#   fio.sh summary RUNDIR     RUNDIR/fio-MODE-REP.json (fio's own output)
#                             as rows of RUNDIR/summary.tsv, scenario fio
# Debian's fio is dynamically linked (ceph, rdma, ...: about 80 MB with its
# libraries), so it is added to the initramfs only when FIO= is given.
. "$(dirname "$0")/lib.sh"

FIO_BIN=${FIO_BIN:-/usr/bin/fio}

check() {
	[ -n "$1" ] || die "FIO=: empty; give a fio job file"
	[ -f "$1" ] && [ -r "$1" ] || die "FIO='$1': no such readable file"
	[ -x "$FIO_BIN" ] || die "no $FIO_BIN: install fio (scripts/deps.sh bench)"
	msg=$("$FIO_BIN" --parse-only "$1" 2>&1) ||
		die "FIO='$1': fio cannot parse it: $(echo "$msg" | head -n 3 | tr '\n' ' ')"
}

initramfs() {
	check "$1"
	list=$2.list
	# what goes in: target, source, mode; every library at the path the
	# host's loader found it, and the loader
	{
		echo "/etc/pddt/job.fio $(readlink -f "$1") 0644"
		echo "/usr/bin/fio $(readlink -f "$FIO_BIN") 0755"
		ldd "$FIO_BIN" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
			sort -u | while read -r lib; do echo "$lib $(readlink -f "$lib") 0755"; done
	} >"$list.files"
	# a directory before what it holds (the kernel makes no parents): all
	# directories first, sorted, as a path sorts before its extensions
	{
		while read -r f _; do
			d=$(dirname "$f")
			while [ "$d" != / ]; do echo "dir $d 0755 0 0"; d=$(dirname "$d"); done
		done <"$list.files" | sort -u
		awk '{ print "file", $1, $2, $3, 0, 0 }' "$list.files"
	} >"$list"
	rm -f "$list.files"
	"$BUILD/guest/gen_init_cpio" "$list" >"$2" || die "cannot build the fio cpio"
	note "fio initramfs part: $(grep -c '^file' "$list") files, $(($(stat -c %s "$2") / 1024)) KiB"
}

# Per job of each run: write (and read, if any) bandwidth in MiB/s, and the
# completion latency p50, p99 and max of one I/O in ms.
summary() {
	for f in "$1"/fio-*.json; do
		[ -f "$f" ] || continue
		b=$(basename "$f" .json)
		mode=$(echo "$b" | cut -d- -f2)
		rep=$(echo "$b" | cut -d- -f3)
		# fio puts its warnings before the JSON in the same file
		sed -n '/^{/,$p' "$f" | jq -r --arg m "$mode" --arg r "$rep" '
			.jobs[] | .jobname as $j |
			("read", "write") as $d | select(.[$d].io_bytes > 0) | .[$d] as $s |
			["fio", $m, $r, "\($j)_\($d)_bw", ($s.bw / 1024), "MiB/s"],
			["fio", $m, $r, "\($j)_\($d)_clat_p50", (($s.clat_ns.percentile["50.000000"] // -1e6) / 1e6), "ms"],
			["fio", $m, $r, "\($j)_\($d)_clat_p99", (($s.clat_ns.percentile["99.000000"] // -1e6) / 1e6), "ms"],
			["fio", $m, $r, "\($j)_\($d)_clat_max", ($s.clat_ns.max / 1e6), "ms"]
			| @tsv' >>"$1/summary.tsv" ||
			die "$f: not fio JSON output"
	done
}

case ${1:-} in
check) check "${2:-}" ;;
initramfs) [ -n "${3:-}" ] || die "usage: fio.sh initramfs JOB OUT"; initramfs "$2" "$3" ;;
summary) [ -d "${2:-}" ] || die "usage: fio.sh summary RUNDIR"; summary "$2" ;;
*) die "usage: fio.sh check JOB | initramfs JOB OUT | summary RUNDIR" ;;
esac
