#!/usr/bin/env bash
# test: kernel build progress
# What a user watching a kernel build sees (kernel/progress.sh): per
# variant what is building, the time taken and, where a cold build of the
# same directory was counted before, an estimate of what is left; never
# make's output. A fake kbuild log stands in for the build.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "kernel_progress"
if [ ! -r kernel/progress.sh ]; then
	echo "FAIL: kernel build progress: kernel/progress.sh missing (a cold build prints nothing for minutes)"
	exit 0
fi
# shellcheck source=kernel/progress.sh
. kernel/progress.sh
log=$tmp/build.log
echo 40 >"$tmp/units"
{
	printf '  CC      init/main.o\n  CC      kernel/fork.o\n  AS      arch/x86/entry/entry_64.o\n'
	printf '  LD      vmlinux.o\n  AR      lib/lib.a\n  HOSTCC  scripts/basic/fixdep\nmake[2]: Entering directory x\n'
} >"$log"
[ "$(compiled_units "$log")" = 5 ] &&
	echo "PASS: kernel build progress: counts kbuild's compile lines, not host tools or make's chatter" ||
	echo "FAIL: kernel build progress: compiled_units counted $(compiled_units "$log"), want 5"

# cold, with a count from the last cold build: name, files, time, estimate
PROGRESS_SECONDS=0.3 progress_start stock-hz250 "$log" "$tmp/units" "$tmp/no-image" 2>"$tmp/cold.txt"
sleep 1
progress_stop
if grep -q '^\[kernel\] stock-hz250: building from cold, ~40 files' "$tmp/cold.txt" &&
	grep -qE '^\[kernel\] stock-hz250: 5 of ~40 files, [0-9]+s, ~[0-9]+s left$' "$tmp/cold.txt"; then
	echo "PASS: kernel build progress: a cold build names the kernel, files done of the last cold count, elapsed and time left"
else
	echo "FAIL: kernel build progress: cold build printed: $(tr '\n' '|' <"$tmp/cold.txt")"
fi

# cold, first build in this directory: says there is no estimate, still counts
PROGRESS_SECONDS=0.3 progress_start block-hz250 "$log" "$tmp/nothing" "$tmp/no-image" 2>"$tmp/first.txt"
sleep 1
progress_stop
if grep -q 'block-hz250: building from cold; no estimate yet' "$tmp/first.txt" &&
	grep -qE 'block-hz250: 5 files compiled, [0-9]+s$' "$tmp/first.txt"; then
	echo "PASS: kernel build progress: the first cold build says it has no estimate and still counts files and time"
else
	echo "FAIL: kernel build progress: first build printed: $(tr '\n' '|' <"$tmp/first.txt")"
fi

# incremental (the image exists): no cold estimate claimed
: >"$tmp/image"
PROGRESS_SECONDS=0.3 progress_start legacy-hz250 "$log" "$tmp/units" "$tmp/image" 2>"$tmp/inc.txt"
sleep 0.5
progress_stop
if grep -q 'legacy-hz250: building, incremental' "$tmp/inc.txt" && ! grep -q 'left' "$tmp/inc.txt"; then
	echo "PASS: kernel build progress: an incremental build is said to be one, with no cold estimate"
else
	echo "FAIL: kernel build progress: incremental build printed: $(tr '\n' '|' <"$tmp/inc.txt")"
fi

# stopping leaves nothing holding the caller's stderr (make bench | tee)
if timeout 10 bash -c '. kernel/progress.sh; PROGRESS_SECONDS=30 progress_start x "$1" "$2" "$3"; sleep 0.5; progress_stop' _ \
	"$log" "$tmp/units" "$tmp/image" 2>&1 | cat >/dev/null && [ "${PIPESTATUS[0]}" = 0 ]; then
	echo "PASS: kernel build progress: stopping it leaves no process holding the terminal's pipe"
else
	echo "FAIL: kernel build progress: a pipe from the build stayed open after progress_stop (an orphaned sleep?)"
fi
