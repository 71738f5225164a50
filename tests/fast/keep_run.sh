#!/usr/bin/env bash
# test: what make reproduce keeps and resumes: keep-run's budget, the run state
# What make reproduce keeps and resumes, checked in seconds on the fixture
# run (tests/slow/reproduce.sh checks the same inside whole make reproduce
# runs, against fake-qemu, in half a minute):
#  - plots/runstate.py calls a run complete only when every planned cell
#    has its boots (or its stop rule's verdict) and summary.csv is
#    written: with a cell's rows cut, or its summary.csv missing, the run
#    is partial (--resume finishes it);
#  - scripts/keep-run.sh keeps a run within its row's budget_kib, without
#    boots/, and refuses one over it, naming each file's size, with the
#    kept copy as it was.
# keep-run writes into its checkout's studies/: it runs in a stand-in
# checkout of what it reads (scripts/, plots/*.py, bench/ with a
# a study of its own, studies/one), with this tree's runner.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "keep run"
runner=${CRNGBENCH_RUNNER:-$PWD/build/crngbench-run}
fx=tests/fixtures/run

# --- runstate: complete, and partial two ways -------------------------------------
st=$(plots/runstate.py "$fx" 2>&1)
n=$(($(wc -l <"$fx/raw.csv") - 1))
[ "$st" = "complete $n" ] && ok "the fixture run is complete, all its $n boots ($st)" ||
	bad "the fixture run: '$st', wanted 'complete $n'"
# every row of the last row's cell cut
cp -r "$fx" "$tmp/cut" &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cell") k = i } { cell[NR] = $k; line[NR] = $0 }
		END { for (r = 1; r <= NR; r++) if (r == 1 || cell[r] != cell[NR]) print line[r] }' "$fx/raw.csv" >"$tmp/cut/raw.csv"
cell=$(tests/lib/csvget.py "$fx/raw.csv" cell | tail -n 1)
left=$(($(wc -l <"$tmp/cut/raw.csv") - 1))
st=$(plots/runstate.py "$tmp/cut" 2>&1)
[ "$left" -lt "$n" ] && [ "$st" = "partial $left $n" ] && ok "with one cell's rows cut, the run is partial ($st)" ||
	bad "cell $cell's rows cut ($left left): '$st', wanted 'partial $left $n'"
cp -r "$fx" "$tmp/nosum" && rm "$tmp/nosum/summary.csv"
st=$(plots/runstate.py "$tmp/nosum" 2>&1)
[[ $st == partial* ]] && ok "every boot but no summary.csv: partial, for --resume to finish ($st)" ||
	bad "no summary.csv: '$st', wanted partial"

# --- keep-run: within the budget, and over it ---------------------------------------
s=$tmp/s
mkdir -p "$s/plots" "$s/build" &&
	cp -r scripts bench "$s/" && cp plots/*.py "$s/plots/" && ln -s "$runner" "$s/build/crngbench-run" || {
	bad "cannot make the stand-in checkout"
	exit 0
}
mkdir -p "$s/studies/one" && printf '%s\n' "# tests/fast/keep_run.sh" "field value" order\ 1 matrix\ quick how\ runner \
	block\ - charts\ - post\ - budget_kib\ 2048 >"$s/studies/one/study"
cp -r "$fx" "$tmp/src" && mkdir -p "$tmp/src/boots/1" && echo console >"$tmp/src/boots/1/console.log"
out=$(cd "$s" && scripts/keep-run.sh one "$tmp/src" 0123abc 2>&1)
rc=$?
if [ $rc -eq 0 ] && cmp -s "$fx/raw.csv" "$s/studies/one/run/raw.csv" && [ ! -e "$s/studies/one/run/boots" ] &&
	[ "$(cat "$s/studies/one/run/commit" 2>/dev/null)" = 0123abc ] &&
	grep -q '^\[keep\] studies/one/run: [0-9]* KiB of its 2048 KiB budget (new)$' <<<"$out"; then
	ok "keep-run keeps a run within its budget, with its commit, without boots/"
else
	bad "keep-run within budget: exit $rc: $(brief "$out")"
fi
sed -i 's/ 2048$/ 1/' "$s/studies/one/study"
: >>"$tmp/src/raw.csv"
out=$(cd "$s" && scripts/keep-run.sh one "$tmp/src" 2>&1)
rc=$?
if [ $rc -ne 0 ] &&
	grep -q "studies/one/run would hold [0-9]* KiB, over its budget of 1 KiB (budget_kib in studies/one/study): .*raw.csv [0-9]* KiB.*nothing was replaced" <<<"$out" &&
	cmp -s "$fx/raw.csv" "$s/studies/one/run/raw.csv" && [ -z "$(ls -d "$s"/studies/*/.keep-* 2>/dev/null)" ]; then
	ok "keep-run refuses a run over its budget, naming each file's size, and replaces nothing"
else
	bad "keep-run over budget: exit $rc: $(brief "$out")"
fi
