#!/bin/sh
# Requests from the guest to the host, sent on QEMU's QMP socket.
#
# qmp.sh relay SOCKET ACK DISKS...
#                               copy the guest's console lines from stdin to
#                               stdout; a line "pddt-qmp: throttle NAME BPS"
#                               sets disk NAME's write bandwidth to BPS
#                               bytes/s (0: unthrottled) with
#                               block_set_io_throttle; NAME must be one of
#                               DISKS. The outcome is printed as a line, and
#                               answered to the guest as "pddt-ack: throttle
#                               NAME BPS: OUTCOME" ("ok" once in force) into
#                               ACK, the pipe of its second serial port.
# qmp.sh throttle SOCKET NAME BPS   the same, once, printed only.
. "$(dirname "$0")/lib.sh"

# throttle SOCKET NAME BPS: one QMP session; prints QEMU's answer.
throttle() {
	/usr/bin/python3 - "$@" <<'EOF'
import json, socket, sys
sock, name, bps = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sock)
f = s.makefile("rw")
f.readline()  # the greeting
def cmd(c, **args):
    f.write(json.dumps({"execute": c, "arguments": args}) + "\n")
    f.flush()
    while True:  # skip asynchronous events
        r = json.loads(f.readline())
        if "return" in r or "error" in r:
            return r
cmd("qmp_capabilities")
r = cmd("block_set_io_throttle", device=name, bps=0, bps_rd=0, bps_wr=bps,
        iops=0, iops_rd=0, iops_wr=0)
print("error: " + r["error"]["desc"] if "error" in r else "ok")
EOF
}

request() {
	sock=$1 name=$2 bps=$3
	shift 3
	case " $* " in *" $name "*) ;; *) echo "not a disk of this boot: '$name'"; return 1 ;; esac
	case $bps in '' | *[!0-9]*) echo "BPS '$bps' is not a number"; return 1 ;; esac
	[ ${#bps} -le 12 ] || { echo "BPS '$bps' is too large"; return 1; }
	throttle "$sock" "$name" "$bps" 2>&1 | tail -n 1
}

relay() {
	sock=$1 ack=$2
	shift 2
	# held open read-write: a write neither blocks nor fails once QEMU,
	# the pipe's reader, has exited
	command exec 3<>"$ack" || die "cannot open $ack"
	while IFS= read -r line; do
		printf '  | %s\n' "$line"
		case $line in
		'pddt-qmp: throttle '*)
			rest=${line#pddt-qmp: throttle }
			name=${rest%% *}
			bps=${rest#"$name"}
			bps=${bps# }
			outcome=$(request "$sock" "$name" "$bps" "$@")
			printf '  | pddt: host: throttle %s %s: %s\n' "$name" "$bps" "$outcome"
			printf 'pddt-ack: throttle %s %s: %s\n' "$name" "$bps" "$outcome" >&3
			;;
		'pddt-qmp: '*) printf '  | pddt: host: unknown request\n' ;;
		esac
	done
}

cmd=$1
shift
case $cmd in
relay) relay "$@" ;;
throttle) request "$1" "$2" "$3" "$2" ;;
*) die "usage: qmp.sh relay SOCKET ACK DISKS... | qmp.sh throttle SOCKET NAME BPS" ;;
esac
