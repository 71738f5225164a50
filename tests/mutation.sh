#!/usr/bin/env bash
# The mutation check: small, realistic breakages of the runner, the
# classification, the statistics, the probe's record writer and the chart
# and report scripts (tests/mutants, one a line). Each is applied to a copy
# of the tree and must make a test fail: the mutant's checks (parts of
# make check, cheapest first) run until one fails; a check that kills one
# is then run on the unmutated tree, once, and must pass there. A mutant that
# survives every check is a FAIL: the tests would pass on broken code.
# Two at a time (MUTATION_JOBS, default 2, at most nproc), each worker in
# a copy of the tree and its build/ of its own, so they never clash.
#   tests/mutation.sh [ID...]     (default: every mutant)
# One PASS/FAIL line per mutant; prints what it cost at the end.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/lib/lib.sh"
t_begin "mutation"
root=$PWD
list=tests/mutants
t0=$(date +%s)

# A copy of the tree as git has it, so nothing here touches the checkout
# or its build/.
tree_copy "$tmp/tree" ||
	{ bad "cannot copy the tree"; exit 0; }
cd "$tmp/tree" || exit 0
# a repository of its own: some checks clone the tree as a user would
git init -q && git add -A && git -c user.name=mutation -c user.email=mutation@localhost commit -qm copy ||
	{ bad "cannot make the copy a repository"; exit 0; }
if ! make -s -j"$(nproc)" CFLAGS='-O0 -g' unit-bins-plain >"$tmp/base.log" 2>&1; then
	bad "the unmutated copy does not build: $(tail -n 3 "$tmp/base.log" | tr '\n' ' ')"
	exit 0
fi

# check NAME: run one check in the current directory (a worker's tree);
# 0 = it passed (the mutant survived it).
#   unit:NAME     build/unit/test_NAME (plain), rebuilt
#   script:SCRIPT tests/TIER/SCRIPT.sh (the runner rebuilt first)
check() {
	local kind=${1%%:*} what=${1#*:} out=$PWD.check.txt
	case $kind in
	unit)
		# a unit binary links the objects it needs (rebuilt by make's
		# rules); the runner, linked from them too, is not needed
		make -s CFLAGS='-O0 -g' "build/unit/test_$what-plain" >"$out" 2>&1 || return 1
		"build/unit/test_$what-plain" >"$out" 2>&1 ;;
	script)
		# the runner as the tree now is (a restored file is rebuilt too)
		make -s CFLAGS='-O0 -g' runner >"$out" 2>&1 || return 1
		set -- tests/*/"$what.sh"
		[ -e "$1" ] || { echo "no test script $what.sh in tests/*/" >"$out"; return 1; }
		script_check "$1" "$out" ;;
	*) bad "$list: unknown check '$1'"; return 0 ;;
	esac
}

# script_check SCRIPT OUT: 0 if SCRIPT passes (exit 0, no FAIL: line in
# OUT). Its first FAIL: line decides, so the script is ended there, with
# everything it started (a session of its own, every process group in it;
# its traps still clean up):
# a mutant that breaks a long script's first check costs that check alone.
script_check() {
	local pid rc
	setsid "$1" >"$2" 2>&1 </dev/null &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if grep -q '^FAIL: ' "$2"; then
			# the whole session, not only the script's process group:
			# timeout(1) puts what it runs in a group of its own,
			# and a runner under it would outlive the script
			pkill -TERM -s "$pid" 2>/dev/null
			wait "$pid"
			return 1
		fi
		sleep 0.2
	done
	wait "$pid"
	rc=$?
	[ "$rc" -eq 0 ] && ! grep -q '^FAIL: ' "$2"
}

