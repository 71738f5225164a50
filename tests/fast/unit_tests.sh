#!/usr/bin/env bash
# test: unit tests
# runs: first
# The C unit tests (tests/unit/test_*.c), each built plain and with
# ASan+UBSan by make unit-bins (the driver builds them first): one
# PASS:/FAIL: line per check, named by its test.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "unit"
n=0
for bin in build/unit/test_*; do
	[ -x "$bin" ] || continue
	n=$((n + 1))
	name=$(basename "$bin")
	name=${name#test_}
	"$bin" >"$tmp/out" 2>&1
	rc=$?
	sed -nE "s/^(PASS|FAIL): /\1: $name: /p" "$tmp/out"
	[ $rc -eq 0 ] || grep -q '^FAIL: ' "$tmp/out" ||
		echo "FAIL: $name: exit $rc: $(tail -n 2 "$tmp/out" | tr '\n' ' ')"
done
[ "$n" -gt 0 ] || bad "no unit test binaries in build/unit/ (make unit-bins)"
