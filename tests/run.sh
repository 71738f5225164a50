#!/usr/bin/env bash
# The test command (make check): the fast tier (make unit: tests/fast/),
# the slow tier (tests/slow/: no kernel, no boot), the kernels and the
# guest image the boots need (the cross kernels of tests/boot/arches.sh are
# its own), then the boot tier (tests/boot/), with the mutation check
# beside them. Each tier's scripts are found by glob (tests/lib/lib.sh
# run_tier). Every test prints PASS:/FAIL:/SKIP: lines; SKIP only for what
# this machine cannot do, and for another base's kernels that are cold
# here (tests/fast/cold_kernels.sh: CRNGBENCH_CHECK_COLD=all builds them),
# with the reason. Ends with "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
tests/fast/cold_kernels.sh check || exit 2
out=tests/out
rm -rf "$out"
mkdir -p "$out"
log=$out/results.txt
: >"$log"
cache=$(scripts/cache-dir.sh)
kernels=$(kernel/build.sh --kernels-dir)
export CRNGBENCH_CACHE=$cache
# every kernel a test uses must be one a build step below accounted for
# (tests/lib/kernel_accounting.sh): a warm cache hides no cold failure
export CRNGBENCH_KERNEL_LEDGER=$PWD/$out/kernels.ledger
: >"$CRNGBENCH_KERNEL_LEDGER"
# the test scripts that passed whole in this run (tests/lib/lib.sh's
# passed_script): the mutation check does not run them again on the
# unmutated tree
export CRNGBENCH_PASSED_SCRIPTS=$PWD/$out/passed-scripts.txt
: >"$CRNGBENCH_PASSED_SCRIPTS"

# Each stage's wall time, kept in $out/time-split.txt and printed before
# the closing line, so the next cold run's split is measured, not guessed.
split=$out/time-split.txt
step_name='' step_t0=$(date +%s) run_t0=$step_t0
: >"$split"
step_time() {
	local now
	now=$(date +%s)
	[ -z "$step_name" ] || printf '%5d s  %s\n' $((now - step_t0)) "$step_name" >>"$split"
	step_name=$1 step_t0=$now
}
step() { step_time "$*"; echo "== $*"; }
# shellcheck source=tests/lib/lib.sh
. tests/lib/lib.sh

step "the fast tier: make unit (unit tests, fuzz smoke, fake-qemu runner tests, plots)"
collect "make unit" tests/unit.sh
# The mutation check needs no kernel, image or boot: it starts now, beside
# the later stages, and takes the CPU their steps leave idle (guest
# timers, ssh, fake-qemu's sleeps: a warm run's stage 4 used 1.6 of the 2
# cores). Its mutants whose scripts passed in the fast tier go first;
# those of stage 1 and 4's scripts (tests/slow/report_regen.sh,
# tests/reproduce.sh...) later, when those have mostly passed too, so it
# seldom runs one on the unmutated tree itself (tests/mutation.sh).
collect_bg mutation tests/mutation.sh
# the slow tier (tests/slow/): no kernel and no boot, but too long for
# make unit; two at a time, as the fast tier runs its steps
step "the slow tier: REPORT.md regenerated, hostile results, lint, make reproduce in stand-ins and over ssh (tests/slow/, two at a time)"
run_tier slow

