#!/usr/bin/env bash
# test: a kernel's key is its diffs, not its messages; build.sh --help
# kernel/build.sh keys a kernel by what it builds from. Rewording a patch's
# commit message (the mail's text, plots/series.py) must rebuild nothing;
# changing one line of its diff must rebuild what carries it, and only
# that. In a scratch copy, --status's KEY column shows it (nothing built,
# no tree needed: a stand-in tarball). --help prints the usage and exits
# 0; an unknown option is refused by name, not taken as a variant.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "kernel key"
unset MAKEFLAGS MAKELEVEL KERNEL_BASE KERNEL_ARCH KERNEL_HZ
co=$tmp/co
if ! tree_copy "$co"; then
	bad "cannot copy the checkout"
	exit 0
fi
export CRNGBENCH_CACHE=$tmp/cache
: >"$tmp/linux.tar.xz"
keys() { (cd "$co" && KERNEL_TARBALL=$tmp/linux.tar.xz kernel/build.sh --status stock,stock-fix 2>&1 | awk '{print $1, $4}'); }
before=$(keys)
p=$(ls "$co"/kernel/patches/0008-*.patch)
sed -i 's/^Fixes: /Reworded-by: nobody\nFixes: /; 2,20s/random/RANDOM/' "$p"
after=$(keys)
[ -n "$before" ] && [ "$before" = "$after" ]
verdict $? "a reworded commit message leaves every key as it was" "$before / $after"
sed -i 's/^+\t\.last = INITIAL_JIFFIES - HZ,/+\t.last = INITIAL_JIFFIES,/' "$p"
changed=$(keys)
[ "$(sed -n 1p <<<"$changed")" = "$(sed -n 1p <<<"$before")" ] &&
	[ "$(sed -n 2p <<<"$changed")" != "$(sed -n 2p <<<"$before")" ]
verdict $? "a changed diff line changes stock-fix's key (0008), not stock's" "$before / $changed"

out=$(cd "$co" && kernel/build.sh --help 2>&1)
[ $? -eq 0 ] && grep -q '^kernel/build.sh \[--check' <<<"$out" && ! grep -q error <<<"$out"
verdict $? "kernel/build.sh --help prints its usage and exits 0" "$(brief "$out")"
out=$(cd "$co" && kernel/build.sh --bogus stock 2>&1)
clean_error $? "$out" "unknown option '--bogus'"
verdict $? "an unknown option is refused by name, not taken as a variant" "$(brief "$out")"
