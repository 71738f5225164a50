# Sourced by tests/run.sh and tests/unit.sh: one way to run a step and
# count its PASS:/FAIL:/SKIP: lines. The caller sets out (a directory) and
# log (the file every result line is appended to).

say() { echo "$*" | tee -a "$log"; }

# children_cpu VAR: VAR gets the CPU time (user and system), in clock
# ticks, of every process this shell, or subshell, has waited for so far
# (the kernel's count: /proc/BASHPID/stat's cutime and cstime; not
# $(times), whose subshell has waited for nothing). time_line T0 CPU0
# NAME: a line of $out/time.txt for a step that started at $SECONDS T0 and
# children_cpu CPU0: its wall seconds and its CPU seconds to the nearest
# tenth (most steps of the fast tier take less than one: whole seconds
# lost a seventh of its CPU and said "0 s" for a dozen steps), so the next
# attempt at a faster make check knows where the CPU goes.
# timed NAME COMMAND...: COMMAND's exit code, and its line in
# $out/time.txt; COMMAND runs in a subshell (below), so a function given
# as COMMAND reads its caller's variables but sets none of them.
children_cpu() {
	local line f
	read -r line <"/proc/$BASHPID/stat" || { printf -v "$1" 0; return; }
	read -r -a f <<<"${line##*) }"
	printf -v "$1" %d $((f[13] + f[14]))
}
clk_tck=$(getconf CLK_TCK)
time_line() {
	local c d
	children_cpu c
	d=$((((c - $2) * 10 + clk_tck / 2) / clk_tck))
	printf '%5d s %5d.%d s CPU  %s\n' $((SECONDS - $1)) $((d / 10)) $((d % 10)) "$3" >>"$out/time.txt"
}
timed() { # (its locals prefixed: COMMAND may be a function that reads its caller's)
	local timed_name=$1 timed_t0=$SECONDS
	shift
	# in a subshell of its own, whose count holds what COMMAND ran alone: in
	# this shell's, a background step reaped meanwhile (make check's
	# mutation check, beside the kernel builds) counted in this step
	( "$@"; timed_rc=$?; time_line "$timed_t0" 0 "$timed_name"; exit $timed_rc )
}
pass() { say "PASS: $*"; }
fail() { say "FAIL: $*"; }