step "kernels (build what the tests need)"
# Built as make bench builds them (make kernels, a make under make): what
# users see in the release files depends on it. Every base of kernel/bases
# (the default base's kernels are the ones booted below).
kernels_ok=1
# A base's build directory that is cold here is built only for the
# default base, unless CRNGBENCH_CHECK_COLD=all (tests/fast/cold_kernels.sh):
# its kernels' tests SKIP, with the reason.
cold_left=''
# (exit 2, a bad base or architecture: built, and the build says why)
left_cold() { # BASE ARCH HZ VARIANTS WHAT: true, and a SKIP line, when they are left unbuilt
	local why
	why=$(tests/fast/cold_kernels.sh decide "$1" "$2" "$3" "$4" 2>/dev/null)
	[ $? = 1 ] || return 1
	say "SKIP: kernel: not built nor tested, $5: $why"
	[ "$2" != x86_64 ] || cold_left="$cold_left $1"
}
for b in $(scripts/table.sh --keys kernel/bases); do
	klog=$out/kernel-build-$b.log
	variants=$(KERNEL_BASE=$b scripts/variants.sh) # the base's (kernel/variants)
	if left_cold "$b" x86_64 250 "$variants" "the variants and their release strings"; then
		:
	elif timed "make kernels (base $b, x86_64)" make kernels MATRIX=quick VARIANTS="$variants" HZ=250 KERNEL_BASE="$b" >"$klog" 2>&1; then
		pass "kernel: all variants build on base $b ($variants)"
		if grep -n -m 3 -E "Entering directory|Leaving directory" "$klog" >"$out/chatter.txt"; then
			fail "kernel: make kernels printed make's directory chatter: $(tr '\n' ' ' <"$out/chatter.txt")"
		else
			pass "kernel: make kernels prints no make chatter, one line per variant (base $b: $(grep -c -E 'up to date|built in' "$klog") kernels)"
		fi
		collect "kernel accounting ($b)" tests/lib/kernel_accounting.sh account "$klog" "$b" x86_64 250 "$variants"
		collect "kernel release strings ($b)" tests/lib/kernel_release.sh "$(KERNEL_BASE=$b kernel/build.sh --kernels-dir)" "$variants"
	else
		fail "kernel: build failed on base $b: $(tail -n 5 "$klog" | tr '\n' ' ')"
		[ "$b" != "$(scripts/table.sh --keys kernel/bases | head -n 1)" ] || kernels_ok=0
	fi
	# the probe-only machines of the bases matrix (versatilepb, q800, m68k
	# virt) boot stock and block of every base at HZ=100
	# (and versatilepb's block-fix, the fix for 32-bit kernels, booted
	# against block by tests/boot/fix_boots.sh)
	for a in armv5 m68k; do
		alog=$out/kernel-build-$b-$a.log
		av=stock,block am=arches
		[ $a != armv5 ] || av=stock,block,block-fix am=fix
		wc="their release strings"
		[ $a != m68k ] || wc="$wc, the boot-loader seed"
		! left_cold "$b" $a 100 $av "$av, $wc" || continue
		if timed "make kernels (base $b, $a)" make kernels MATRIX=$am KERNEL_ARCH=$a KERNEL_BASE="$b" VARIANTS=$av >"$alog" 2>&1; then
			collect "kernel accounting ($b, $a)" tests/lib/kernel_accounting.sh account "$alog" "$b" $a 100 $av
			collect "kernel release strings ($b, $a)" tests/lib/kernel_release.sh "$(KERNEL_BASE=$b kernel/build.sh --kernels-dir)" $av $a 100
			[ $a != m68k ] || collect "m68k boot-loader seed ($b)" tests/lib/kernel_seed.sh "$(KERNEL_BASE=$b kernel/build.sh --kernels-dir)"
		else
			fail "kernel: stock,block do not build for $a on base $b: $(tail -n 3 "$alog" | tr '\n' ' ')"
		fi
	done
done

step "guest image"
if timed "guest image (make image runner)" make -s image runner >"$out/make.log" 2>&1; then
	pass "build: probe (static) and guest image build with -Wall -Wextra -Werror"
else
	fail "build: make image runner: $(tail -n 5 "$out/make.log" | tr '\n' ' ')"
	kernels_ok=0
fi

# The boot tier (tests/boot/): real boots and what needs the kernels and
# the image, two at a time: the TCG boots run one QEMU (--jobs is 1 on 2
# CPUs), and what an icount boot measures is guest time, which host load
# does not move. A script whose head says "# needs: kernels" is not run
# when they did not build (kernels_ok); tests/boot/bases_boots.sh reads
# CRNGBENCH_COLD_LEFT, the bases left cold above. tests/boot/arches.sh
# rebuilds the probe-only images that fix_boots boots: a whole image
# replaces the old by a rename (guest-image/build-probe-image.sh), the
# same bytes, so a boot reads one or the other whole.
step "the boot tier: real boots (TCG, icount), the revert's architectures (tests/boot/, two at a time)"
export CRNGBENCH_COLD_LEFT=$cold_left
run_tier boot

step "the kernels the boots ran: each accounted for by a build step above"
collect "kernel accounting (boots)" tests/lib/kernel_accounting.sh used "$out"

step "the mutation check: each breakage of tests/mutants must fail a test (started after the fast tier, beside the rest: what is left of it)"
collect_wait mutation

step_time ''
printf '%5d s  %s\n' $(($(date +%s) - run_t0)) "make check, in all" >>"$split"
echo
echo "time split (wall, this machine):"
cat "$split"
grep -h -E '^\[kernel\] .*: built in ' "$out"/kernel-build-*.log "$out"/arches.build-*.log 2>/dev/null | sed 's/^/  /' || true
echo "the steps that used the most CPU (wall, CPU; all: $out/time.txt, $out/unit/time.txt):"
# steps only: make unit's line here and "the fast tier in all" there are
# each the sum of the fast tier's steps, listed in their place
{ grep -v '  make unit$' "$out/time.txt"; grep -v '  the fast tier in all$' "$out/unit/time.txt"; } 2>/dev/null |
	sort -k3,3nr | head -n 12
closing --skipped
