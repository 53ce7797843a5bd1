#!/bin/sh
# /bench/fio MODE REP: the user's fio job (make bench FIO=job.fio, here as
# /etc/pddt/job.fio), run in a fresh directory on the fast disk
# (/mnt/fast/fio; a job's own directory= or filename= takes precedence).
# fio's JSON output goes to $PDDT_BENCH/fio-MODE-REP.json; the host reads
# it into summary.tsv (scripts/fio.sh summary).
[ $# -eq 2 ] || { echo "usage: fio MODE REP" >&2; exit 2; }
B=${PDDT_BENCH:-/results/bench}
job=/etc/pddt/job.fio
[ -f "$job" ] || { echo "fio: no $job" >&2; exit 2; }
dir=/mnt/fast/fio
rm -rf "$dir"
mkdir -p "$dir" || exit 1
cd "$dir" || exit 1
fio --eta=never --output-format=json --output="$B/fio-$1-$2.json" "$job"
rc=$?
cd / && rm -rf "$dir"
exit $rc
