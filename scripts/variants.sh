#!/usr/bin/env bash
# The kernel variants of kernel/variants, in order: the one place that file
# is parsed for its names (the runner reads its [BASE] lines by the same
# rules, bench/matrix/matrixcheck.c). A line "[BASE]" (a row of
# kernel/bases) starts the variants of that base only, to the next such
# line; the lines before the first are of every base.
#   scripts/variants.sh [--lines]  the variants of base KERNEL_BASE (by
#       default kernel/bases' first row; a base it does not have, the
#       variants of every base): comma-separated, or one a line
#   scripts/variants.sh --all       every variant of every base, one a line
#   scripts/variants.sh --one-base  "NAME BASE LINE" of each variant of one
#       base only
# Refused, naming the line: a "[BASE]" that is no row of kernel/bases, a
# variant defined twice.
set -euo pipefail
here=$(dirname "$0")
# shellcheck source=scripts/table.sh
. "$here/table.sh"
bases=$(table_keys "$here/../kernel/bases" | paste -sd" ")
# "NAME BASE LINE" per variant, BASE "-" for every base
rows=$(awk -v bases="$bases" '
	function die(msg) {
		printf "scripts/variants.sh: error: kernel/variants line %d: %s\n", NR, msg >"/dev/stderr"
		failed = 1
		exit 2
	}
	BEGIN { n = split(bases, b, " "); for (i = 1; i <= n; i++) known[b[i]] = 1 }
	/^#/ || !NF { next }
	/^\[/ {
		if (NF != 1 || $1 !~ /^\[[^][]+\]$/)
			die("\"" $0 "\" is not a line [BASE] (one row of kernel/bases in brackets, alone on its line)")
		base = substr($1, 2, length($1) - 2)
		if (!(base in known))
			die("[" base "]: not a kernel base; known bases: " bases " (the rows of kernel/bases)")
		next
	}
	$1 in at { die("variant " $1 " is defined twice, here and on line " at[$1] " (one line a variant)") }
	{ at[$1] = NR; print $1, (base == "" ? "-" : base), NR }
	END { if (failed) exit 2 }' "$here/../kernel/variants")
case ${1:-} in
--all) awk 'NF {print $1}' <<<"$rows" ;;
--one-base) awk 'NF && $2 != "-"' <<<"$rows" ;;
"" | --lines)
	base=${KERNEL_BASE:-${bases%% *}}
	list=$(awk -v b="$base" '$2 == "-" || $2 == b {print $1}' <<<"$rows")
	if [ "${1:-}" = --lines ]; then echo "$list"; else paste -sd, <<<"$list"; fi
	;;
*)
	echo "usage: scripts/variants.sh [--lines | --all | --one-base]" >&2
	exit 2
	;;
esac
