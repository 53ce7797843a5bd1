#!/bin/sh
# `make fieldkit`: the field kit, build/fieldkit/pddt-field.tar.gz, for
# testers with real disks: the runner (field/pddt-field), the static
# scenario programs it runs (guest/bench: inter_device, inter_process), the
# report (scripts/report.sh and lib.sh, guest/bench/aims.tsv) and its
# README. The staged tree (build/fieldkit/pddt-field/) also goes into the
# guest's initramfs as /fieldkit, where make test runs it. Prints the
# tarball's path.
. "$(dirname "$0")/lib.sh"
KIT_PROGS="inter_device inter_process"
out=$BUILD/fieldkit
stage=$out/pddt-field
log=$BUILD/logs/fieldkit.log
mkdir -p "$out" "$BUILD/logs"

targets=
for p in $KIT_PROGS; do targets="$targets $BUILD/guest/bench/$p"; done
# shellcheck disable=SC2086
make -C "$TOP/guest" OUT="$BUILD/guest" $targets >"$log" 2>&1 || {
	tail -n 30 "$log" >&2
	die "the kit's programs failed to build (log: $log)"
}
rm -rf "$stage"
mkdir -p "$stage/bin"
for p in $KIT_PROGS; do cp "$BUILD/guest/bench/$p" "$stage/bin/"; done
cp "$TOP/field/pddt-field" "$TOP/field/README.md" "$TOP/scripts/report.sh" \
	"$TOP/scripts/lib.sh" "$TOP/guest/bench/aims.tsv" "$stage/" || die "cannot stage the kit"
printf 'pddt-field %s, series %s\n' \
	"$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)" \
	"$(series_hash)" >"$stage/VERSION"
tar -C "$out" -czf "$out/pddt-field.tar.gz.tmp" pddt-field || die "cannot write the tarball"
mv "$out/pddt-field.tar.gz.tmp" "$out/pddt-field.tar.gz"
note "field kit: $(cat "$stage/VERSION"), $(($(stat -c %s "$out/pddt-field.tar.gz") / 1024)) KiB"
echo "$out/pddt-field.tar.gz"
