#!/bin/sh
# fieldkit - the field kit (make fieldkit, at /fieldkit) run as a tester
# runs it: its own command line, on the guest's mounted disks, in its short
# form (--minutes 1 --quick, one repetition). The sysctls start at values
# of neither mode, so that putting them back shows:
#  - bad input (a missing or unknown argument, bad minutes, a missing
#    directory, both directories on one device, no tracefs) is refused with its
#    message, creates no output and changes no sysctl;
#  - a run sent SIGTERM mid-scenario exits 130, puts the sysctls back,
#    leaves no file of its own and no scenario process;
#  - a whole run (--verify) exits 0, writes report.md with both
#    scenarios, puts the sysctls back and leaves no file; /bench/judge
#    judges each of its runs as it judges the bench's (exited 0, figures,
#    every file read back intact).
# On a kernel without the series, or without debugfs, the kit must refuse,
# changing nothing.
# Refusing a user who is not root is checked on the host (tests/harness).
K=/fieldkit/pddt-field
R=/results/fieldkit
V=/proc/sys/vm
fails=0
res() { /bin/pddt-result "fieldkit.$1" "$2" "$3"; }
check() { # NAME RC DETAIL: PASS if RC is 0
	if [ "$2" = 0 ]; then
		res "$1" PASS "$3"
	else
		res "$1" FAIL "$3"
		fails=$((fails + 1))
	fi
}
rm -rf "$R"
mkdir -p "$R"
[ -x "$K" ] || { res present FAIL "no $K in the initramfs"; exit 1; }

if [ ! -e "$V/dirty_device_time_ms" ]; then
	"$K" --fast /mnt/fast --slow /mnt/slow --out "$R/stock" >"$R/stock.txt" 2>&1
	rc=$?
	[ "$rc" = 1 ] && [ ! -e "$R/stock" ] && grep -q "lacks the per-device dirty throttling series" "$R/stock.txt"
	check refuses_a_kernel_without_the_series $? "exit $rc: $(tail -n 1 "$R/stock.txt")"
	exit $((fails > 0))
fi
if [ ! -d /sys/kernel/debug/bdi ]; then
	"$K" --fast /mnt/fast --slow /mnt/slow --out "$R/nodebugfs" >"$R/nodebugfs.txt" 2>&1
	rc=$?
	[ "$rc" = 1 ] && [ ! -e "$R/nodebugfs" ] && grep -q "mount debugfs" "$R/nodebugfs.txt"
	check refuses_without_debugfs $? "exit $rc: $(tail -n 1 "$R/nodebugfs.txt")"
	exit $((fails > 0))
fi

echo 8 >"$V/dirty_light_percent"
echo 700 >"$V/dirty_device_time_ms"
want="8 700"
state() { echo "$(cat "$V/dirty_light_percent") $(cat "$V/dirty_device_time_ms")"; }
[ "$(state)" = "$want" ] || { res preset FAIL "sysctls read '$(state)', not '$want'"; exit 1; }
# the kit's own files left in the two directories, and its processes
leftover() {
	ls /mnt/fast /mnt/slow | grep -E '^(inter_device|saver|ticker|rate[48]|streaming[0-3]?|pddt-field-bw)\.dat$'
	# no pgrep in the initramfs: every process's command line, read here
	for c in /proc/[0-9]*/cmdline; do
		case $(tr '\0' ' ' 2>/dev/null <"$c") in
		*/fieldkit/bin/*) echo "a scenario process (${c%/cmdline})" ;;
		esac
	done
}

# bad NAME WANT_RC TEXT ARGS...: refused with TEXT, nothing changed
bad() {
	n=$1 w=$2 t=$3
	shift 3
	"$K" "$@" --out "$R/$n" >"$R/$n.txt" 2>&1
	rc=$?
	[ "$rc" = "$w" ] && grep -q -- "$t" "$R/$n.txt" && [ "$(state)" = "$want" ] && [ ! -e "$R/$n" ]
	check "rejects_$n" $? "exit $rc (wanted $w), sysctls '$(state)': $(tail -n 1 "$R/$n.txt")"
}
bad no_slow 2 "are required" --fast /mnt/fast
bad unknown_argument 2 "unknown argument" --fast /mnt/fast --slow /mnt/slow --bogus
bad bad_minutes 2 "whole number" --fast /mnt/fast --slow /mnt/slow --minutes x
bad missing_directory 1 "not a writable directory" --fast /mnt/fast --slow /mnt/nosuch
bad one_device 1 "same device" --fast /mnt/fast --slow /mnt/fast/lost+found
# the kit traces balance_dirty_pages (inter_process): without tracefs, refused
if umount /sys/kernel/tracing; then
	bad no_tracefs 1 "mount tracefs" --fast /mnt/fast --slow /mnt/slow
	mount -t tracefs tracefs /sys/kernel/tracing
	[ -e /sys/kernel/tracing/trace ]
	check tracefs_mounted_again $? "tracefs back at /sys/kernel/tracing"
else
	check rejects_no_tracefs 1 "cannot unmount /sys/kernel/tracing to try it"
fi

# interrupted once its first scenario's writer has begun (bounded wait)
"$K" --fast /mnt/fast --slow /mnt/slow --minutes 1 --quick --out "$R/interrupted" \
	>"$R/interrupted.txt" 2>&1 &
pid=$!
i=0
while [ "$i" -lt 1200 ] && [ ! -e /mnt/fast/inter_device.dat ] && kill -0 "$pid" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
started=$([ -e /mnt/fast/inter_device.dat ] && echo yes || echo no)
kill -TERM "$pid"
wait "$pid"
rc=$?
left=$(leftover)
[ "$started" = yes ] && [ "$rc" = 130 ] && [ "$(state)" = "$want" ] && [ -z "$left" ]
check interrupted_puts_back $? "writer started: $started; exit $rc; sysctls '$(state)'; left: ${left:-nothing}"

"$K" --fast /mnt/fast --slow /mnt/slow --minutes 1 --quick --verify --out "$R/run" >"$R/run.txt" 2>&1
rc=$?
check run_exits_0 "$rc" "exit $rc: $(tail -n 1 "$R/run.txt")"
grep -q '^## inter_device' "$R/run/report.md" 2>/dev/null &&
	grep -q '^## inter_process' "$R/run/report.md"
check run_report "$?" "report.md with both scenarios: $(grep -c '^## ' "$R/run/report.md" 2>/dev/null) sections"
left=$(leftover)
[ "$(state)" = "$want" ] && [ -z "$left" ]
check run_puts_back $? "sysctls '$(state)'; left: ${left:-nothing}"
PDDT_JUDGE=fieldkit.run /bench/judge "$R/run" >"$R/judged.tsv"
[ $? = 0 ] || fails=$((fails + 1))
while IFS='	' read -r name status detail; do
	/bin/pddt-result "$name" "$status" "$detail"
done <"$R/judged.tsv"
exit $((fails > 0))
