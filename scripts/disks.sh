#!/bin/sh
# Disk specifications: DISKS="NAME:WRITE_BPS[:SIZE[:FS]] ...".
#   NAME       [a-z][a-z0-9_]*, at most 20 characters (the virtio serial);
#              'results' is the harness's own disk
#   WRITE_BPS  write bandwidth QEMU enforces, bytes/s, suffix K, M or G
#              (powers of 1024); 0 = unthrottled
#   SIZE       sparse image size (default 2G), suffix K, M or G
#   FS         ext4 (default: made on the host, mounted at /mnt/NAME) or raw
#
# disks.sh check SPEC...   print one normalised line per disk:
#                          "NAME BPS BYTES FS"; a malformed spec is an error
# disks.sh make DIR SPEC   check, then create DIR/NAME.img for each disk
. "$(dirname "$0")/lib.sh"

# bytes NUMBER[KMG]: print the value in bytes, or fail.
bytes() {
	[ ${#1} -le 13 ] || return 1
	case $1 in
	'' | *[!0-9KMG]* | [KMG]* | *[KMG]?*) return 1 ;;
	*K) echo $((${1%K} * 1024)) ;;
	*M) echo $((${1%M} * 1048576)) ;;
	*G) echo $((${1%G} * 1073741824)) ;;
	*) echo $(($1)) ;;
	esac
}

check() {
	[ $# -gt 0 ] || die "DISKS is empty: at least one disk is needed"
	[ $# -le 8 ] || die "DISKS names $# disks: at most 8"
	seen=" "
	for spec in "$@"; do
		bad="DISKS entry '$spec'"
		IFS=: read -r name bps size fs extra <<-EOF2
		$spec
		EOF2
		[ -z "$extra" ] || die "$bad: too many fields (NAME:WRITE_BPS[:SIZE[:FS]])"
		case $name in
		'' | [!a-z]* | *[!a-z0-9_]*) die "$bad: NAME must match [a-z][a-z0-9_]*" ;;
		results) die "$bad: 'results' is reserved for the harness" ;;
		esac
		[ ${#name} -le 20 ] || die "$bad: NAME longer than 20 characters"
		case $seen in *" $name "*) die "$bad: disk '$name' named twice" ;; esac
		seen="$seen$name "
		[ -n "$bps" ] || die "$bad: WRITE_BPS missing (NAME:WRITE_BPS[:SIZE[:FS]])"
		b=$(bytes "$bps") || die "$bad: WRITE_BPS '$bps' is not a number with optional K, M or G"
		s=$(bytes "${size:-2G}") || die "$bad: SIZE '$size' is not a number with optional K, M or G"
		[ "$s" -ge 67108864 ] || die "$bad: SIZE below 64M"
		case ${fs:-ext4} in
		ext4 | raw) ;;
		*) die "$bad: FS '$fs' is not ext4 or raw" ;;
		esac
		echo "$name $b $s ${fs:-ext4}"
	done
}

make_images() {
	dir=$1
	shift
	list=$(check "$@") || exit 1
	mkdir -p "$dir"
	echo "$list" | while read -r name bps size fs; do
		img=$dir/$name.img
		rm -f "$img"
		truncate -s "$size" "$img" || die "cannot create $img"
		if [ "$fs" = ext4 ]; then
			# Initialise everything now: ext4lazyinit writing in the
			# background would skew a throttled disk's figures.
			mkfs.ext4 -q -F -L "$name" -E lazy_itable_init=0,lazy_journal_init=0 \
				"$img" || die "mkfs.ext4 $img failed"
		fi
	done
}

cmd=$1
shift
case $cmd in
check) check "$@" ;;
make) make_images "$@" ;;
*) die "usage: disks.sh check SPEC... | disks.sh make DIR SPEC..." ;;
esac
