#!/usr/bin/env bash
# test: make kernels builds the base asked for
# make kernels builds the kernels of the base asked for, whatever else the
# user passes. A SETS on make's command line once replaced the Makefile's
# own, and with it --set base=$(KERNEL_BASE): `make kernels
# KERNEL_BASE=6.12 SETS=...` "found up to date" 6.1's kernels, and a warm
# cache hid it. A recorder stands in for kernel/build.sh (KERNEL_BUILD):
# nothing is built, what would be is written down.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "make kernels"

cat >"$tmp/build" <<'B'
#!/bin/sh
echo "base=$KERNEL_BASE arch=$KERNEL_ARCH hz=$KERNEL_HZ variants=$1" >>"$RECORD"
echo "makeflags=[${MAKEFLAGS:-}${MAKEOVERRIDES:-}${MFLAGS:-}]" >>"$RECORD.flags"
B
chmod +x "$tmp/build"
mk() { # RECORD-NAME make-arguments...: make kernels with the recorder
	local r=$tmp/$1.rec
	shift
	: >"$r"
	RECORD=$r make --no-print-directory -s kernels KERNEL_BUILD="$tmp/build" "$@" >"$r.out" 2>&1
}

if mk a MATRIX=quick KERNEL_BASE=6.12 SETS="--set variant=stock,block" HZ=250 &&
	[ "$(cat "$tmp/a.rec")" = "base=6.12 arch=x86_64 hz=250 variants=stock,block" ]; then
	ok "KERNEL_BASE=6.12 with a SETS of its own builds 6.12's kernels"
else
	bad "KERNEL_BASE=6.12 SETS='--set variant=stock,block' would build: $(cat "$tmp/a.rec" "$tmp/a.rec.out" | tr '\n' ' ')"
fi
if mk b MATRIX=quick KERNEL_BASE=6.12 VARIANTS=block SETS="--set reps=1" &&
	[ "$(cat "$tmp/b.rec")" = "base=6.12 arch=x86_64 hz=250 variants=block" ]; then
	ok "VARIANTS and KERNEL_BASE hold beside a SETS"
else
	bad "KERNEL_BASE=6.12 VARIANTS=block SETS='--set reps=1' would build: $(cat "$tmp/b.rec" "$tmp/b.rec.out" | tr '\n' ' ')"
fi
# make's own flags stay out of kbuild: under make -s or V=1 it printed no
# "  CC" lines, and the build said "0 files compiled"
if mk v MATRIX=quick VARIANTS=block V=1 && [ "$(sort -u "$tmp/v.rec.flags")" = "makeflags=[]" ]; then
	ok "make -s kernels V=1 gives kernel/build.sh (and kbuild) none of make's flags"
else
	bad "make -s kernels V=1: the build saw $(cat "$tmp/v.rec.flags" 2>&1 | tr '\n' ' ')"
fi
# a base given twice, differently, is an error before anything is built
if ! mk c MATRIX=quick KERNEL_BASE=6.12 SETS="--set base=6.1" && [ ! -s "$tmp/c.rec" ] &&
	grep -q "base" "$tmp/c.rec.out"; then
	ok "KERNEL_BASE=6.12 with SETS='--set base=6.1' is refused, nothing built"
else
	bad "KERNEL_BASE=6.12 SETS='--set base=6.1': built [$(cat "$tmp/c.rec")], said $(tr '\n' ' ' <"$tmp/c.rec.out")"
fi
# an architecture the matrix's cells do not boot is an error, not silence
if ! mk d MATRIX=quick KERNEL_ARCH=armv5 && [ ! -s "$tmp/d.rec" ] &&
	grep -q "KERNEL_ARCH=armv5: MATRIX=quick's planned cells boot no kernel of that kernel/arches row (they boot: x86_64)" "$tmp/d.rec.out"; then
	ok "KERNEL_ARCH=armv5 on a matrix without armv5 is refused, naming what it boots"
