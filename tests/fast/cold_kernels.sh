#!/usr/bin/env bash
# test: which kernels make check builds from cold (the default base; another where warm)
# Which kernels make check builds from cold. The first build in a build
# directory (one per base, kernel/arches row and HZ) compiles the whole
# configured tree: 4-10 minutes each on the 2-core reference machine, six
# of them over two bases, and most of a cold run (docs/setup.md). A
# further variant in a warm build directory takes seconds. So make check
# always builds the default base's kernels (the first row of kernel/bases,
# the base the boots test), and another base's where its build directory
# is warm: a machine that has built them once keeps testing them, and a
# change to their patches rebuilds them incrementally. A cold build
# directory of another base is left unbuilt, its tests SKIP with this
# reason, unless CRNGBENCH_CHECK_COLD=all.
#
#   tests/fast/cold_kernels.sh check
#     exit 2 with the accepted values when CRNGBENCH_CHECK_COLD is neither
#     unset, "default" nor "all" (tests/run.sh asks first, before any work)
#   tests/fast/cold_kernels.sh decide BASE ARCH HZ VARIANT[,VARIANT...]
#     exit 0: build them (the default base; another base's where the
#     build directory is warm, or every variant's image is up to date in
#     the cache, a build directory removed to free disk: make kernels then
#     only finds them); exit 1: leave them, the reason on stdout (one
#     line); exit 2: bad input, on stderr
#   tests/fast/cold_kernels.sh
#     the test of the above, in a scratch cache (make unit)
# Whether a build directory is warm is kernel/build.sh's --status, the one
# reader of the cache's layout.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

mode_ok() {
	case ${CRNGBENCH_CHECK_COLD:-default} in
	default | all) return 0 ;;
	esac
	echo "tests/fast/cold_kernels.sh: CRNGBENCH_CHECK_COLD='${CRNGBENCH_CHECK_COLD}' is not accepted: give 'default' (the default base's kernels from cold, another base's only where its build directory is warm) or 'all' (every base's, cold or warm)" >&2
	return 1
}

decide() {
	local base=$1 arch=$2 hz=$3 variants=$4 first st
	mode_ok || exit 2
	first=$(scripts/table.sh --keys kernel/bases | head -n 1)
	[ "$base" != "$first" ] && [ "${CRNGBENCH_CHECK_COLD:-default}" = default ] || exit 0
	# a line per variant: VARIANT STATE BUILD KEY DIR; one build directory
	st=$(KERNEL_BASE=$base KERNEL_ARCH=$arch KERNEL_HZ=$hz \
		kernel/build.sh --status "$variants") || exit 2
	[ "$(awk '{ print $3; exit }' <<<"$st")" = cold ] || exit 0
	# every one up to date in the cache: make kernels only finds them
	if awk '$2 != "built" { exit 1 }' <<<"$st"; then exit 0; fi
	echo "base $base, $arch at HZ=$hz: its build directory is cold (nothing built in it here, or it was removed) and $variants are not all in the cache; make check builds cold only the default base ($first), to stay in its time budget (docs/setup.md). CRNGBENCH_CHECK_COLD=all make check builds and tests it"
	exit 1
}

case ${1:-} in
check) mode_ok || exit 2; exit 0 ;;
decide)
	[ $# -eq 5 ] || { echo "usage: tests/fast/cold_kernels.sh decide BASE ARCH HZ VARIANT[,VARIANT...]" >&2; exit 2; }
	decide "$2" "$3" "$4" "$5" ;;
'') ;;
*) echo "usage: tests/fast/cold_kernels.sh [check | decide BASE ARCH HZ VARIANT[,VARIANT...]]" >&2; exit 2 ;;
esac

# --- the test --------------------------------------------------------------------
# shellcheck source=tests/lib/lib.sh
. tests/lib/lib.sh
t_begin "cold kernels"
export CRNGBENCH_CACHE=$tmp/cache
unset CRNGBENCH_CHECK_COLD
# A stand-in source tarball: --status reads its size and time, never its
# bytes. make unit needs no base's source but the default one's (what
# scripts/deps.sh installs); without this, a machine without
# linux-source-6.12 failed this test where decide should say "cold".
: >"$tmp/linux.tar.xz"
export KERNEL_TARBALL=$tmp/linux.tar.xz
mkdir -p "$CRNGBENCH_CACHE"
first=$(scripts/table.sh --keys kernel/bases | head -n 1)
other=$(scripts/table.sh --keys kernel/bases | sed -n 2p)
[ -n "$other" ] || { bad "kernel/bases has one base: nothing to leave cold"; exit 0; }
me=tests/fast/cold_kernels.sh

