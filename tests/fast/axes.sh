#!/usr/bin/env bash
# test: the rtc and base axes
# The rtc and base axes, against tests/lib/fake-qemu and stand-in kernels:
#   rtc   host or fixed; fixed refused, before any boot, on a machine whose
#         guest the RTC's date never reaches (bench/machines/arch.c's rtc), naming
#         the machines that take it
#   base  a row of kernel/bases (the runner reads the table); each base's
#         kernels where kernel/build.sh --kernels-dir puts them; a base not
#         built named with its make line; both axes in raw.csv, summary.csv,
#         and each kernel's base in meta.json
# Two bases need a kernel/bases of two rows: a stand-in checkout in a
# temporary directory (the real kernel/build.sh, arches, variants and
# scripts linked, its own kernel/bases and cache), the runner started in it.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "axes"
root=$PWD
runner=$root/${CRNGBENCH_RUNNER:-build/crngbench-run}
# every machine's QEMU is tests/lib/fake-qemu (no real QEMU)
# shellcheck source=tests/lib/fake-qemu-path.sh
. tests/lib/fake-qemu-path.sh
fake_qemu_path "$tmp/fake" || { echo "FAIL: cannot link tests/lib/fake-qemu"; exit 0; }
fx=$root/tests/fixtures/block-qemu64.result
get() { "$root/tests/lib/csvget.py" "$@"; }
# . scripts/table.sh for the known bases, as the message must name them
# shellcheck source=scripts/table.sh
. scripts/table.sh

empty_files "$tmp" k/stock-hz250/bzImage k/stock-hz100-armv5/zImage k/stock-hz100-armv5/versatile-pb.dtb \
	k/stock-hz100-armv7/zImage image probe-armv5.cpio probe-armv7.cpio
# shellcheck source=tests/lib/refused.sh
. "$root/tests/lib/refused.sh"

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

known=$(table_keys kernel/bases | tr '\n' ' ')
refused "an unknown base names the rows of kernel/bases" \
	"base=9.9: not a kernel base; known bases: ${known% } (the rows of kernel/bases)" --set base=9.9
refused "a base that cannot be a name" "base=../x: not a kernel base name" --set base=../x

# --- a stand-in checkout with two bases ------------------------------------------------
c=$tmp/checkout
mkdir -p "$c/kernel" "$c/bench" "$c/build"
for f in build.sh arches variants; do ln -s "$root/kernel/$f" "$c/kernel/$f"; done
ln -s "$root/scripts" "$c/scripts"
# the real table: two bases now (6.1, 6.12), all their columns
cp "$root/kernel/bases" "$c/kernel/bases"
printf 'name = two\nbase = 6.1,6.12\nvariant = stock\n' >"$c/bench/two.matrix"
: >"$c/build/guest.cpio"
export CRNGBENCH_CACHE=$tmp/cache
for b in 6.1 6.12; do
	d=$(cd "$c" && KERNEL_BASE=$b kernel/build.sh --where stock)
	mkdir -p "$d" && echo "ok $fx" >"$d/bzImage" && echo "$b" >"$d/base"
done
# crun ARGS...: the runner in the stand-in checkout
crun() { (cd "$c" && timeout 120 "$runner" --qemu "$root/tests/lib/fake-qemu" "$@"); }

[ "$(crun --matrix bench/two.matrix --print-axis base 2>&1)" = "6.1,6.12" ] &&
	ok "--print-axis base gives the matrix's bases (what make kernels builds)" ||
	bad "--print-axis base: $(crun --matrix bench/two.matrix --print-axis base 2>&1 | head -c 200)"
out=$(crun --kernels "$CRNGBENCH_CACHE/kernels/6.1" --out "$tmp/two-k" --set base=6.1,6.12 --set variant=stock \
	--set accel=icount --set cpu=qemu64 --dry-run 2>&1)
