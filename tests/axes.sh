#!/usr/bin/env bash
# The rtc axis, against stand-in kernels:
#   rtc   host or fixed; fixed refused, before any boot, on a machine whose
#         guest the RTC's date never reaches (bench/arch.c's rtc), naming
#         the machines that take it
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runner=$root/${CRNGBENCH_RUNNER:-build/crngbench-run}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "PASS: axes: $*"; }
bad() { echo "FAIL: axes: $*"; }

mkdir -p "$tmp/k/stock-hz250" "$tmp/k/stock-hz100-armv5" "$tmp/k/stock-hz100-armv7"
: >"$tmp/k/stock-hz250/bzImage"
: >"$tmp/k/stock-hz100-armv5/zImage"
: >"$tmp/k/stock-hz100-armv5/versatile-pb.dtb"
: >"$tmp/k/stock-hz100-armv7/zImage"
: >"$tmp/image"
: >"$tmp/probe-armv5.cpio"
: >"$tmp/probe-armv7.cpio"
# refused NAME WANT ARGS...: exit 2 before any boot, the message, no results directory.
refused() {
	local name=$1 want=$2 out rc
	shift 2
	out=$(timeout 60 "$runner" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/no" "$@" 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && grep -qF -- "$want" <<<"$out" && [ ! -e "$tmp/no" ]; then
		ok "$name"
	else
		bad "$name: rc=$rc, wanted '$want', got: $(head -c 400 <<<"$out")"
	fi
}
probe=(--set hz=100 --set cpu=default --set trace=off)

refused "an unknown rtc value names the accepted ones" \
	"rtc=utc: accepted values are host (the RTC starts at the host's date, QEMU's default), fixed (at 2022-02-11T00:00:00" \
	--set rtc=utc
for m in armv5-versatilepb armv7-virt; do
	refused "rtc=fixed on $m (no RTC its guest reads) is refused, naming the machines that take it" \
		"arch=$m with rtc=fixed: the RTC's date never reaches this machine's guest" \
		--set arch="$m" --set rtc=fixed "${probe[@]}"
done
refused "the machines that take rtc=fixed are named" \
	"rtc=fixed is accepted on arch=x86_64, m68k-virt, m68k-q800, mipsel-malta;" \
	--set arch=armv5-versatilepb --set rtc=fixed "${probe[@]}"
# an exclude line takes the combination out, as for bootseed
out=$("$runner" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/ex" --set arch=armv5-versatilepb,armv7-virt \
	--set rtc=host,fixed --set 'exclude=arch=armv5-versatilepb,armv7-virt rtc=fixed' "${probe[@]}" \
	--set accel=icount --set reps=1 --dry-run 2>&1)
[ $? -eq 0 ] && [ "$(grep -c '^c[0-9]*-r0: ' <<<"$out")" = 2 ] && ! grep -q -- '-rtc base=' <<<"$out" &&
	ok "rtc=fixed excluded where there is no RTC: the other cells run, none with -rtc base=" ||
	bad "exclude of rtc=fixed: $(head -c 400 <<<"$out")"
# rtc=host keeps the command line; rtc=fixed adds the date on the virtual clock
out=$("$runner" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/rtc" --set rtc=host,fixed --set accel=icount \
	--set cpu=qemu64 --set reps=1 --dry-run 2>&1)
host=$(grep '^c0-r0: ' <<<"$out") fixed=$(grep '^c1-r0: ' <<<"$out")
[ -n "$host" ] && ! grep -q -- ' -rtc ' <<<"$host" &&
	[ "$(sed 's/ -rtc base=2022-02-11T00:00:00,clock=vm / /; s/c1-r0/c0-r0/g' <<<"$fixed")" = "$host" ] &&
	ok "rtc=fixed differs from rtc=host by -rtc base=2022-02-11T00:00:00,clock=vm alone" ||
	bad "rtc on x86: host '$host', fixed '$fixed'"