else
	bad "KERNEL_ARCH=armv5 MATRIX=quick: built [$(cat "$tmp/d.rec")], said $(tr '\n' ' ' <"$tmp/d.rec.out")"
fi
# make reproduce runs the report's matrices as they are: SETS is refused
# (reproduce-plan: were the refusal lost, the plan only, never the runs)
if out=$(timeout 120 make --no-print-directory -s reproduce-plan SETS="--set reps=1" 2>&1); then
	bad "make reproduce-plan SETS=... was accepted: $(head -c 200 <<<"$out")"
elif grep -q "SETS would change them" <<<"$out"; then
	ok "make reproduce refuses SETS, naming it"
else
	bad "make reproduce SETS=...: $(head -c 200 <<<"$out")"
fi

# make check's own accounting (tests/lib/kernel_accounting.sh) on the build
# logs of the failure seen on a fresh machine, and on a good one
export CRNGBENCH_KERNEL_LEDGER=$tmp/ledger
: >"$CRNGBENCH_KERNEL_LEDGER"
acc() { tests/lib/kernel_accounting.sh account "$@" 2>&1; }
printf '[kernel] stock-hz100-armv5: up to date (6.1.192-crngbench-stock-hz100-armv5)\n[kernel] block-hz100-armv5: up to date (6.1.192-crngbench-block-hz100-armv5)\n' >"$tmp/old.log"
r=$(acc "$tmp/old.log" 6.12 armv5 100 stock,block)
grep -q "^FAIL: .*another base.*stock-hz100-armv5=6.1.192" <<<"$r" && [ ! -s "$CRNGBENCH_KERNEL_LEDGER" ] &&
	ok "accounting: a 6.12 step that found 6.1's kernels fails, naming them" || bad "accounting of 6.1 kernels for 6.12: $r"
printf '[kernel] stock-hz100-armv5: 5 files compiled, 20s\n[kernel] stock-hz100-armv5: built in 61 s, 812 files compiled (6.12.118-crngbench-stock-hz100-armv5)\n[kernel] block-hz100-armv5: up to date (6.12.118-crngbench-block-hz100-armv5)\n' >"$tmp/new.log"
r=$(acc "$tmp/new.log" 6.12 armv5 100 stock,block)
grep -q "^PASS: " <<<"$r" && [ "$(wc -l <"$CRNGBENCH_KERNEL_LEDGER")" = 2 ] &&
	ok "accounting: built and up-to-date kernels of the base pass and enter the ledger" || bad "accounting of a good log: $r"
r=$(acc "$tmp/new.log" 6.12 armv5 100 stock,block,legacy)
grep -q "^FAIL: .*accounts for \[block-hz100-armv5 stock-hz100-armv5\], the tests use \[block-hz100-armv5 legacy-hz100-armv5 stock-hz100-armv5\]" <<<"$r" &&
	ok "accounting: a kernel the step did not build or find fails, naming it" || bad "accounting with one kernel missing: $r"
mkdir -p "$tmp/boots/a" "$tmp/k/stock-hz100-m68k"
printf 'cell,release\n1,6.12.118-crngbench-stock-hz100-armv5\n2,6.12.118-crngbench-block\n' >"$tmp/boots/a/raw.csv"
r=$(tests/lib/kernel_accounting.sh used "$tmp/boots" 2>&1)
grep -q "^FAIL: .*no build step of this run built or found: 6.12.118-crngbench-block$" <<<"$r" &&
	ok "accounting: a boot of a kernel no build step accounted for fails, naming it" || bad "used: $r"
echo 6.12.118-crngbench-stock-hz100-m68k >"$tmp/k/stock-hz100-m68k/release"
! tests/lib/kernel_accounting.sh dir "$tmp/k/stock-hz100-m68k" 2>/dev/null &&
	ok "accounting: a cached kernel outside the ledger is refused to the tests that read one" || bad "dir: a kernel outside the ledger was accepted"
