#!/usr/bin/env bash
# Kernel build speed figures (make bench-build). Not a test: it prints
# ratios and times, measured here and now, in fresh caches under $TMPDIR.
#   1. one variant from cold (unpack + build stock)
#   2. all four variants from cold            -> ratio to 1 (goal <= 1.15)
#   3. all four again, nothing changed         (goal < 10 s)
#   4. one patch changed (0004, block-v0 only) -> which variants rebuilt
# KERNEL_ARCH=<kernel/arches row> measures another architecture (HZ=100,
# as bench/arches.matrix builds them).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/crngbench-bench-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
all=$(scripts/variants.sh)
now() { date +%s.%N; }
timed() { # label, cache, build.sh args...
	local label=$1 cache=$2; shift 2
	local t0 t1
	t0=$(now)
	CRNGBENCH_CACHE=$cache "$@" >"$tmp/$label.log" 2>&1 || { cat "$tmp/$label.log" >&2; exit 1; }
	t1=$(now)
	echo "$t1 - $t0" | bc
}
# shellcheck source=scripts/table.sh
. scripts/table.sh
export KERNEL_ARCH=${KERNEL_ARCH:-$(table_keys kernel/arches | head -n 1)}
guest=$(table_get kernel/arches "$KERNEL_ARCH" guest) || exit 2
# a probe-only guest's kernels are built at the arches matrix's HZ
[ "$guest" = systemd ] || export KERNEL_HZ=${KERNEL_HZ:-$(sed -n 's/^hz *= *//p' bench/arches.matrix)}
echo "[bench-build] $KERNEL_ARCH, $(nproc) CPUs; fresh caches in $tmp"
one=$(timed one "$tmp/c1" kernel/build.sh stock)
printf '  one variant from cold (stock):        %7.1f s\n' "$one"
four=$(timed four "$tmp/c4" kernel/build.sh "$all")
printf '  all four variants from cold:          %7.1f s  (%.2fx one; goal <= 1.15x)\n' "$four" "$(echo "$four / $one" | bc -l)"
again=$(timed again "$tmp/c4" kernel/build.sh "$all")
printf '  all four again, nothing changed:      %7.1f s  (goal < 10 s)\n' "$again"
# A changed patch: a copy of kernel/ with 0004's commit message edited.
cp -r kernel "$tmp/kernel"
mkdir -p "$tmp/scripts" && cp scripts/variants.sh "$tmp/scripts/" # build.sh reads ../scripts/variants.sh
sed -i '0,/^Not meant for mainline/s//Not meant for mainline (edited by bench-build)/' "$tmp"/kernel/patches/0004-*.patch
changed=$(timed changed "$tmp/c4" "$tmp/kernel/build.sh" "$all")
rebuilt=$(grep -o '[a-z0-9-]*-hz[0-9][a-z0-9-]*: building' "$tmp/changed.log" | cut -d: -f1 | paste -sd' ' || true)
printf '  one patch changed (0004):             %7.1f s  rebuilt: %s\n' "$changed" "${rebuilt:-none}"
