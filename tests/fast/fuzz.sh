#!/usr/bin/env bash
# test: fuzz smoke run of the record reader
# runs: first
# The record reader takes whatever a guest sends: ten seconds of libFuzzer
# over it, from the fixtures' records, with no crash and no sanitizer
# report (a crash's input is kept in tests/out/fuzz/).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "fuzz"
keep=tests/out/fuzz
rm -rf "$keep" && mkdir -p "$keep/corpus"
if clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o "$tmp/fuzz_record" \
	tests/fuzz/fuzz_record.c guest-image/record.c 2>"$tmp/cc.err"; then
	cp tests/fixtures/*.result tests/fuzz/*.seed "$keep/corpus/"
	if (cd "$keep" && "$tmp/fuzz_record" -max_total_time=10 -seed=1 corpus >fuzz.log 2>&1); then
		ok "record reader survives $(grep -o 'Done [0-9]* runs' "$keep/fuzz.log" | cut -d' ' -f2) inputs without a crash or sanitizer report"
	else
		bad "record reader crashed: $(grep -m2 -E 'ERROR|runtime error' "$keep/fuzz.log" | tr '\n' ' ') (input saved in $keep/crash-*)"
	fi
else
	bad "cannot build with clang -fsanitize=fuzzer: $(head -n 2 "$tmp/cc.err" | tr '\n' ' ') (apt-get install clang libclang-rt-14-dev)"
fi