[ $? -eq 2 ] && grep -q -- "holds the kernels of one base, and this matrix has base=6.1,6.12" <<<"$out" &&
	ok "--kernels DIR (one base's kernels) with two bases is refused, saying what to do" ||
	bad "--kernels with two bases: $(head -c 300 <<<"$out")"
out=$(crun --out "$tmp/nob" --set base=6.1,6.12 --set variant=legacy --set accel=icount --set cpu=qemu64 --dry-run 2>&1)
[ $? -eq 2 ] && grep -q -- "make kernels KERNEL_BASE=6.1 VARIANTS=legacy HZ=250" <<<"$out" &&
	ok "a base's kernel not built names the make line with its KERNEL_BASE" ||
	bad "missing kernel of a base: $(head -c 300 <<<"$out")"
mv "$CRNGBENCH_CACHE/kernels/6.12" "$tmp/6.12"
out=$(crun --out "$tmp/no12" --set base=6.1,6.12 --set variant=stock --set accel=icount --set cpu=qemu64 --dry-run 2>&1)
[ $? -eq 2 ] && grep -qF -- "of base 6.12 is not built ($CRNGBENCH_CACHE/kernels/6.12/stock-hz250/bzImage missing); build it with: make kernels KERNEL_BASE=6.12 VARIANTS=stock HZ=250" <<<"$out" &&
	ok "6.12's kernel missing while 6.1's is built: named, with make kernels KERNEL_BASE=6.12" ||
	bad "missing 6.12 kernel: $(head -c 300 <<<"$out")"
mv "$tmp/6.12" "$CRNGBENCH_CACHE/kernels/6.12"

# Two bases x two RTC dates, booted: each boot's kernel is its own base's,
# and raw.csv, summary.csv and meta.json say which.
out=$(crun --out "$tmp/two" --quiet --seed 3 --set base=6.1,6.12 --set rtc=host,fixed --set variant=stock \
	--set accel=icount --set cpu=qemu64 --set reps=1 2>&1)
rc=$?
raw=$tmp/two/raw.csv
if [ $rc -ne 0 ] || [ ! -f "$raw" ]; then
	bad "the two-base run exited $rc: $(tail -n 3 <<<"$out" | tr '\n' ' ')"
else
	wrong=
	for id in $(get "$raw" boot_id); do
		b=$(get "$raw" base boot_id="$id") r=$(get "$raw" rtc boot_id="$id") cmd=$(cat "$tmp/two/boots/$id/cmd")
		grep -qF -- "-kernel $CRNGBENCH_CACHE/kernels/$b/stock-hz250/bzImage " <<<"$cmd" || wrong="$wrong $id:kernel-not-$b"
		case $r in
		fixed) grep -q -- "-rtc base=2022-02-11T00:00:00,clock=vm " <<<"$cmd" || wrong="$wrong $id:no-date" ;;
		host) ! grep -q -- "-rtc" <<<"$cmd" || wrong="$wrong $id:rtc-on-host" ;;
		*) wrong="$wrong $id:rtc=$r" ;;
		esac
		[ "$(get "$raw" status boot_id="$id")" = ok ] || wrong="$wrong $id:$(get "$raw" status boot_id="$id")"
	done
	pairs=$(paste -d/ <(get "$raw" base) <(get "$raw" rtc) | sort | paste -sd' ')
	[ -z "$wrong" ] && [ "$pairs" = "6.1/fixed 6.1/host 6.12/fixed 6.12/host" ] &&
		ok "two bases x two dates: each boot's kernel from its base's directory, raw.csv's base and rtc columns say which" ||
		bad "two-base boots: rows $pairs;$wrong"
	spairs=$(get "$tmp/two/summary.csv" base measure=crng_ready | paste -d/ - <(get "$tmp/two/summary.csv" rtc measure=crng_ready) |
		sort | paste -sd' ')
	[ "$spairs" = "6.1/fixed 6.1/host 6.12/fixed 6.12/host" ] &&
		ok "summary.csv has a cell per base and date, with base and rtc columns" || bad "summary.csv cells: '$spairs'"
	python3 - "$tmp/two/meta.json" <<'PY' && ok "meta.json names each base's kernel <base>/<dir>, with its base" || bad "meta.json kernels: $(head -c 300 "$tmp/two/meta.json")"
