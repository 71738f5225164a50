#!/usr/bin/env bash
# test: each step's CPU seconds, to a tenth, none counted twice (tests/lib/lib.sh)
# tests/lib/lib.sh's CPU seconds per step ($out/time.txt, make check's list of
# the steps that used the most CPU): a step run by collect, timed, lane or
# collect_bg counts the CPU of what it ran, to a tenth of a second (most
# of the fast tier's steps take less than one), and a total taken across
# the steps is their sum, not more (no step counted twice). Each step
# burns at least 0.3 s of CPU by its own clock, so a busy machine changes
# the wall time, not what is asserted.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "step cpu"
out=$tmp/out log=$tmp/out/results.txt
mkdir -p "$out" && : >"$log"
unset CRNGBENCH_PASSED_SCRIPTS
burn() {
	/usr/bin/python3 -c 'import time
while time.process_time() < 0.3:
    pass'
}
t0=$SECONDS
children_cpu c0
collect "collected" burn
timed "timed" burn
collect_bg bg burn
lane "lane one" burn
lane "lane two" burn
lanes_wait
collect_wait bg >/dev/null
time_line "$t0" "$c0" "all of them"
# a background job of this shell that ends, and is reaped here, while a
# step runs: not that step's CPU (the step waits until it is reaped)
(burn) &
job=$!
timed "beside a reaped job" bash -c 'while [ -e "/proc/$1" ]; do sleep 0.05; done' - "$job"
wait "$job"

# cpu NAME: the CPU seconds of NAME's line
cpu() { awk -F ' s CPU  ' -v n="$1" '$2 == n { split($1, a, " "); print a[3] }' "$out/time.txt"; }
sum=0
for s in collected timed "bg (beside the others)" "lane one" "lane two"; do
	c=$(cpu "$s")
	# (the kernel's count is in ticks, user and system each rounded down)
	if [ -n "$c" ] && awk -v c="$c" 'BEGIN { exit !(c >= 0.2) }'; then
		ok "a step that used 0.3 s of CPU says so, to a tenth ($s: $c s)"
	else
		bad "a step that used 0.3 s of CPU says '$c' s ($s), not 0.2 or more: $(brief "$(cat "$out/time.txt")")"
	fi
	sum=$(awk -v a="$sum" -v b="${c:-0}" 'BEGIN { print a + b }')
done
c=$(cpu "beside a reaped job")
[ -n "$c" ] && awk -v c="$c" 'BEGIN { exit !(c < 0.2) }' &&
	ok "a background job reaped during a step is not counted in it ($c s)" ||
	bad "a step that waited while a 0.3 s background job ended says '$c' s of CPU: $(brief "$(cat "$out/time.txt")")"
all=$(cpu "all of them")
# each step rounds to a tenth; the total also holds the lanes' polling
awk -v a="${all:-0}" -v s="$sum" 'BEGIN { exit !(a >= s - 0.5 && a <= s + 1) }' &&
	ok "the total of the steps is their sum, none counted twice ($all s, the steps $sum s)" ||
	bad "the total is '$all' s, the steps' sum $sum s: $(brief "$(cat "$out/time.txt")")"
[ "$(grep -c . "$log")" = 0 ] && ok "the steps said nothing, so the log holds nothing" ||
	bad "the log: $(brief "$(cat "$log")")"
