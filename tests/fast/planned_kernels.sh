#!/usr/bin/env bash
# test: the kernels of the planned cells
# The kernels a matrix needs are those its planned cells boot, not the
# product of its axes: `--print-axis kernels` (what make kernels builds),
# the fixed-HZ check and the missing-kernel check follow exclude lines, so
# a matrix like entropy.matrix (x86 at HZ 100/250/1000, m68k at 100 only)
# neither builds nor demands a kernel no cell boots.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "planned kernels"
root=$PWD
runner=$root/${CRNGBENCH_RUNNER:-build/crngbench-run}
# every machine's QEMU is tests/lib/fake-qemu (no real QEMU)
# shellcheck source=tests/lib/fake-qemu-path.sh
. tests/lib/fake-qemu-path.sh
fake_qemu_path "$tmp/fake" || { echo "FAIL: cannot link tests/lib/fake-qemu"; exit 0; }

cat >"$tmp/m.matrix" <<'M'
name = t
arch = x86_64,armv5-versatilepb
variant = stock,block
hz = 100,250
accel = tcg
trace = off
cpu = default,qemu64
exclude = arch=x86_64 cpu=default
exclude = arch=armv5-versatilepb cpu=qemu64
exclude = arch=x86_64 hz=100
exclude = arch=armv5-versatilepb hz=250
exclude = arch=armv5-versatilepb variant=stock
M
want="6.1 x86_64 250 stock,block
6.1 armv5 100 block"
got=$("$runner" --matrix "$tmp/m.matrix" --print-axis kernels 2>&1)
[ "$got" = "$want" ] && ok "--print-axis kernels lists the planned cells' kernels only" ||
	bad "--print-axis kernels: got '$got', want '$want'"

# Only those kernels need to exist: a dry run with exactly them passes.
mkdir -p "$tmp/k/stock-hz250" "$tmp/k/block-hz250" "$tmp/k/block-hz100-armv5"
: >"$tmp/k/stock-hz250/bzImage"
: >"$tmp/k/block-hz250/bzImage"
: >"$tmp/k/block-hz100-armv5/zImage"
: >"$tmp/k/block-hz100-armv5/versatile-pb.dtb"
: >"$tmp/image"
: >"$tmp/probe-armv5.cpio"
out=$("$runner" --matrix "$tmp/m.matrix" --kernels "$tmp/k" --image "$tmp/image" \
	--qemu "$root/tests/lib/fake-qemu" --out "$tmp/o" --dry-run 2>&1)
[ $? -eq 0 ] && ok "a dry run needs only the planned cells' kernels" ||
	bad "dry run with the planned kernels only: $(head -c 300 <<<"$out")"
# ... and a planned one missing is still named.
rm "$tmp/k/block-hz100-armv5/zImage"
out=$("$runner" --matrix "$tmp/m.matrix" --kernels "$tmp/k" --image "$tmp/image" \
	--qemu "$root/tests/lib/fake-qemu" --out "$tmp/o2" --dry-run 2>&1)
grep -q "block.*HZ=100.*armv5-versatilepb is not built" <<<"$out" &&
	ok "a planned kernel that is missing is named" ||
	bad "missing planned kernel: $(head -c 300 <<<"$out")"

# A fixed HZ is checked per planned cell: m68k at HZ 250 excluded is fine,
# planned is refused naming the exclude line.
for ex in yes no; do
	printf 'name = t2\narch = x86_64,m68k-virt\nhz = 100,250\naccel = tcg\ntrace = off\ncpu = default,qemu64\nexclude = arch=x86_64 cpu=default\nexclude = arch=m68k-virt cpu=qemu64\n%s\n' \
		"$([ $ex = yes ] && echo 'exclude = arch=m68k-virt hz=250')" >"$tmp/h.matrix"
	out=$("$runner" --matrix "$tmp/h.matrix" --print-axis kernels 2>&1)
	rc=$?
	if [ $ex = yes ]; then
		[ $rc -eq 0 ] && ok "m68k with hz=250 excluded is accepted" || bad "m68k hz=250 excluded refused: $out"
	else
		[ $rc -ne 0 ] && grep -q "exclude = arch=m68k-virt hz=250" <<<"$out" &&
			ok "m68k with a planned hz=250 is refused, naming the exclude line" || bad "m68k hz=250 planned: rc=$rc $out"
	fi
done

# The vDSO read (getrandom-vdso): refused where no planned cell can make it
# (only 6.1, or no x86), naming what is accepted; in a comparison with a
# base that has it, 6.1's cells boot and report it unavailable.
out=$("$runner" --matrix studies/quick/quick.matrix --set reads=urandom:getrandom-vdso --print-axis kernels 2>&1)
[ $? -ne 0 ] && grep -q "getrandom-vdso: no planned cell has the vDSO's getrandom().*add base=6.12" <<<"$out" &&
	ok "reads=getrandom-vdso on 6.1 alone is refused, naming the base that has it" ||
	bad "getrandom-vdso on 6.1 alone: $out"
out=$("$runner" --matrix studies/quick/quick.matrix --set reads=urandom:getrandom-vdso --set base=6.1,6.12 --print-axis kernels 2>&1)
[ $? -eq 0 ] && grep -q '^6.1 x86_64' <<<"$out" && grep -q '^6.12 x86_64' <<<"$out" &&
	ok "reads=getrandom-vdso across 6.1 and 6.12 is accepted (6.1 the baseline)" ||
	bad "getrandom-vdso across bases: $out"
