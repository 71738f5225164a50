#!/usr/bin/env bash
# A warm cache must not hide a cold machine's failure. Once a 6.12 step of
# make check "found up to date" 6.1's kernels (a SETS on make's command
# line had dropped --set base), and the tests then read 6.12's kernels
# that an earlier run had left in the cache: green here, five failures on
# a fresh machine. So every kernel that make check uses must be one that
# a build step of this very run built or found up to date.
#
#   tests/lib/kernel_accounting.sh account LOG BASE ARCH HZ VARIANT[,VARIANT...]
#     passes when LOG's [kernel] lines (kernel/build.sh: "NAME: up to date
#     (RELEASE)", "NAME: built in ... (RELEASE)") name exactly those
#     kernels, each once, with a release string of BASE; appends each
#     release to the ledger, $CRNGBENCH_KERNEL_LEDGER.
#   tests/lib/kernel_accounting.sh used DIR...
#     fails naming every kernel release that a boot recorded under DIR
#     (raw.csv's release column) ran and that the ledger does not hold.
#   tests/lib/kernel_accounting.sh dir KERNEL_DIR
#     exit 0 when KERNEL_DIR's release file names a release the ledger
#     holds, else says why on stderr and exits 1 (kernel_release.sh and
#     kernel_seed.sh ask before they read a kernel).
# ARCH is a row of kernel/arches; names and releases are kernel/build.sh's
# (the HZ only where it is not 250, the architecture only where the guest
# is not systemd).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "kernel accounting"
# shellcheck source=scripts/table.sh
. scripts/table.sh
ledger=${CRNGBENCH_KERNEL_LEDGER:-}
[ -n "$ledger" ] || { echo "tests/lib/kernel_accounting.sh: error: CRNGBENCH_KERNEL_LEDGER is not set" >&2; exit 2; }

kernel_lines() { # LOG: "NAME RELEASE" per built or up-to-date kernel
	sed -n -E 's/^\[kernel\] ([^ :]+): (up to date |built in [^(]*)\(([^ ()]+)\)$/\1 \3/p' "$1"
}

case ${1:-} in
account)
	[ $# -eq 6 ] || { echo "usage: tests/lib/kernel_accounting.sh account LOG BASE ARCH HZ VARIANTS" >&2; exit 2; }
	log=$2 base=$3 arch=$4 hz=$5 variants=$6
	suffix=
	[ "$(table_get kernel/arches "$arch" guest)" = systemd ] || suffix=-$arch
	lv=
	[ "$hz" = 250 ] || lv=-hz$hz
	want=$(for v in ${variants//,/ }; do echo "$v-hz$hz$suffix"; done | sort)
	got=$(kernel_lines "$log")
	names=$(cut -d' ' -f1 <<<"$got" | sed '/^$/d' | sort)
	what="kernel accounting (base $base, $arch, HZ $hz)"
	if [ "$names" != "$want" ]; then
		echo "FAIL: $what: $log accounts for [$(paste -sd" " <<<"$names")], the tests use [$(paste -sd" " <<<"$want")]"
		exit 0
	fi
	wrong=''
	while read -r name rel; do
		v=${name%-hz*}
		case $rel in
		"$base".[0-9]*-crngbench-"$v$lv$suffix") ;;
		*) wrong="$wrong $name=$rel" ;;
		esac
	done <<<"$got"
	if [ -n "$wrong" ]; then
		echo "FAIL: $what: $log built or found kernels of another base or variant:$wrong (want $base.<n>-crngbench-<variant>$lv$suffix)"
		exit 0
	fi
	cut -d' ' -f2 <<<"$got" >>"$ledger"
	echo "PASS: $what: the build step built or found exactly $(paste -sd" " <<<"$want") (releases of $base)"
	;;
used)
	shift
	[ $# -ge 1 ] || { echo "usage: tests/lib/kernel_accounting.sh used DIR..." >&2; exit 2; }
	used=$(find "$@" -name raw.csv -type f -print0 2>/dev/null | xargs -0 -r python3 -c '
import csv, sys
seen = set()
for path in sys.argv[1:]:
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            rel = row.get("release") or ""
            if rel:
                seen.add(rel)
print("\n".join(sorted(seen)))
')
	n=$(sed '/^$/d' <<<"$used" | wc -l)
	missing=$(sed '/^$/d' <<<"$used" | grep -vxF -f <(sed '/^$/d' "$ledger" 2>/dev/null) || true)
	if [ "$n" -eq 0 ]; then
		bad "no boot under $* recorded a kernel release (nothing to account for)"
	elif [ -n "$missing" ]; then
		bad "boots ran kernels that no build step of this run built or found: $(paste -sd" " <<<"$missing")"
	else
		ok "the $n kernel releases the boots under $* ran were each built or found by this run's build steps"
	fi
	;;
dir)
	[ $# -eq 2 ] || { echo "usage: tests/lib/kernel_accounting.sh dir KERNEL_DIR" >&2; exit 2; }
	rel=$(cat "$2/release" 2>/dev/null) || { echo "$2/release missing" >&2; exit 1; }
	grep -qxF -- "$rel" "$ledger" 2>/dev/null ||
		{ echo "$2 ($rel) was not built or found by this run's build steps (a kernel left in the cache by another run)" >&2; exit 1; }
	;;
*)
	echo "usage: tests/lib/kernel_accounting.sh account LOG BASE ARCH HZ VARIANTS | used DIR... | dir KERNEL_DIR" >&2
	exit 2
	;;
esac
