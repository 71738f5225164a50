# Sourced by tests/run.sh and tests/unit.sh: one way to run a step and
# count its PASS:/FAIL:/SKIP: lines. The caller sets out (a directory) and
# log (the file every result line is appended to).

say() { echo "$*" | tee -a "$log"; }
pass() { say "PASS: $*"; }
fail() { say "FAIL: $*"; }

# Run a command whose stdout carries PASS:/FAIL:/SKIP: lines; a command that
# fails without saying FAIL still counts as one failure.
collect() {
	local name=$1 rc t0=$SECONDS
	shift
	"$@" >"$out/step.txt" 2>"$out/step.err"
	rc=$?
	printf '%5d s  %s\n' $((SECONDS - t0)) "$name" >>"$out/time.txt"
	grep -E '^(PASS|FAIL|SKIP): ' "$out/step.txt" | tee -a "$log"
	grep -E '^# ' "$out/step.txt" || true
	if [ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$out/step.txt"; then
		fail "$name: exit $rc: $(tail -n 3 "$out/step.err" | tr '\n' ' ')"
	fi
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
	(t0=$SECONDS; "$@" >"$out/bg-$name.txt" 2>"$out/bg-$name.err"; echo $? >"$out/bg-$name.rc"
	 printf '%5d s  %s (beside the others)\n' $((SECONDS - t0)) "$name" >>"$out/time.txt") &
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
