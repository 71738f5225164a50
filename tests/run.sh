#!/usr/bin/env bash
# The test command (make check): the fast tier (make unit: no kernel, no
# image), then lint, kernel builds and real TCG boots. Builds what the tests
# need (the cross kernels of tests/arches.sh too), runs every test, and ends with "N passed, N failed, N skipped". Each
# test prints one PASS:/FAIL:/SKIP: line; SKIP only for what this machine
# cannot do, with the reason.
set -uo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
out=tests/out
rm -rf "$out"
mkdir -p "$out"
log=$out/results.txt
: >"$log"
cache=$(scripts/cache-dir.sh)
kernels=$(kernel/build.sh --kernels-dir)
export CRNGBENCH_CACHE=$cache

step() { echo "== $*"; }
# shellcheck source=tests/lib.sh
. tests/lib.sh

step "the fast tier: make unit (unit tests, fuzz smoke, fake-qemu runner tests, plots)"
collect "make unit" tests/unit.sh

step "lint"
collect lint tests/lint.sh

step "kernels (build what the tests need)"
variants=$(scripts/variants.sh)
collect "kernel input checks" tests/kernel_inputs.sh
# Built as make bench builds them (make kernels, a make under make): what
# users see in the release files depends on it.
if make kernels MATRIX=quick VARIANTS="$variants" HZ=250 >"$out/kernel-build.log" 2>&1; then
	pass "kernel: all variants build ($variants)"
	if grep -n -m 3 -E "Entering directory|Leaving directory" "$out/kernel-build.log" >"$out/chatter.txt"; then
		fail "kernel: make kernels printed make's directory chatter: $(tr '\n' ' ' <"$out/chatter.txt")"
	else
		pass "kernel: make kernels prints no make chatter, one line per variant ($(grep -c -E 'up to date|built in' "$out/kernel-build.log") kernels)"
	fi
	collect "kernel release strings" tests/kernel_release.sh "$kernels" "$variants"
	kernels_ok=1
else
	fail "kernel: build failed: $(tail -n 5 "$out/kernel-build.log" | tr '\n' ' ')"
	kernels_ok=0
fi

step "guest image"
if make -s image runner >"$out/make.log" 2>&1; then
	pass "build: probe (static) and guest image build with -Wall -Wextra -Werror"
	collect "image reproducible" tests/image_reproducible.sh
else
	fail "build: make image runner: $(tail -n 5 "$out/make.log" | tr '\n' ' ')"
	kernels_ok=0
fi

step "TCG boots: behaviour of each variant"
if [ "$kernels_ok" = 1 ]; then
	collect "boot behaviour" python3 tests/boot_behaviour.py build/crngbench-run build/guest.cpio \
		"$kernels" "$out/boots"
	collect "icount" tests/icount.sh
	collect "determinism" tests/determinism.sh
	collect "resume" tests/resume.sh
	collect "shards" tests/shards.sh
else
	fail "boots: not run, the kernels or the image did not build"
fi

step "the revert's architectures: cross kernels and probe-only boots (icount)"
collect "arches" tests/arches.sh

step "the mutation check: each breakage of tests/mutants must fail a test"
collect "mutation check" tests/mutation.sh

closing --skipped
