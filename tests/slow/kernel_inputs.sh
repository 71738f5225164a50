#!/usr/bin/env bash
# test: kernel input checks
# kernel/build.sh refuses bad input before any long work, naming the cause.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "kernel input"
t() { # name, expected message fragment, command...
	local name=$1 want=$2; shift 2
	local out rc
	out=$("$@" 2>&1); rc=$?
	if [ $rc -ne 0 ] && grep -q -- "$want" <<<"$out"; then ok "$name"
	else bad "$name: rc=$rc, wanted '$want', got: $(head -c 300 <<<"$out")"; fi
}
t "unknown variant is named with the known ones" "unknown kernel variant 'nosuch'; known variants: stock" \
	kernel/build.sh --check nosuch
t "unsupported HZ" "KERNEL_HZ=300 is not supported" env KERNEL_HZ=300 kernel/build.sh --check stock
t "missing source package names the fix" "apt-get install -y linux-source-6.1" \
	env KERNEL_TARBALL=/nonexistent.tar.xz kernel/build.sh --check stock
t "unknown base is named with the known ones" "unknown KERNEL_BASE '9.9'; known bases: 6.1 6.12" \
	env KERNEL_BASE=9.9 kernel/build.sh --check stock

# A base whose package or series is missing: a copy of kernel/ (and the
# scripts build.sh and deps.sh read) with a base 9.9 of its own, checked
# before anything is unpacked or built (its cache stays empty).
mkdir -p "$tmp/scripts" "$tmp/bench"
cp -r kernel "$tmp/kernel"
cp scripts/table.sh scripts/cache-dir.sh scripts/variants.sh scripts/deps.sh scripts/fresh.sh scripts/studies.sh "$tmp/scripts/"
echo "9.9   linux-source-9.9   /nonexistent/linux-source-9.9.tar.xz   kernel/patches-9.9  -  no" >>"$tmp/kernel/bases"
t "a base whose patch series is missing is named with its directory" "base 9.9's patch series kernel/patches-9.9 does not exist" \
	env KERNEL_BASE=9.9 CRNGBENCH_CACHE="$tmp/cache" "$tmp/kernel/build.sh" --check stock
cp -r kernel/patches "$tmp/kernel/patches-9.9"
rm "$tmp"/kernel/patches-9.9/0003-*.patch
t "a patch file kernel/variants names but the base lacks is named" \
	"kernel/variants names patch 0003, but base 9.9's series has no kernel/patches-9.9/0003-\*.patch" \
	env KERNEL_BASE=9.9 CRNGBENCH_CACHE="$tmp/cache" "$tmp/kernel/build.sh" --check stock
cp kernel/patches/0003-*.patch "$tmp/kernel/patches-9.9/"
t "a base whose package is missing names the package" "apt-get install -y linux-source-9.9" \
	env KERNEL_BASE=9.9 CRNGBENCH_CACHE="$tmp/cache" "$tmp/kernel/build.sh" --check stock
[ ! -e "$tmp/cache/src" ] && ok "nothing unpacked for a base that cannot be built" ||
	bad "$tmp/cache/src was created for a base that cannot be built"
# A tarball of another version than the base's is named before its tree
# is patched or built (a release string must start with the base).
mkdir -p "$tmp/fake/linux-6.12.1"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 1\n' >"$tmp/fake/linux-6.12.1/Makefile"
tar -C "$tmp/fake" -cJf "$tmp/fake.tar.xz" linux-6.12.1
t "a tarball of another version than its base is named" "fake.tar.xz holds Linux 6.12, not base 6.1" \
	env KERNEL_BASE=6.1 KERNEL_TARBALL="$tmp/fake.tar.xz" CRNGBENCH_CACHE="$tmp/cache" kernel/build.sh --check stock
# scripts/deps.sh: a matrix's base axis names packages of kernel/bases
# (run as nobody: it lists what is missing and never installs)
printf 'name = t\nbase = 6.1,9.8\n' >"$tmp/bench/t.matrix"
chmod -R a+rX "$tmp"
nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
t "deps.sh: an unknown base of a matrix is named with the known ones" \
	"bench/t.matrix: unknown kernel base '9.8'; known bases: 6.1 6.12 9.9" nobody "$tmp/scripts/deps.sh" --matrix t
printf 'name = t\nbase = 6.12,9.9\n' >"$tmp/bench/t.matrix"
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$tmp/scripts/deps.sh" --matrix t 2>&1)
grep -q '^\[deps\] base 6.12 needs: linux-source-6.12$' <<<"$out" && grep -q '^\[deps\] base 9.9 needs: linux-source-9.9$' <<<"$out" &&
	grep -q 'missing packages:.* linux-source-9.9' <<<"$out" &&
	ok "deps.sh --matrix installs each base's package of the matrix's base axis" ||
	bad "deps.sh --matrix with base = 6.12,9.9: $(head -c 300 <<<"$out")"
patch=$tmp/bad.patch
cat >"$patch" <<'P'
--- a/drivers/char/random.c
+++ b/drivers/char/random.c
@@ -1,3 +1,3 @@
-this line is not in random.c
+neither is this one
 nor this
P
t "a patch that does not apply is named before building" "patch $(basename "$patch") does not apply for variant 'stock'" \
	env EXTRA_PATCHES="$patch" kernel/build.sh --check stock
for b in $(scripts/table.sh --keys kernel/bases); do
	out=$(KERNEL_BASE=$b kernel/build.sh --check "$(KERNEL_BASE=$b scripts/variants.sh)" 2>&1) &&
		echo "PASS: kernel: every variant's series applies in order to the pristine tree of base $b" ||
		echo "FAIL: kernel: series do not apply on base $b: $out"
done

# An option that a base does not have, asked for in a fragment every base
# reads (here 6.1's RNG options where they were before base-6.1/), is named
# when that base is configured, "is not set" too: m68k's would otherwise
# pass unnoticed on 6.12, and its seed be credited. Configured in a cache
# of its own that borrows the unpacked 6.12 tree (a configuration reads
# it; nothing is built: a kernel/build.sh that went on is stopped).
tree=$(KERNEL_BASE=6.12 kernel/build.sh --tree stock 2>/dev/null)
mkdir -p "$tmp/cache6/src"
ln -s "$tree" "$tree.orig" "$tmp/cache6/src/"
mv "$tmp/kernel/config/base-6.1/rng.config" "$tmp/kernel/config/rng.config"
mv "$tmp/kernel/config/m68k/base-6.1/rng.config" "$tmp/kernel/config/m68k/seed.config"
t "an option base 6.12 lacks is named with its fragment (x86_64)" \
	"(base 6.12) does not have: CONFIG_RANDOM_TRUST_CPU (kernel/config/rng.config) CONFIG_RANDOM_TRUST_BOOTLOADER (kernel/config/rng.config) CONFIG_WARN_ALL_UNSEEDED_RANDOM (kernel/config/rng.config)" \
	env KERNEL_BASE=6.12 CRNGBENCH_CACHE="$tmp/cache6" timeout 300 "$tmp/kernel/build.sh" stock
t "an option base 6.12 lacks, asked not set, is named (m68k)" \
	"(base 6.12) does not have: CONFIG_RANDOM_TRUST_BOOTLOADER (kernel/config/m68k/seed.config)$" \
	env KERNEL_BASE=6.12 KERNEL_ARCH=m68k KERNEL_HZ=100 CRNGBENCH_CACHE="$tmp/cache6" timeout 300 "$tmp/kernel/build.sh" stock
