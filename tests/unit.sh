#!/usr/bin/env bash
# make unit: the fast tier, no kernel and no guest image. Unit tests (built
# by the Makefile from its own source lists, plain and with ASan+UBSan), a
# fuzz smoke run of the record reader, the runner's call graph and file
# sizes, the runner's input checks, the runner against tests/fake-qemu (the
# per-machine quirks too), its QEMU command lines against tests/golden/,
# and the plot, report and mail scripts on the
# fixture run, and those scripts on hostile and damaged results directories
# (the runner too: tests/hostile_runner.sh);
# make reproduce in stand-in checkouts, and REPORT.md and post.txt
# regenerated from the committed runs; the commands README.md and docs/
# give, against the Makefile, the scripts and the runner.
# One PASS:/FAIL: line per check; ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
out=tests/out/unit
rm -rf "$out" && mkdir -p "$out"
log=$out/results.txt
: >"$log"
# shellcheck source=tests/lib.sh
. tests/lib.sh

# No real QEMU: every step runs with the qemu-system-* programs hidden from
# PATH, as on a machine without them (tests/fake-qemu stands in).
if hide_qemu "$PWD/$out/path"; then
	say "PASS: hermetic: the fast tier runs with no real QEMU on PATH (qemu-system-* hidden; tests/fake-qemu stands in)"
else
	say "FAIL: hermetic: cannot hide the real QEMU from PATH ($PATH)"
fi

if make -s -j"$(nproc)" unit-bins >"$out/make.log" 2>&1; then
	say "PASS: build: unit tests and runner build with -Wall -Wextra -Werror (plain, ASan+UBSan)"
	for bin in build/unit/test_*; do
		name=$(basename "$bin")
		name=${name#test_}
		"$bin" >"$out/u.txt" 2>&1
		rc=$?
		sed -nE "s/^(PASS|FAIL): /\1: $name: /p" "$out/u.txt" | tee -a "$log"
		[ $rc -eq 0 ] || grep -q '^FAIL: ' "$out/u.txt" ||
			say "FAIL: $name: exit $rc: $(tail -n 2 "$out/u.txt" | tr '\n' ' ')"
	done
else
	say "FAIL: build: make unit-bins: $(grep -m3 -E 'error|Error' "$out/make.log" | tr '\n' ' ')"
fi

# The record reader takes whatever a guest sends: no crash, no sanitizer report.
if clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o "$out/fuzz_record" \
	tests/fuzz/fuzz_record.c guest-image/record.c 2>"$out/cc.err"; then
	mkdir -p "$out/corpus"
	cp tests/fixtures/*.result tests/fuzz/*.seed "$out/corpus/"
	if (cd "$out" && ./fuzz_record -max_total_time=10 -seed=1 corpus >fuzz.log 2>&1); then
		say "PASS: fuzz: record reader survives $(grep -o 'Done [0-9]* runs' "$out/fuzz.log" | cut -d' ' -f2) inputs without a crash or sanitizer report"
	else
		say "FAIL: fuzz: record reader crashed: $(grep -m2 -E 'ERROR|runtime error' "$out/fuzz.log" | tr '\n' ' ') (input saved in $out/crash-*)"
	fi
else
	say "FAIL: fuzz: cannot build with clang -fsanitize=fuzzer: $(head -n 2 "$out/cc.err" | tr '\n' ' ') (apt-get install clang libclang-rt-14-dev)"
fi

# No circle among the runner's files, none over 600 lines (after the build:
# it reads the unit tests' objects).
collect "bench call graph and file sizes" tests/callgraph.sh
# The fake boots mostly wait (timeouts, a stopped runner): they run beside
# the steps that compute, and their lines come in their place below.
collect_bg fake_boots tests/fake_boots.sh
# make reproduce in stand-in checkouts against fake-qemu (mostly waiting too)
collect_bg reproduce tests/reproduce.sh
collect_bg reproduce_shards tests/reproduce_shards.sh
collect "runner input checks" tests/runner_inputs.sh
collect "the rtc and base axes" tests/axes.sh
collect "the early axis (the early reads in a child of PID 1)" tests/early.sh
collect "golden QEMU command lines" tests/golden_cmdlines.sh
collect "the shift axis (icount's CPU speed per cell)" tests/shift.sh
collect "per-machine quirks against fake-qemu" tests/machine_quirks.sh
collect "the stop rule against fake-qemu (identical, precise, limit, the same-second trap)" tests/stop_rule.sh
collect "runner on results directories" tests/runner_results.sh
collect "the runner against issue 35's hostile inputs" tests/hostile_runner.sh
collect "plots and report tables" tests/plots.sh
collect "the mail and the terminal summary" tests/post.sh
collect "the chart tools' facts, each from one place" tests/plots_facts.sh
collect "kernel build progress" tests/kernel_progress.sh
collect "fact tables and their reader" tests/tables.sh
collect "the commands of README.md and docs/" tests/docs_commands.sh
collect "hostile and damaged results directories" tests/hostile_plots.sh
collect "hostile input, round four: committed runs, summaries, quoted figures, disk full" tests/hostile_round4.sh
collect "chart 8 and the entropy tables" tests/entropy_plots.sh
collect "chart 9 and the bases table" tests/bases_plots.sh
collect "digests of what the reads returned, in results directories" tests/digests.sh
collect "the kernels of the planned cells" tests/planned_kernels.sh
collect "make kernels builds the base asked for" tests/make_kernels.sh
collect "the plan and its estimated host time" tests/estimate.sh
collect "make reproduce's kernel builds in its plan" tests/plan_builds.sh
collect "REPORT.md and post.txt from the committed runs" tests/report_regen.sh
collect "REPORT.md's first screen: the answer, against its runs" tests/answer.sh
collect "REPORT.md's prose numbers against its generated tables" tests/prose_numbers.sh
collect "REPORT.md's table of the committed runs" tests/runs_table.sh
collect "the figures the prose quotes (plots/quoted)" tests/quoted.sh
collect_wait fake_boots
collect_wait reproduce
collect_wait reproduce_shards

closing
