#!/usr/bin/env bash
# The runner refuses bad input with a clear message before any boot.
set -uo pipefail
cd "$(dirname "$0")/.."
r=build/crngbench-run
tmp=$(mktemp -d)
t() {
	local name=$1 want=$2; shift 2
	local out rc
	out=$(timeout 60 "$r" --image build/guest.cpio "$@" 2>&1); rc=$?
	if [ $rc -eq 2 ] && grep -q -- "$want" <<<"$out" && [ ! -e "$tmp/boots" ]; then
		echo "PASS: runner input: $name"
	else
		echo "FAIL: runner input: $name: rc=$rc, wanted '$want', got: $(head -c 300 <<<"$out")"
	fi
}
t "unknown axis lists the axes" "axes are: variant hz accel cpu" --out "$tmp/a" --set colour=red
t "unknown accel lists the accepted ones" "accepted values are tcg, kvm, icount" --out "$tmp/b" --set accel=xen
t "a -cpu spelling QEMU rejects" "rejects cpu=nosuchcpu" --out "$tmp/c" --set cpu=nosuchcpu
t "a CPU flag without a model" "needs a model before it" --out "$tmp/d" --set cpu=-rdrand
t "a kernel variant that is not built" "is not built" --out "$tmp/e" --set variant=notbuilt
t "an unknown read" "unknown read 'bogus'" --out "$tmp/f" --set reads=urandom:bogus
t "an unknown matrix file" "cannot read matrix file" --out "$tmp/g" --matrix bench/nosuch.matrix
t "a bad shard" "need K/N" --out "$tmp/h" --shard 3/2
mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
if [ "$(id -u)" = 0 ]; then
	# root writes anywhere; a path under a regular file is unwritable for all
	touch "$tmp/file"
	t "an unwritable results directory" "cannot create results directory" --out "$tmp/file/sub"
else
	t "an unwritable results directory" "not writable" --out "$tmp/ro"
fi
# --dry-run prints every QEMU command line and boots nothing.
out=$("$r" --image build/guest.cpio --out "$tmp/dry" --matrix bench/quick.matrix --dry-run 2>&1)
if grep -q -- "-nic none" <<<"$out" && grep -q "boots" <<<"$out" && [ ! -e "$tmp/dry/raw.csv" ]; then
	echo "PASS: runner --dry-run shows the QEMU command lines and boots nothing"
else
	echo "FAIL: runner --dry-run: $(head -c 300 <<<"$out")"
fi
chmod 755 "$tmp/ro"; rm -rf "$tmp"
