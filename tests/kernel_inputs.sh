#!/usr/bin/env bash
# kernel/build.sh refuses bad input before any long work, naming the cause.
set -uo pipefail
cd "$(dirname "$0")/.."
t() { # name, expected message fragment, command...
	local name=$1 want=$2; shift 2
	local out rc
	out=$("$@" 2>&1); rc=$?
	if [ $rc -ne 0 ] && grep -q -- "$want" <<<"$out"; then echo "PASS: kernel input: $name"
	else echo "FAIL: kernel input: $name: rc=$rc, wanted '$want', got: $(head -c 300 <<<"$out")"; fi
}
t "unknown variant is named with the known ones" "unknown kernel variant 'nosuch'; known variants: stock" \
	kernel/build.sh --check nosuch
t "unsupported HZ" "KERNEL_HZ=300 is not supported" env KERNEL_HZ=300 kernel/build.sh --check stock
t "missing source package names the fix" "apt-get install -y linux-source-6.1" \
	env KERNEL_TARBALL=/nonexistent.tar.xz kernel/build.sh --check stock
bad=$(mktemp --suffix=.patch)
cat >"$bad" <<'P'
--- a/drivers/char/random.c
+++ b/drivers/char/random.c
@@ -1,3 +1,3 @@
-this line is not in random.c
+neither is this one
 nor this
P
t "a patch that does not apply is named before building" "patch $(basename "$bad") does not apply for variant 'stock'" \
	env EXTRA_PATCHES="$bad" kernel/build.sh --check stock
rm -f "$bad"
out=$(kernel/build.sh --check "$(scripts/variants.sh)" 2>&1) &&
	echo "PASS: kernel: every variant's series applies in order to the pristine tree" ||
	echo "FAIL: kernel: series do not apply: $out"