# expect WANT_RC CASE BASE ARCH HZ [NEEDLE]: decide's exit code, and NEEDLE in what it says
expect() {
	local want=$1 what=$2 got rc
	got=$($me decide "$3" "$4" "$5" stock,block 2>&1)
	rc=$?
	if [ "$rc" = "$want" ] && { [ -z "${6:-}" ] || grep -qF -- "$6" <<<"$got"; }; then
		ok "$what"
	else
		bad "$what: exit $rc (want $want): $(brief "$got")"
	fi
}
expect 0 "an empty cache: the default base ($first) is built" "$first" x86_64 250
expect 1 "an empty cache: base $other is left cold, with the reason and the way to build it" \
	"$other" x86_64 250 "CRNGBENCH_CHECK_COLD=all make check"
expect 1 "an empty cache: base $other is left cold at HZ=100 too" "$other" x86_64 100 "is cold"
CRNGBENCH_CHECK_COLD=all expect 0 "CRNGBENCH_CHECK_COLD=all: base $other is built from cold" "$other" x86_64 250
CRNGBENCH_CHECK_COLD=default expect 1 "CRNGBENCH_CHECK_COLD=default: as unset" "$other" x86_64 250 "is cold"
# a warm build directory, where build.sh looks: an incremental build
dir=$(KERNEL_BASE=$other KERNEL_HZ=250 kernel/build.sh --status stock | awk '{ print $5 }')
case $dir in
"$CRNGBENCH_CACHE"/*) mkdir -p "$dir" && : >"$dir/vmlinux" ;;
*) bad "kernel/build.sh --status names a build directory outside the scratch cache: '$dir'" ;;
esac
expect 0 "base $other's build directory warm (built in before): built" "$other" x86_64 250
expect 1 "the warm build directory is that HZ's alone: HZ=100 is still cold" "$other" x86_64 100 "is cold"
# a cold build directory whose kernels are all in the cache, up to date
# (the directory removed to free disk): make kernels only finds them
put_kernel() { # VARIANT: its image and key where build.sh looks, at HZ=100
	local kd key
	kd=$(KERNEL_BASE=$other KERNEL_HZ=100 kernel/build.sh --where "$1")
	key=$(KERNEL_BASE=$other KERNEL_HZ=100 kernel/build.sh --status "$1" | awk '{ print $4 }')
	case $kd in
	"$CRNGBENCH_CACHE"/*) mkdir -p "$kd" && : >"$kd/bzImage" && echo "$key" >"$kd/key" ;;
	*) bad "kernel/build.sh --where names a kernel directory outside the scratch cache: '$kd'" ;;
	esac
}
put_kernel stock
expect 1 "a cold build directory with one of two kernels in the cache: left cold" "$other" x86_64 100 "not all in the cache"
put_kernel block
expect 0 "a cold build directory with both kernels up to date in the cache: built (found)" "$other" x86_64 100
# bad input: refused, naming the value and what is accepted
for v in some ALL ' all'; do
	msg=$(CRNGBENCH_CHECK_COLD=$v $me check 2>&1)
	rc=$?
	clean_error $rc "$msg" "'$v' is not accepted" "'default'" "'all'" && ok "check refuses CRNGBENCH_CHECK_COLD='$v'" ||
		bad "check with CRNGBENCH_CHECK_COLD='$v': exit $rc: $(brief "$msg")"
	CRNGBENCH_CHECK_COLD=$v expect 2 "decide refuses CRNGBENCH_CHECK_COLD='$v' too" "$first" x86_64 250 "is not accepted"
done
$me check && ok "check accepts CRNGBENCH_CHECK_COLD unset" || bad "check refuses CRNGBENCH_CHECK_COLD unset"
expect 2 "an unknown base is an error, not a skip" nosuch x86_64 250