# Run a command whose stdout carries PASS:/FAIL:/SKIP: lines; a command that
# fails without saying FAIL still counts as one failure.
collect() {
	local name=$1 rc
	shift
	timed "$name" "$@" >"$out/step.txt" 2>"$out/step.err"
	rc=$?
	passed_script "$rc" "$out/step.txt" "$out/step.err" "$@"
	grep -E '^(PASS|FAIL|SKIP): ' "$out/step.txt" | tee -a "$log"
	grep -E '^# ' "$out/step.txt" || true
	if [ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$out/step.txt"; then
		fail "$name: exit $rc: $(tail -n 3 "$out/step.err" | tr '\n' ' ')"
	fi
}

# passed_script RC OUT ERR COMMAND...: a step that was a whole test script
# (tests/TIER/NAME.sh, no arguments; noted as NAME.sh) and passed (exit 0, no FAIL: line in OUT
# nor in ERR: tests/mutation.sh reads a script's stdout and stderr as one)
# is noted in $CRNGBENCH_PASSED_SCRIPTS, which tests/run.sh sets: make
# check's mutation check then knows it passes on the unmutated tree, the
# tree it just ran on, without running it there again.
passed_script() {
	local rc=$1 txt=$2 err=$3
	shift 3
	if [ -n "${CRNGBENCH_PASSED_SCRIPTS:-}" ] && [ $# -eq 1 ] && [[ $1 == tests/*/*.sh ]] &&
		[ "$rc" -eq 0 ] && ! grep -q '^FAIL: ' "$txt" "$err"; then
		basename "$1" >>"$CRNGBENCH_PASSED_SCRIPTS"
	fi
	return 0
}

# The closing lines: the failures again, then "N passed, N failed[, N skipped]".
# Returns non-zero if anything failed.
closing() {
	local p f s
	p=$(grep -c '^PASS: ' "$log")
	f=$(grep -c '^FAIL: ' "$log")
	s=$(grep -c '^SKIP: ' "$log")
	echo
	grep '^FAIL: ' "$log" || true
	if [ "${1:-}" = --skipped ]; then
		echo "$p passed, $f failed, $s skipped"
	else
		echo "$p passed, $f failed"
	fi
	[ "$f" -eq 0 ]
}

# collect_bg NAME COMMAND...: start a step now, in the background (one that
# mostly waits, as the fake boots do); collect_wait NAME: its lines, in
# the place of the log where it is called. The fast tier overlaps the
# steps that wait with those that compute.
collect_bg() {
	local name=$1
	shift
	(t0=$SECONDS; "$@" >"$out/bg-$name.txt" 2>"$out/bg-$name.err"; rc=$?; echo $rc >"$out/bg-$name.rc"
	 passed_script "$rc" "$out/bg-$name.txt" "$out/bg-$name.err" "$@"
	 time_line "$t0" 0 "$name (beside the others)") &
	eval "bg_pid_$name=\$!"
}
collect_wait() {
	local name=$1 pid rc
	eval "pid=\$bg_pid_$name"
	wait "$pid"
	rc=$(cat "$out/bg-$name.rc" 2>/dev/null || echo 1)
	grep -E '^(PASS|FAIL|SKIP): ' "$out/bg-$name.txt" | tee -a "$log"
	grep -E '^# ' "$out/bg-$name.txt" || true
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL: ' "$out/bg-$name.txt"; then
		fail "$name: exit $rc: $(tail -n 3 "$out/bg-$name.err" | tr '\n' ' ')"
	fi
}

# hide_qemu DIR: PATH becomes DIR alone, holding a link to every program
# of PATH but the real QEMUs (qemu-system-*), first one of a name wins.
# make unit runs under it, so a fast-tier test that starts a real QEMU
# fails on every machine, not only on one without QEMU.
hide_qemu() {
	local dir=$1 d f n
	local -a files=()
	local -A seen=()
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	local IFS=:
	for d in $PATH; do
		[ -d "$d" ] || continue
		for f in "$d"/*; do
			n=${f##*/}
			case $n in qemu-system-*) continue ;; esac
			[ -z "${seen[$n]:-}" ] && [ -x "$f" ] && seen[$n]=1 && files+=("$f")
		done
	done
	[ ${#files[@]} -gt 0 ] && ln -s -t "$dir" -- "${files[@]}" || return 1
	PATH=$dir
	! command -v qemu-system-x86_64 >/dev/null
}

# lane NAME COMMAND...: a step like collect's, started at once if fewer
# than $lanes (default 2: the reference machine's cores) lane steps are
# running, else when one ends; it runs beside the collect_bg steps.
# lanes_wait: waits for every lane step started since the last
# lanes_wait, then gives their lines (and times) in the order they were
# started, as collect would have.
lane_n=0 lane_first=0
lane() {
	local name=$1 i=$lane_n
	shift
	lane_n=$((lane_n + 1))
	while [ "$(lanes_running)" -ge "${lanes:-2}" ]; do sleep 0.2; done
	echo "$name" >"$out/lane-$i.name"
	# a test script of a tier must say what it checked (lanes_wait)
	if [ $# -eq 1 ] && [[ $1 == tests/*/*.sh ]]; then : >"$out/lane-$i.script"; fi
	(t0=$SECONDS
	 "$@" >"$out/lane-$i.txt" 2>"$out/lane-$i.err"
	 rc=$?
	 passed_script "$rc" "$out/lane-$i.txt" "$out/lane-$i.err" "$@"
	 time_line "$t0" 0 "$name"
	 echo $rc >"$out/lane-$i.rc") &
}
lanes_running() {
	local i n=0
	for ((i = lane_first; i < lane_n; i++)); do
		[ -e "$out/lane-$i.rc" ] || [ ! -e "$out/lane-$i.name" ] || n=$((n + 1))
	done
	echo $n
}
lanes_wait() {
	local i rc name
	while [ "$(lanes_running)" -gt 0 ]; do sleep 0.2; done
	for ((i = lane_first; i < lane_n; i++)); do
		name=$(cat "$out/lane-$i.name")
		rc=$(cat "$out/lane-$i.rc")
		grep -E '^(PASS|FAIL|SKIP): ' "$out/lane-$i.txt" | tee -a "$log"
		grep -E '^# ' "$out/lane-$i.txt" || true
		if [ "$rc" -ne 0 ] && ! grep -q '^FAIL: ' "$out/lane-$i.txt"; then
			fail "$name: exit $rc: $(tail -n 3 "$out/lane-$i.err" | tr '\n' ' ')"
		elif [ -e "$out/lane-$i.script" ] && ! grep -qE '^(PASS|SKIP): ' "$out/lane-$i.txt"; then
			grep -q '^FAIL: ' "$out/lane-$i.txt" ||
				fail "$name: printed no PASS: or SKIP: line (a test says what it checked)"
		fi
	done
	lane_first=$lane_n
}

# run_tier TIER: every script of tests/TIER/ (found by glob, so a new test
# is a new file there) as a lane step under the label of its "# test: "
# line. Its other head lines: "# runs: first" starts it before the others
# (the long ones, so none starts last); "# runs: beside" runs it in the
# background beside the lanes (steps that mostly wait), its lines given
# after them; "# needs: kernels" leaves it out with one FAIL line when
# $kernels_ok is 0 (the default base's kernels or the image did not build).
# A script without a "# test: " line is a FAIL, not skipped.
run_tier() {
	local tier=$1 f how label n bg=()
	for how in beside first other; do
		for f in tests/"$tier"/*.sh; do
			[ -e "$f" ] || continue
			[ "$(tier_runs "$f")" = "$how" ] || continue
			label=$(sed -n '2,6s/^# test: //p' "$f" | head -n 1)
			n=$(basename "$f" .sh)
			n=${n//[^A-Za-z0-9_]/_}
			if [ -z "$label" ]; then
				fail "$f: no '# test: LABEL' line at its head (tests/lib/lib.sh run_tier)"
			elif grep -qx '# needs: kernels' "$f" && [ "${kernels_ok:-1}" != 1 ]; then
				fail "$label: not run, the kernels or the image did not build"
			elif [ "$how" = beside ]; then
				bg+=("$n")
				collect_bg "$n" "$f"
			else
				lane "$label" "$f"
			fi
		done
	done
	lanes_wait
	for n in ${bg[@]+"${bg[@]}"}; do collect_wait "$n"; done
}
# tier_runs SCRIPT: its "# runs: " head line's word (first, beside), else other
tier_runs() { sed -n '2,6s/^# runs: \(first\|beside\)$/\1/p' "$1" | grep . || echo other; }

# tree_copy DIR: DIR (made if need be) gets a copy of the tree as git has
# it: tracked files as changed in the work tree, and untracked ones git
# does not ignore (a new test, before its commit). Never build/ or results/.
tree_copy() {
	mkdir -p "$1" && git ls-files -z --cached --others --exclude-standard | cpio -0pdm --quiet "$1" 2>/dev/null
}

# runner_copy DIR: DIR's build/ gets this tree's runner and the objects it
# is linked from (build/unit/plain), newer than their sources, so make
# there builds no runner (a make runner from cold compiles every object:
# ~10 s of CPU). After tree_copy DIR.
runner_copy() {
	mkdir -p "$1/build/unit" || return 1
	if [ -d build/unit/plain ]; then
		cp -a build/unit/plain "$1/build/unit/" &&
			find "$1/build/unit/plain" -type f -exec touch {} + || return 1
	fi
	cp build/crngbench-run "$1/build/crngbench-run" && touch "$1/build/crngbench-run"
}

# The opening every test script shares. A script sources this file and
# calls t_begin first:
#   . "$(dirname "$0")/../lib/lib.sh"
#   t_begin "NAME"
# t_begin NAME: set -uo pipefail; the checkout root as the working
# directory; $tmp a scratch directory, removed on exit (a script that has
# more to undo sets its own trap after, removing "$tmp" too); and the
# helpers below, which print one PASS:/FAIL: line each. A script that
# means something else by one of them defines its own after t_begin.
#   ok TEXT, bad TEXT       "PASS: NAME: TEXT", "FAIL: NAME: TEXT"
#   verdict RC TEXT WHY     ok TEXT if RC is 0, else bad "TEXT: WHY"
#   brief TEXT              TEXT's first 300 bytes on one line
t_begin() {
	t_name=$1
	set -uo pipefail
	cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
	tmp=$(mktemp -d) || { echo "FAIL: $t_name: cannot make a scratch directory"; exit 1; }
	trap 'rm -rf "$tmp"' EXIT
	ok() { echo "PASS: $t_name: $*"; }
	bad() { echo "FAIL: $t_name: $*"; }
	verdict() { if [ "$1" -eq 0 ]; then ok "$2"; else bad "$2: $3"; fi; }
	brief() { head -c 300 <<<"$1" | tr '\n' ' '; }
}

# scen NAME LINE: a "kernel" $k/NAME-hz250/bzImage (k: the test's kernels
# directory) holding LINE, which tests/lib/fake-qemu reads as what to do
# ("ok FIXTURE", "slow-ok FIXTURE SECONDS", "vary FIXTURE PCT", ...).
scen() { mkdir -p "$k/$1-hz250" && echo "$2" >"$k/$1-hz250/bzImage"; }

# clean_error RC OUT NEEDLE...: true if a command (exit RC, output OUT)
# failed cleanly: non-zero, no Python traceback, and every NEEDLE said.
clean_error() {
	local rc=$1 out=$2 n
	shift 2
	[ "$rc" -ne 0 ] || return 1
	! grep -q Traceback <<<"$out" || return 1
	for n in "$@"; do grep -qF -- "$n" <<<"$out" || return 1; done
}

# edit DIR NAME CODE: the CSV file DIR/NAME as rows (a list of dicts, h
# its header) edited by the Python CODE, then written back with the same
# header (a column CODE drops from a row is written empty).
edit() {
	python3 - "$@" <<'PY'
import csv, sys
d, name, code = sys.argv[1:4]
p = f"{d}/{name}"
with open(p, newline="") as f:
    rd = csv.reader(f)
    h = next(rd)
    rows = [dict(zip(h, x)) for x in rd]
exec(code)
with open(p, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(h)
    w.writerows([[r.get(k, "") for k in h] for r in rows])
PY
}

# The synthetic runs that test the charts, made in seconds against
# tests/lib/fake-qemu (tests/lib/bases_run.sh, tests/lib/entropy_run.sh build them).
# synth_begin KIND DIR: the opening of tests/KIND_run.sh DIR: set -euo
# pipefail, the checkout root, out=DIR, runner, fx (tests/fixtures), and
# work, a scratch directory removed on exit, set up by synth_work.
synth_begin() {
	set -euo pipefail
	cd "$(dirname "${BASH_SOURCE[0]}")/../.."
	out=${2:?usage: tests/$1_run.sh DIR}
	runner=${CRNGBENCH_RUNNER:-$PWD/build/crngbench-run}
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	fx=$PWD/tests/fixtures
	synth_work "$work"
}
# synth_work WORK: WORK/bin holds fake-qemu as qemu-system-x86_64 and
# -arm, WORK/build the (empty) guest and armv5 probe images.
synth_work() {
	local work=$1 q a
	mkdir -p "$work/bin" "$work/build"
	for q in x86_64 arm; do ln -s "$PWD/tests/lib/fake-qemu" "$work/bin/qemu-system-$q"; done
	for a in guest probe-armv5; do : >"$work/build/$a.cpio"; done
}
# synth_boot WORK MATRIX OUT [ARG...]: $runner boots MATRIX (seed 7, two
# at a time) into OUT with those QEMUs; on failure its log goes to stderr
# and the script exits 1.
synth_boot() {
	local work=$1 matrix=$2 out=$3
	shift 3
	PATH="$work/bin:$PATH" timeout 120 "$runner" --matrix "$matrix" "$@" \
		--image "$work/build/guest.cpio" --quiet --seed 7 --parallel-jobs 2 --out "$out" >"$work/run.log" 2>&1 || {
		cat "$work/run.log" >&2
		exit 1
	}
}
# synthetic_run KIND (in a t_begin script): run=$tmp/KIND, made by
# tests/KIND_run.sh; a FAIL line and exit if it cannot be made.
synthetic_run() {
	run=$tmp/$1
	if ! out=$(tests/lib/"$1"_run.sh "$run" 2>&1); then
		bad "the synthetic $1 run could not be made: $(brief "$out")"
		exit 0
	fi
}
# render_copy: a copy of $run in $tmp/r1, its charts drawn by
# plots/render.sh: out (what it said), rc, listed (the charts it lists).
render_copy() {
	cp -r "$run" "$tmp/r1"
	out=$(plots/render.sh "$tmp/r1" 2>&1)
	rc=$?
	listed=$(tr '\n' ' ' <"$tmp/r1/plots/data/charts" 2>/dev/null)
}

# empty_files DIR PATH...: an empty file at each DIR/PATH, its directories
# made (the stand-ins for kernels and images a dry run only names).
empty_files() {
	local dir=$1 f
	shift
	for f in "$@"; do mkdir -p "$(dirname "$dir/$f")" && : >"$dir/$f" || return 1; done
}

# hostile_arch DIR NAME [CODE]: in DIR's raw.csv and summary.csv the
# machine x86_64 is renamed NAME (given to Python as data, never as code);
# CODE, Python, then runs on each row r as well.
hostile_arch() {
	local f
	for f in raw.csv summary.csv; do
		T_EVIL=$2 edit "$1" "$f" "import os
for r in rows:
    if r['arch'] == 'x86_64':
        r['arch'] = os.environ['T_EVIL']
    ${3:-pass}" || return 1
	done
}
