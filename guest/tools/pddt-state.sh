#!/bin/sh
# pddt-state - the settings a test or a bench run may change, and the queue
# profile of the slow disks. /init records them once the disks are set up
# and puts them back before each test, so that nothing one test sets
# reaches the next.
#
#   pddt-state profile usb|virtio   the queue of the slow disks (below)
#   pddt-state save FILE            record the settings, one "path value"
#   pddt-state restore FILE         write them back; exit 1 naming each
#                                   one that does not read back
#   pddt-state show                 one line: queues, shares, time budgets,
#                                   and the dirty and writeback pages
#   pddt-state queue NAME           the sysfs queue directory of disk NAME
#   pddt-state bdi NAME             and its bdi's (/sys/class/bdi/M:m)
#
# The settings: the vm dirty sysctls (of each ratio/bytes pair the one in
# force; the series' dirty_light_percent and dirty_device_time_ms where the
# kernel has them), each disk's bdi min_ratio, max_ratio and strict_limit,
# and each disk's nr_requests and max_sectors_kb. The disks are
# $PDDT_DISKS, found at /dev/pddt/NAME.
#
# The slow disks are USB sticks: a USB 2 stick (usb-storage) takes one
# command of at most 120 KiB at a time, and the block layer's shallowest
# queue is 4 requests. Profile usb gives the slow disks 4 requests of at
# most 120 KiB; virtio puts back what the virtio disk had at boot (256
# requests of 1280 KiB), recorded in /run/pddt/virtio-queue by the first
# call. The fast disks keep virtio's queue.
USB_NR_REQUESTS=4
USB_MAX_SECTORS_KB=120
VIRTIO=/run/pddt/virtio-queue

err() { echo "pddt-state: $*" >&2; }

# queue_of NAME, bdi_of NAME: disk NAME's sysfs queue and bdi directories
# (/dev/pddt/NAME links to /dev/vdX); fail, saying so, for no such disk.
queue_of() {
	dev=$(readlink -f "/dev/pddt/$1") && [ -d "/sys/block/${dev##*/}/queue" ] ||
		{ err "no disk $1 (/dev/pddt/$1)"; return 1; }
	echo "/sys/block/${dev##*/}/queue"
}
bdi_of() {
	q=$(queue_of "$1") || return 1
	echo "/sys/class/bdi/$(cat "$q/../dev")"
}

# settings: the files saved and restored, in the order they are written
# back (a bdi's min_ratio before its max_ratio).
settings() {
	v=/proc/sys/vm
	for p in dirty_bytes:dirty_ratio dirty_background_bytes:dirty_background_ratio; do
		b=$v/${p%%:*}
		if [ "$(cat "$b")" != 0 ]; then echo "$b"; else echo "$v/${p#*:}"; fi
	done
	for f in dirty_expire_centisecs dirty_writeback_centisecs dirty_light_percent \
		dirty_device_time_ms; do
		[ -e "$v/$f" ] && echo "$v/$f"
	done
	for d in $PDDT_DISKS; do
		b=$(bdi_of "$d") && q=$(queue_of "$d") || return 1
		echo "$b/min_ratio"
		echo "$b/max_ratio"
		echo "$b/strict_limit"
		echo "$q/nr_requests"
		echo "$q/max_sectors_kb"
	done
}

save() {
	list=$(settings) || return 1
	for f in $list; do
		printf '%s %s\n' "$f" "$(cat "$f")"
	done >"$1"
}

restore() {
	[ -s "$1" ] || { err "no saved settings in '$1'"; return 1; }
	bad=0
	while read -r f want; do
		[ "$(cat "$f" 2>/dev/null)" = "$want" ] && continue
		echo "$want" >"$f" 2>/dev/null
		got=$(cat "$f" 2>/dev/null)
		[ "$got" = "$want" ] || { err "$f: wrote $want, reads ${got:-nothing}"; bad=1; }
	done <"$1"
	return $bad
}

# profile usb|virtio: the queue of each slow disk.
profile() {
	mkdir -p "$VIRTIO"
	bad=0
	for d in $PDDT_DISKS; do
		case $d in slow*) ;; *) continue ;; esac
		q=$(queue_of "$d") || return 1
		[ -s "$VIRTIO/$d" ] || echo "$(cat "$q/nr_requests") $(cat "$q/max_sectors_kb")" >"$VIRTIO/$d"
		case $1 in
		usb) nr=$USB_NR_REQUESTS kb=$USB_MAX_SECTORS_KB ;;
		virtio) read -r nr kb <"$VIRTIO/$d" ;;
		*) err "profile '$1': usb or virtio expected"; return 2 ;;
		esac
		echo "$kb" >"$q/max_sectors_kb" && echo "$nr" >"$q/nr_requests" &&
			[ "$(cat "$q/nr_requests") $(cat "$q/max_sectors_kb")" = "$nr $kb" ] ||
			{ err "disk $d: queue of $nr requests of $kb KiB not taken"; bad=1; }
	done
	return $bad
}

show() {
	for d in $PDDT_DISKS; do
		q=$(queue_of "$d") || continue
		dev=$(cat "$q/../dev")
		st=/sys/kernel/debug/bdi/$dev/stats
		printf '%s: queue %s x %s KiB, share %s kB, budget %s kB (%s wbs); ' "$d" \
			"$(cat "$q/nr_requests")" "$(cat "$q/max_sectors_kb")" \
			"$(awk '/^BdiDirtyThresh:/ { print $2 }' "$st" 2>/dev/null)" \
			"$(awk '/^BdiDirtyLimit:/ { print $2 }' "$st" 2>/dev/null)" \
			"$(awk '/^BdiLimitedWbs:/ { print $2 }' "$st" 2>/dev/null)"
	done
	awk '/^(Dirty|Writeback):/ { printf "%s %s kB ", $1, $2 }' /proc/meminfo
	echo
}

case ${1:-}:$# in
profile:2) profile "$2" ;;
save:2) save "$2" ;;
restore:2) restore "$2" ;;
show:1) show ;;
queue:2) queue_of "$2" ;;
bdi:2) bdi_of "$2" ;;
*)
	err "usage: pddt-state profile usb|virtio | save FILE | restore FILE | show | queue NAME | bdi NAME"
	exit 2
	;;
esac
