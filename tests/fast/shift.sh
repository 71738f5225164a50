#!/usr/bin/env bash
# test: the shift axis (icount's CPU speed per cell)
# The shift axis: the emulated CPU's speed per cell under icount (QEMU's
# -icount shift=N, 1 GHz >> N). Bad values and a number under another
# accelerator are refused before any boot, naming what is accepted (or
# the exclude line to add); a cell's shift replaces the icount setting's in
# -icount (its other flags kept) and in x86's TSC hint; auto is the
# setting's own; the plan and the sweep's first line give the guest CPU's
# speed per shift; raw.csv and summary.csv carry the axis. tests/lib/fake-qemu
# stands in for QEMU (tests/golden/ pins the whole command lines).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "shift axis"
runner=${CRNGBENCH_RUNNER:-build/crngbench-run}
fx=$PWD/tests/fixtures/block-qemu64.result
mkdir -p "$tmp/k/ok-hz250"
echo "ok $fx" >"$tmp/k/ok-hz250/bzImage"
: >"$tmp/image"
run=(timeout 60 "$runner" --qemu tests/lib/fake-qemu --kernels "$tmp/k" --image "$tmp/image" --seed 1
	--set variant=ok --set reps=1)
get() { tests/lib/csvget.py "$@"; }

# refused NAME WANT... -- ARGS: exit 2, every WANT in the message, no results directory.
refused() {
	local name=$1 wants=() out rc miss=
	shift
	while [ "$1" != -- ]; do wants+=("$1") && shift; done
	shift
	out=$("${run[@]}" --out "$tmp/refused" --dry-run "$@" 2>&1)
	rc=$?
	for w in "${wants[@]}"; do grep -qF -- "$w" <<<"$out" || miss+="'$w' "; done
	[ $rc -eq 2 ] && [ -z "$miss" ] && [ ! -e "$tmp/refused" ] && ok "$name" ||
		bad "$name: exit $rc, missing $miss in: $(head -c 300 <<<"$out")"
}
refused "a shift above 10 is refused, naming the accepted values" "shift=11: accepted values are auto" "0 to 10" -- \
	--set accel=icount --set shift=11
refused "a shift that is not a number is refused, naming the accepted values" "shift=fast: accepted values are auto" \
	"0 to 10" -- --set accel=icount --set shift=0,fast
refused "a negative shift is refused" "shift=-1: accepted values" -- --set accel=icount --set shift=-1
refused "a shift under tcg is refused, naming the exclude line" "accel=tcg with shift=3" \
	"exclude = accel=tcg shift=3" -- --set accel=tcg,icount --set shift=auto,3
refused "a shift under kvm is refused, naming the exclude line" "exclude = accel=kvm shift=0,5" -- \
	--set accel=kvm,icount --set shift=0,5

# dry ARGS: the plan's output (the header, one line per boot).
dry() { "${run[@]}" --out "$tmp/dry" --dry-run "$@" 2>&1; }
out=$(dry --set accel=tcg,icount --set shift=auto,3 --set 'exclude=accel=tcg shift=3')
[ "$(grep -c '^c[0-9]*-r0: ' <<<"$out")" = 3 ] && ok "the exclude line the refusal names takes the cell out" ||
	bad "with the exclude line: $(head -c 300 <<<"$out")"

# A cell's shift in -icount; auto is the setting's. The TSC hint is 1 GHz at
# every shift: QEMU's TSC under icount is the virtual clock in ns.
words() { grep '^c[0-9]*-r0: ' | grep -o -- '-icount [^ ]*\|tsc_early_khz=[0-9]*' | paste -sd' '; }
for c in "auto|shift=2,sleep=off|-icount shift=2,sleep=off tsc_early_khz=1000000" \
	"3|shift=2,sleep=off|-icount shift=3,sleep=off tsc_early_khz=1000000" \
	"10|shift=0,sleep=off|-icount shift=10,sleep=off tsc_early_khz=1000000" \
	"5|sleep=off,shift=0,align=off|-icount sleep=off,shift=5,align=off tsc_early_khz=1000000"; do
	IFS='|' read -r s setting want <<<"$c"
	got=$(dry --set accel=icount --set shift="$s" --set icount="$setting" | words)
	[ "$got" = "$want" ] && ok "shift=$s with icount=$setting: $want" ||
		bad "shift=$s with icount=$setting: got '$got', want '$want'"
done
# auto and the setting's own number make the same command line.
a=$(dry --set accel=icount | grep '^c0-r0: ')
b=$(dry --set accel=icount --set shift=0 | grep '^c0-r0: ')
[ -n "$a" ] && [ "$a" = "$b" ] && ok "shift=0 boots as the default icount setting (shift=auto)" ||
	bad "shift=0 and auto differ: $a / $b"

# The guest CPU's speed per shift, in the plan's first line.
out=$(dry --set accel=tcg,icount --set shift=auto,3,10 --set 'exclude=accel=tcg shift=3,10' | head -n 1)
grep -qF "icount shift=0: 1000 MHz, shift=3: 125 MHz, shift=10: 0.9765625 MHz" <<<"$out" &&
	ok "the dry run's first line gives the guest CPU's speed per shift" || bad "dry run's first line: $out"
out=$(dry --set accel=tcg | head -n 1)
grep -q MHz <<<"$out" && bad "a matrix without icount cells names a CPU speed: $out" ||
	ok "a matrix without icount cells names no CPU speed"

# A sweep: raw.csv and summary.csv carry the axis, each boot its -icount.
"${run[@]}" --out "$tmp/sweep" --quiet --parallel-jobs 2 --set accel=icount --set shift=auto,3 \
	>"$tmp/sweep.log" 2>&1
rc=$?
first=$(head -n 1 "$tmp/sweep.log")
[ $rc -eq 0 ] && grep -qF "icount shift=0: 1000 MHz, shift=3: 125 MHz" <<<"$first" &&
	ok "the sweep's first line gives the guest CPU's speed per shift" || bad "sweep exit $rc, first line: $first"
s3=$(get "$tmp/sweep/raw.csv" status shift=3 2>/dev/null)
sa=$(get "$tmp/sweep/raw.csv" status shift=auto 2>/dev/null)
id3=$(get "$tmp/sweep/raw.csv" boot_id shift=3 2>/dev/null)
[ "$s3" = ok ] && [ "$sa" = ok ] && grep -q -- '-icount shift=3,sleep=off ' "$tmp/sweep/boots/$id3/cmd" 2>/dev/null &&
	ok "raw.csv carries the shift axis (auto, 3), each boot with its own -icount" ||
	bad "raw.csv: shift=3 '$s3', shift=auto '$sa', boot '$id3'"
n=$(get "$tmp/sweep/summary.csv" shift 2>/dev/null | sort -u | paste -sd,)
[ "$n" = "3,auto" ] && ok "summary.csv keeps the shifts' cells apart" || bad "summary.csv's shift column: $n"
"$runner" --summarize "$tmp/sweep" --quiet >/dev/null 2>"$tmp/sum.err" &&
	ok "--summarize takes the run's rows back by their cell's shift" ||
	bad "--summarize: $(head -c 300 "$tmp/sum.err")"