# the mutants (and the checks they name) as id, file, sed expression, checks
sed -e '/^#/d' -e '/^[[:space:]]*$/d' -e 's/[[:space:]]*@@[[:space:]]*/\x1f/g' "$root/$list" >"$tmp/all"
if [ $# -gt 0 ]; then
	while IFS=$'\x1f' read -r id rest; do
		printf '%s\n' "$@" | grep -qx -- "$id" && printf '%s\x1f%s\n' "$id" "$rest"
	done <"$tmp/all" >"$tmp/mutants"
else
	cp "$tmp/all" "$tmp/mutants"
fi
# those whose first check is a script first; the unit checks (about a
# second each) last, where they fill the time a worker would otherwise
# wait for the other's last script. Of the scripts, those that passed
# whole earlier in this make check ($CRNGBENCH_PASSED_SCRIPTS) come
# first: make check starts this beside its later stages, so a script of
# those (tests/slow/reproduce.sh) has mostly passed there by the time its
# mutants come, and base_ok need not run it on the unmutated tree.
awk -F '\x1f' 'FILENAME == ARGV[1] { if (sub(/\.sh$/, "")) passed["script:" $0] = 1; next }
	{ split($4, c, " "); print (c[1] !~ /^script:/ ? 2 : c[1] in passed ? 0 : 1) "\x1f" $0 }' \
	"${CRNGBENCH_PASSED_SCRIPTS:-/dev/null}" "$tmp/mutants" | sort -s -t $'\x1f' -k1,1n | cut -d $'\x1f' -f2- >"$tmp/ordered" &&
	mv "$tmp/ordered" "$tmp/mutants"
jobs=${MUTATION_JOBS:-2}
[ "$jobs" -ge 1 ] 2>/dev/null && [ "$jobs" -le "$(nproc)" ] || jobs=$(nproc)
for k in $(seq "$jobs"); do cp -a "$tmp/tree" "$tmp/w$k" || { bad "cannot copy the tree for worker $k"; exit 0; }; done

# pool KIND: the workers take the lines of $tmp/KIND one at a time (the
# next free line under a lock), each line's verdict in $tmp/KIND.N.
pool() {
	local kind=$1 k
	echo 0 >"$tmp/$kind.next"
	for k in $(seq "$jobs"); do
		(cd "$tmp/w$k" && while n=$(take "$kind"); do "do_$kind" "$n" >"$tmp/$kind.$n"; done) &
	done
	wait
}
take() { # the next line number of $tmp/$1 not yet taken, or fail
	local n
	exec 9>>"$tmp/$1.lock"
	flock 9
	n=$(($(cat "$tmp/$1.next") + 1))
	echo "$n" >"$tmp/$1.next"
	exec 9>&-
	[ "$n" -le "$(wc -l <"$tmp/$1")" ] && echo "$n"
}

# A check that kills a mutant must pass on the unmutated tree, or the kill
# proves nothing: each killer is run once on it (by the worker that first
# needs it, its verdict shared in $tmp/base/), only the checks that kill.
# Under make check, a script that passed whole earlier in the same run
# (listed in $CRNGBENCH_PASSED_SCRIPTS, tests/run.sh) passed on this very
# tree already: it is not run again.
mkdir -p "$tmp/base"
base_ok() { # CHECK (in a worker's unmutated tree): 0 if it passes there
	local f=$tmp/base/${1//[^A-Za-z0-9_]/_}.v
	exec 8>>"${f%.v}.lock"
	flock 8
	if [ ! -e "$f" ]; then
		if [[ $1 == script:* ]] && [ -n "${CRNGBENCH_PASSED_SCRIPTS:-}" ] &&
			grep -qx -- "${1#script:}.sh" "$CRNGBENCH_PASSED_SCRIPTS" 2>/dev/null; then
			echo ok >"$f"
		elif check "$1"; then echo ok >"$f"; else
			bad "check $1 fails on the unmutated tree: $( (grep -m2 '^FAIL' "$PWD.check.txt" || tail -n 3 "$PWD.check.txt") | tr '\n' ' ')" >"$f"
		fi
	fi
	exec 8>&-
	[ "$(cat "$f")" = ok ]
}

# do_mutants N: mutant N applied to this worker's tree, its checks in turn
# until one fails (and passes on the unmutated tree), the file restored.
do_mutants() {
	local id file expr checks killer='' c t0=$SECONDS
	IFS=$'\x1f' read -r id file expr checks < <(sed -n "$1p" "$tmp/mutants")
	cp -p "$file" "$PWD.orig"
	sed -i -e "$expr" "$file"
	if cmp -s "$file" "$PWD.orig"; then
		bad "$id: '$expr' changes nothing in $file (the code moved: update tests/mutants)"
		return
	fi
	for c in $checks; do
		check "$c" && continue
		cp -p "$PWD.orig" "$file" && touch "$file"
		if base_ok "$c"; then killer=$c; break; fi
		sed -i -e "$expr" "$file"
	done
	cp -p "$PWD.orig" "$file"
	touch "$file" # the next build sees the original again
	if [ -n "$killer" ]; then
		ok "$id ($file) is caught by $killer ($((SECONDS - t0)) s)"
	else
		bad "$id ($file: $expr) survives: $checks all pass on broken code (or fail on the unmutated tree too)"
	fi
}
pool mutants
n=$(wc -l <"$tmp/mutants")
cat "$tmp"/base/*.v 2>/dev/null | grep '^FAIL: ' || true
for i in $(seq "$n"); do cat "$tmp/mutants.$i"; done
echo "# mutation: $n mutants, $jobs at a time, in $(($(date +%s) - t0)) s"
