#!/usr/bin/env bash
# make unit: the fast tier, no kernel, no guest image, no real QEMU. The
# unit tests are built first (plain and with ASan+UBSan, make unit-bins),
# then every script of tests/fast/ runs as a step, two at a time (the
# reference machine has 2 cores), under the label its "# test: " line
# gives (tests/lib/lib.sh run_tier): a new fast test is a new file there.
# The slow tier (tests/slow/: no boot, but a tenth or more of this tier's
# CPU each) and the boots (tests/boot/) are make check's (tests/run.sh).
# Each step's time: tests/out/unit/time.txt.
# One PASS:/FAIL: line per check; ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
out=tests/out/unit
rm -rf "$out" && mkdir -p "$out"
log=$out/results.txt
: >"$log"
# shellcheck source=tests/lib/lib.sh
. tests/lib/lib.sh

# No real QEMU: every step runs with the qemu-system-* programs hidden from
# PATH, as on a machine without them (tests/lib/fake-qemu stands in).
if hide_qemu "$PWD/$out/path"; then
	say "PASS: hermetic: the fast tier runs with no real QEMU on PATH (qemu-system-* hidden; tests/lib/fake-qemu stands in)"
else
	say "FAIL: hermetic: cannot hide the real QEMU from PATH ($PATH)"
fi

t_start=$SECONDS
children_cpu c_start
if make -s -j"$(nproc)" unit-bins >"$out/make.log" 2>&1; then
	say "PASS: build: unit tests and runner build with -Wall -Wextra -Werror (plain, ASan+UBSan)"
else
	say "FAIL: build: make unit-bins: $(grep -m3 -E 'error|Error' "$out/make.log" | tr '\n' ' ')"
fi
time_line "$t_start" "$c_start" "build (make unit-bins)"

run_tier fast
time_line "$t_start" "$c_start" "the fast tier in all"

closing
