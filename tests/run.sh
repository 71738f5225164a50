#!/usr/bin/env bash
# The test command (make check). Builds what the tests need, runs every
# test, and ends with "N passed, N failed, N skipped". Each test prints one
# PASS:/FAIL:/SKIP: line; SKIP only for what this machine cannot do, with
# the reason.
set -uo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
out=tests/out
rm -rf "$out"
mkdir -p "$out"
log=$out/results.txt
: >"$log"
cache=${CRNGBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/crngbench}
export CRNGBENCH_CACHE=$cache

step() { echo "== $*"; }
# Run a command whose stdout carries PASS:/FAIL:/SKIP: lines; a command that
# fails without saying FAIL still counts as one failure.
collect() {
	local name=$1; shift
	local tmp=$out/step.txt
	"$@" >"$tmp" 2>"$out/step.err"
	local rc=$?
	grep -E '^(PASS|FAIL|SKIP): ' "$tmp" | tee -a "$log"
	grep -E '^# ' "$tmp" || true
	if [ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$tmp"; then
		echo "FAIL: $name: exit $rc: $(tail -n 3 "$out/step.err" | tr '\n' ' ')" | tee -a "$log"
	fi
}
pass() { echo "PASS: $*" | tee -a "$log"; }
fail() { echo "FAIL: $*" | tee -a "$log"; }

CFLAGS_COMMON="-std=c11 -Wall -Wextra -Werror -g"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
unit_srcs() {
	case $1 in
	record) echo guest-image/record.c ;;
	analyze) echo guest-image/analyze.c ;;
	stats) echo bench/stats.c ;;
	matrix) echo bench/matrix.c bench/stats.c ;;
	report) echo bench/report.c bench/row.c bench/matrix.c bench/stats.c guest-image/record.c ;;
	classify) echo bench/classify.c bench/report.c bench/row.c bench/matrix.c bench/stats.c guest-image/record.c ;;
	esac
}

# Prefix each PASS/FAIL line of a unit test binary with its suite and build.
unit_run() {
	local rc
	"$1" >"$out/unit.txt" 2>&1
	rc=$?
	sed -E "s/^(PASS|FAIL): /\1: $2 /" "$out/unit.txt"
	return $rc
}

step "unit tests (plain, then ASan+UBSan)"
for t in record analyze stats matrix report classify; do
	for mode in plain asan; do
		flags="$CFLAGS_COMMON -O2"
		[ $mode = asan ] && flags="$CFLAGS_COMMON -O1 $SAN"
		bin=$out/test_${t}_$mode
		# shellcheck disable=SC2046
		if cc $flags -o "$bin" tests/unit/test_$t.c $(unit_srcs $t) -lm 2>"$out/cc.err"; then
			collect "unit $t [$mode]" unit_run "$bin" "$t [$mode]"
		else
			fail "unit $t [$mode] does not compile: $(head -n 3 "$out/cc.err" | tr '\n' ' ')"
		fi
	done
done

step "fuzzing the record reader (libFuzzer, 20 s)"
if clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o "$out/fuzz_record" \
	tests/fuzz/fuzz_record.c guest-image/record.c 2>"$out/cc.err"; then
	mkdir -p "$out/corpus"
	cp tests/fixtures/*.result "$out/corpus/"
	if (cd "$out" && ./fuzz_record -max_total_time=20 -seed=1 corpus >fuzz.log 2>&1); then
		pass "fuzz: record reader survives $(grep -o 'Done [0-9]* runs' "$out/fuzz.log" | cut -d' ' -f2) inputs without a crash or sanitizer report"
	else
		fail "fuzz: record reader crashed: $(grep -m2 -E 'ERROR|runtime error' "$out/fuzz.log" | tr '\n' ' ') (input saved in $out/crash-*)"
	fi
else
	fail "fuzz: cannot build with clang -fsanitize=fuzzer: $(head -n 2 "$out/cc.err" | tr '\n' ' ') (apt-get install clang libclang-rt-14-dev)"
fi

step "lint"
collect lint tests/lint.sh

step "kernels (build what the tests need)"
variants=$(awk '!/^#/ && NF {print $1}' kernel/variants | paste -sd,)
collect "kernel input checks" tests/kernel_inputs.sh
if KERNEL_HZ=250 kernel/build.sh "$variants" >"$out/kernel-build.log" 2>&1; then
	pass "kernel: all variants build ($variants)"
	collect "kernel release strings" tests/kernel_release.sh "$cache/kernels" "$variants"
	kernels_ok=1
else
	fail "kernel: build failed: $(tail -n 5 "$out/kernel-build.log" | tr '\n' ' ')"
	kernels_ok=0
fi

step "guest image and runner"
if make -s image runner >"$out/make.log" 2>&1; then
	pass "build: probe (static), guest image and runner build with -Wall -Wextra -Werror"
	collect "image reproducible" tests/image_reproducible.sh
	collect "runner input checks" tests/runner_inputs.sh
else
	fail "build: make image runner: $(tail -n 5 "$out/make.log" | tr '\n' ' ')"
	kernels_ok=0
fi

step "plots and report tables on the fixture run"
collect plots tests/plots.sh

step "TCG boots: behaviour of each variant"
if [ "$kernels_ok" = 1 ]; then
	collect "boot behaviour" python3 tests/boot_behaviour.py build/crngbench-run build/guest.cpio \
		"$cache/kernels" "$out/boots"
	collect "resume" tests/resume.sh
	collect "shards" tests/shards.sh
else
	fail "boots: not run, the kernels or the image did not build"
fi

p=$(grep -c '^PASS: ' "$log")
f=$(grep -c '^FAIL: ' "$log")
s=$(grep -c '^SKIP: ' "$log")
echo
grep '^FAIL: ' "$log" || true
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
