#!/bin/sh
# Make the .config of one kernel: tinyconfig, then config/base.config, then
# patches/series.config (options the series adds; PATCHES=series only),
# then config/$CONFIG.config (when CONFIG is not base), then olddefconfig.
# Fails listing every requested option that did not end up in .config.
. "$(dirname "$0")/lib.sh"
check_patches_var
check_config_var

src=$(src_dir)
obj=$(obj_dir)
[ -f "$src/.pddt-stamp" ] || die "no kernel tree in $src: run scripts/tree.sh"
mkdir -p "$obj" "$BUILD/logs"

frags="$TOP/config/base.config"
if [ "$PATCHES" = series ] && [ -f "$PATCH_DIR/series.config" ]; then
	if [ -n "${UPTO:-}" ]; then
		# A prefix of the series (check-series): the options of later
		# patches do not exist yet; keep those the tree defines.
		part=$BUILD/obj/.series-upto-$UPTO.config
		defined=$(find "$src" -name 'Kconfig*' -exec cat {} + |
			sed -n 's/^\(menu\)\{0,1\}config \([A-Za-z0-9_]*\)$/CONFIG_\2/p')
		while IFS= read -r line; do
			opt=$(echo "$line" | sed -n 's/^\(# \)\{0,1\}\(CONFIG_[A-Za-z0-9_]*\).*/\2/p')
			[ -z "$opt" ] || echo "$defined" | grep -qxF "$opt" && echo "$line"
		done <"$PATCH_DIR/series.config" >"$part"
		frags="$frags $part"
	else
		frags="$frags $PATCH_DIR/series.config"
	fi
fi
[ "$CONFIG" = base ] || frags="$frags $TOP/config/$CONFIG.config"

tmp=$BUILD/obj/.kconfig-$(tree_name)-$CONFIG
rm -rf "$tmp"
mkdir -p "$tmp"
log=$BUILD/logs/kconfig-$(tree_name)-$CONFIG.log
{
	make -C "$src" O="$tmp" ARCH=x86_64 tinyconfig &&
	# shellcheck disable=SC2086
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$tmp" "$tmp/.config" $frags) &&
	make -C "$src" O="$tmp" ARCH=x86_64 olddefconfig
} >"$log" 2>&1 || {
	tail -n 30 "$log" >&2
	die "config failed (log: $log)"
}

# Every option a fragment asks for must be in the final .config.
# shellcheck disable=SC2086
bad=$(config_missing "$tmp/.config" $frags)
if [ -n "$bad" ]; then
	echo "$bad" >&2
	die "options above did not stick in the $CONFIG config (a dependency is missing)"
fi

# Replace .config only when it changed, so that make rebuilds nothing
# when nothing changed.
if cmp -s "$tmp/.config" "$obj/.config"; then
	note "config $CONFIG unchanged"
else
	cp "$tmp/.config" "$obj/.config"
	note "config $CONFIG written to $obj/.config"
fi
rm -rf "$tmp"