import json, sys
k = json.load(open(sys.argv[1]))["kernels"]
sys.exit(0 if {n: v["base"] for n, v in k.items()} == {"6.1/stock-hz250": "6.1", "6.12/stock-hz250": "6.12"} else 1)
PY
	! grep -q '^kernels = ' "$tmp/two/run.args" && [ "$(grep -c "^file $CRNGBENCH_CACHE/kernels/" "$tmp/two/run.args")" = 2 ] &&
		ok "run.args of a two-base run: each kernel with its checksum, no single kernels directory" ||
		bad "run.args: $(tr '\n' '|' <"$tmp/two/run.args")"
	out=$(crun --resume --out "$tmp/two" --quiet 2>&1)
	[ $? -eq 0 ] && [ "$(tail -n +2 "$raw" | wc -l)" = 4 ] &&
		ok "--resume of a two-base run finds each base's kernels again" || bad "resume of a two-base run: $(tail -n 2 <<<"$out")"
fi

# studies/bases/bases.matrix: both bases' kernels of every variant, and a plan
# that stays affordable (under ~600 boots).
for b in 6.1 6.12; do for v in legacy block block-v0; do
	d=$(cd "$c" && KERNEL_BASE=$b kernel/build.sh --where "$v")
	mkdir -p "$d" && : >"$d/bzImage"
done; done
# (its x86 cells: the other machines' need their real kernels to be checked)
out=$(crun --matrix "$root/studies/bases/bases.matrix" --set arch=x86_64 --out "$tmp/bases" --seed 1 --dry-run 2>&1)
n=$(sed -n 's/^matrix bases: .*(shard 1\/1: \([0-9]*\)).*/\1/p' <<<"$out")
kern=$(grep -o -- "-kernel $CRNGBENCH_CACHE/kernels/[^/]*/" <<<"$out" | sort -u | wc -l)
[ -n "$n" ] && [ "$n" -le 600 ] && [ "$n" -ge 100 ] && [ "$kern" = 2 ] && [ ! -e "$tmp/bases" ] &&
	ok "studies/bases/bases.matrix plans $n boots (at most ~600) over both bases' kernels" ||
	bad "studies/bases/bases.matrix: '$n' boots, kernels of $kern bases: $(head -c 300 <<<"$out")"

# scripts/deps.sh installs each base's source package: the matrix's, KERNEL_BASE's.
pk=$("$c/scripts/deps.sh" --list --matrix two 2>&1)
grep -qx linux-source-6.12 <<<"$pk" && grep -qx linux-source-6.1 <<<"$pk" &&
	ok "scripts/deps.sh --matrix: the source package of each base the matrix names" ||
	bad "deps.sh --matrix two: $(tr '\n' ' ' <<<"$pk" | head -c 300)"
pk=$(KERNEL_BASE=6.12 "$c/scripts/deps.sh" --list 2>&1)
grep -qx linux-source-6.12 <<<"$pk" && ok "scripts/deps.sh: KERNEL_BASE's source package" ||
	bad "deps.sh KERNEL_BASE=6.12: $(tr '\n' ' ' <<<"$pk" | head -c 300)"
pk=$(KERNEL_BASE=9.9 "$c/scripts/deps.sh" --list 2>&1)
[ $? -eq 2 ] && grep -q "unknown kernel base '9.9'; known bases: 6.1 6.12" <<<"$pk" &&
	ok "scripts/deps.sh: an unknown base is an error naming the bases" || bad "deps.sh KERNEL_BASE=9.9: $(head -c 300 <<<"$pk")"
