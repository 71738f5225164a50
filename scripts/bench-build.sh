#!/usr/bin/env bash
# Kernel build speed figures (make bench-build). Not a test: it prints
# ratios and times, measured here and now, in fresh caches under $TMPDIR:
# wall time, and the CPU time of the build (user + system, children
# included), which other work on the machine hardly changes.
# Per kernel base (kernel/bases; KERNEL_BASE for one of them):
#   1. one variant from cold (unpack + build stock)
#   2. all four variants from cold            -> ratio to 1 (goal <= 1.15)
#   3. all four again, nothing changed         (goal < 10 s)
#   4. one patch changed (0004, block-v0 only) -> which variants rebuilt
# then 3 summed over the bases: every variant of every base, nothing
# changed (goal < 10 s together).
# KERNEL_ARCH=<kernel/arches row> measures another architecture (HZ=100,
# as studies/arches/arches.matrix builds them).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/crngbench-bench-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the caches are under $tmp, and kbuild takes a build directory as make
# and shell text (scripts/cache-dir.sh --kbuild): refused before any build
CRNGBENCH_CACHE=$tmp/c scripts/cache-dir.sh --kbuild >/dev/null 2>&1 ||
	{ echo "bench-build: error: its fresh caches go under TMPDIR ($tmp), which kbuild cannot build under: give a TMPDIR that is an absolute path of letters, digits and ._/+@~- only" >&2; exit 2; }
timed() { # label, cache, build.sh args... -> "WALL CPU" seconds
	local label=$1 cache=$2 TIMEFORMAT='%R %U %S' t
	shift 2
	{ time CRNGBENCH_CACHE=$cache "$@" >"$tmp/$label.log" 2>&1 || { cat "$tmp/$label.log" >&2; exit 1; }; } 2>"$tmp/$label.time"
	read -r -a t <"$tmp/$label.time"
	echo "${t[0]} $(echo "${t[1]} + ${t[2]}" | bc)"
}
# shellcheck source=scripts/table.sh
. scripts/table.sh
export KERNEL_ARCH=${KERNEL_ARCH:-$(table_keys kernel/arches | head -n 1)}
guest=$(table_get kernel/arches "$KERNEL_ARCH" guest) || exit 2
# a probe-only guest's kernels are built at the arches matrix's HZ
[ "$guest" = systemd ] || export KERNEL_HZ=${KERNEL_HZ:-$(sed -n 's/^hz *= *//p' studies/arches/arches.matrix)}
bases=${KERNEL_BASE:-$(table_keys kernel/bases)}
for b in $bases; do
	table_keys kernel/bases | grep -qx -- "$b" ||
		{ echo "bench-build: unknown KERNEL_BASE '$b'; known bases: $(table_keys kernel/bases | tr '\n' ' ')" >&2; exit 2; }
done
echo "[bench-build] $KERNEL_ARCH, $(nproc) CPUs; fresh caches in $tmp"
noop_all=0
for b in $bases; do
	export KERNEL_BASE=$b
	all=$(scripts/variants.sh) # the base's variants
	echo "base $b ($(table_get kernel/bases "$b" package)):"
	r=$(timed "one-$b" "$tmp/c1-$b" kernel/build.sh stock)
	read -r one one_cpu <<<"$r"
	rm -rf "$tmp/c1-$b" # a cold cache is a tree and a build: ~2 GB
	printf '  one variant from cold (stock):        %7.1f s  (CPU %.1f s)\n' "$one" "$one_cpu"
	r=$(timed "four-$b" "$tmp/c4-$b" kernel/build.sh "$all")
	read -r four four_cpu <<<"$r"
	printf '  all four variants from cold:          %7.1f s  (%.2fx one; CPU %.1f s, %.2fx; goal <= 1.15x)\n' \
		"$four" "$(echo "$four / $one" | bc -l)" "$four_cpu" "$(echo "$four_cpu / $one_cpu" | bc -l)"
	r=$(timed "again-$b" "$tmp/c4-$b" kernel/build.sh "$all")
	read -r again _ <<<"$r"
	noop_all=$(echo "$noop_all + $again" | bc)
	printf '  all four again, nothing changed:      %7.1f s  (goal < 10 s)\n' "$again"
	# A changed patch: a copy of kernel/ with the base's 0004's commit
	# message edited.
	rm -rf "$tmp/kernel" "$tmp/scripts"
	cp -r kernel "$tmp/kernel"
	mkdir -p "$tmp/scripts" && cp scripts/variants.sh scripts/table.sh scripts/cache-dir.sh scripts/fresh.sh "$tmp/scripts/"
	# the series is found from the copy's kernel/ (build.sh reads ../<patches>)
	patches=$(table_get kernel/bases "$b" patches)
	mkdir -p "$tmp/$(dirname "$patches")"
	[ -e "$tmp/$patches" ] || cp -r "$patches" "$tmp/$patches"
	sed -i '0,/^Not meant for mainline/s//Not meant for mainline (edited by bench-build)/' "$tmp/$patches"/0004-*.patch
	r=$(timed "changed-$b" "$tmp/c4-$b" "$tmp/kernel/build.sh" "$all")
	read -r changed _ <<<"$r"
	rebuilt=$(grep -o '[a-z0-9-]*-hz[0-9][a-z0-9-]*: building' "$tmp/changed-$b.log" | cut -d: -f1 | paste -sd' ' || true)
	printf '  one patch changed (0004):             %7.1f s  rebuilt: %s\n' "$changed" "${rebuilt:-none}"
	rm -rf "$tmp/c4-$b"
done
printf 'every variant of every base (%s), nothing changed: %.1f s (goal < 10 s)\n' "${bases//$'\n'/ }" "$noop_all"
