#!/usr/bin/env bash
# test: a variant of one base only (kernel/variants' [BASE] lines)
# Issue 47 item 4: a patch in base 6.1's series alone, as a variant below
# a line "[6.1]" of kernel/variants, in a scratch copy of the checkout.
# Every reader of kernel/variants agrees that it is 6.1's alone:
# - scripts/variants.sh lists it for 6.1 (the default base) and --all,
#   not for 6.12; --one-base names it with its line; a [BASE] that is no
#   row of kernel/bases, and a variant defined twice, are refused with
#   the line;
# - kernel/build.sh on 6.12 builds its own variants and no longer stops
#   at the patch 6.12's series lacks (what failed make lint), and refuses
#   the variant there (--status: nothing built, no tree needed);
# - the runner refuses a matrix that boots it on 6.12, naming the
#   variant, both bases and the line, and takes one whose exclude line
#   leaves those cells out (--print-axis kernels: it is built on 6.1
#   alone);
# - make kernels and make kernels-check refuse it on 6.12 before anything
#   is built (a recorder stands in for kernel/build.sh);
# - the charts' variant list (plots/runlib.py) holds it.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "one base"
unset MAKEFLAGS MAKELEVEL KERNEL_BASE KERNEL_ARCH KERNEL_HZ
co=$tmp/co
if ! { tree_copy "$co" && runner_copy "$co"; }; then
	bad "cannot copy the checkout and its runner"
	exit 0
fi
export CRNGBENCH_CACHE=$tmp/cache
cp kernel/patches/0008-*.patch "$co/kernel/patches/0010-random-mine.patch"
printf '[6.1]\nmine        0001 0005 0007 0010\n' >>"$co/kernel/variants"
line=$(grep -n '^mine ' "$co/kernel/variants" | cut -d: -f1)

v() { (cd "$co" && scripts/variants.sh "$@" 2>&1); }
[ "$(v)" = stock,legacy,block,block-v0,stock-fix,block-fix,stock-once,mine ] &&
	[ "$(KERNEL_BASE=6.12 v)" = stock,legacy,block,block-v0,stock-fix,block-fix,stock-once ] &&
	[ "$(v --all | tail -n 1)" = mine ] && [ "$(v --one-base)" = "mine 6.1 $line" ]
verdict $? "scripts/variants.sh: mine is 6.1's (the default base's) and --all's, not 6.12's; --one-base names its line" \
	"$(v) / $(KERNEL_BASE=6.12 v) / $(v --one-base)"
printf '[6.2]\nodd 0001\n' >>"$co/kernel/variants"
out=$(v)
clean_error $? "$out" "kernel/variants line $((line + 1)): [6.2]: not a kernel base; known bases: 6.1 6.12"
verdict $? "a [BASE] that is no row of kernel/bases is refused, naming the line and the bases" "$(brief "$out")"
sed -i '$d' "$co/kernel/variants" && sed -i '$d' "$co/kernel/variants" && echo "stock 0001" >>"$co/kernel/variants"
out=$(v --all)
clean_error $? "$out" "line $((line + 1)): variant stock is defined twice, here and on line"
verdict $? "a variant defined twice is refused, naming both lines" "$(brief "$out")"
sed -i '$d' "$co/kernel/variants"

# kernel/build.sh --status: the inputs checked, nothing built (a stand-in
# tarball: --status never unpacks it)
: >"$tmp/linux.tar.xz"
kb() { (cd "$co" && KERNEL_TARBALL=$tmp/linux.tar.xz kernel/build.sh --status "$@" 2>&1); }
out=$(KERNEL_BASE=6.12 kb stock,block)
verdict $? "kernel/build.sh on base 6.12 takes its variants, its series without mine's 0010 (make lint's --tree)" "$(brief "$out")"
out=$(KERNEL_BASE=6.12 kb mine)
clean_error $? "$out" "unknown kernel variant 'mine'"
verdict $? "kernel/build.sh refuses mine on base 6.12" "$(brief "$out")"
out=$(KERNEL_BASE=6.1 kb mine)
verdict $? "kernel/build.sh takes mine on base 6.1" "$(brief "$out")"

# the runner: refused on 6.12, unless an exclude line leaves it out there
r() { (cd "$co" && timeout 30 build/crngbench-run --set base=6.1,6.12 --set variant=stock,mine "$@" --print-axis kernels 2>&1); }
want="variant=mine is a variant of base 6.1 only (kernel/variants line $line, below [6.1]), and the matrix boots it on base 6.12: set base=6.1, or leave those cells out (exclude = base=6.12 variant=mine)"
out=$(r)
clean_error $? "$out" "$want"
verdict $? "the runner refuses a matrix that boots mine on 6.12, naming it, both bases and the line" "$(brief "$out")"
out=$(r --set "exclude=base=6.12 variant=mine")
[ "$out" = "6.1 x86_64 250 stock,mine
6.12 x86_64 250 stock" ]
verdict $? "with exclude = base=6.12 variant=mine the runner builds mine on 6.1 alone" "$(brief "$out")"
# a second section: each variant is its own section's (the runner reads
# the [BASE] lines itself, by scripts/variants.sh's rules)
printf '[6.12]\nother       0001\n' >>"$co/kernel/variants"
out=$(cd "$co" && timeout 30 build/crngbench-run --set variant=stock,other --print-axis kernels 2>&1)
clean_error $? "$out" "variant=other is a variant of base 6.12 only (kernel/variants line $((line + 2)), below [6.12]), and the matrix boots it on base 6.1" &&
	[ "$(v --one-base)" = "mine 6.1 $line
other 6.12 $((line + 2))" ]
verdict $? "below a second [BASE] line, the runner and scripts/variants.sh agree: other is 6.12's" "$(brief "$out") / $(v --one-base)"
sed -i '$d' "$co/kernel/variants" && sed -i '$d' "$co/kernel/variants"

# make kernels and kernels-check: refused before anything is built
cat >"$tmp/build" <<'B'
#!/bin/sh
echo "base=$KERNEL_BASE variants=$*" >>"$RECORD"
B
chmod +x "$tmp/build"
export RECORD=$tmp/record
: >"$RECORD"
out=$(make -C "$co" --no-print-directory -s kernels KERNEL_BUILD="$tmp/build" MATRIX=quick KERNEL_BASE=6.12 VARIANTS=stock,mine 2>&1)
clean_error $? "$out" "$want" && [ ! -s "$RECORD" ]
verdict $? "make kernels KERNEL_BASE=6.12 VARIANTS=stock,mine is refused, nothing built" "$(brief "$out$(cat "$RECORD")")"
out=$(make -C "$co" --no-print-directory -s kernels-check MATRIX=quick KERNEL_BASE=6.12 VARIANTS=mine 2>&1)
clean_error $? "$out" "$want"
verdict $? "make kernels-check KERNEL_BASE=6.12 VARIANTS=mine is refused, naming the line" "$(brief "$out")"
out=$(make -C "$co" --no-print-directory -s kernels KERNEL_BUILD="$tmp/build" MATRIX=quick VARIANTS=stock,mine 2>&1) &&
	[ "$(cat "$RECORD")" = "base=6.1 variants=stock,mine" ]
verdict $? "make kernels VARIANTS=stock,mine builds both on 6.1" "$(brief "$out$(cat "$RECORD")")"

out=$(cd "$co/plots" && python3 -c 'import runlib; print(runlib.variants()[-1])' 2>&1)
[ "$out" = mine ]
verdict $? "the charts' variants (plots/runlib.py) hold mine, in its place" "$out"
