#!/usr/bin/env bash
# test: studies/ is the registry: a new study is one folder
# studies/ is the registry: a new study is one folder (its study file,
# matrix, tables.py and committed run) and no list elsewhere names it. In
# a copy of the tree, a dummy study (the longwait study's run and matrix
# under another name) is listed in its order, planned (make plan
# MATRIX=dummy finds its matrix; make reproduce-plan's check takes it),
# reported (scripts/regen-report.sh gives its run to plots/report.sh as
# --dummy, and its block of REPORT.md is its tables.py's text; the runs
# table has its row), and a misspelled name is refused by each tool with
# the list of folders, dummy among them. Each study's tables(run) is
# defined in its own folder (no plots/ module holds one study's block),
# and a study's charts.py chart(run, dir) is what plots/prepare.py calls
# for a chart its `charts` field claims.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "studies"
root=$PWD
export CRNGBENCH_RUNNER=${CRNGBENCH_RUNNER:-$root/build/crngbench-run}
c=$tmp/c
tree_copy "$c" || { bad "cannot copy the tree"; exit 0; }
mkdir -p "$c/build" && cp "$CRNGBENCH_RUNNER" "$c/build/crngbench-run" && touch "$c/build/crngbench-run"
d=$c/studies/dummy
mkdir -p "$d" && cp -r studies/longwait/run "$d/run" &&
	sed 's/^name = .*/name = dummy/' studies/longwait/longwait.matrix >"$d/dummy.matrix" &&
	printf '%s\n' "# dummy: tests/fast/studies.sh" "field value" "order 99" "matrix dummy" "how runner" "block dummy" \
		"charts -" "post -" "budget_kib 128" >"$d/study" &&
	printf '%s\n' "from runlib import run_label" "" "" "def tables(run):" \
		"    return f\"### the dummy study's table (run {run_label(run)})\\n\"" >"$d/tables.py" &&
	printf '<!-- tables:dummy:begin -->\n<!-- tables:dummy:end -->\n' >>"$c/REPORT.md" || { bad "cannot add the dummy study"; exit 0; }

# listed, last (its order)
list=$(cd "$c" && scripts/studies.sh --list 2>&1)
[ "$(tail -n 1 <<<"$list")" = dummy ] && [ "$(wc -l <<<"$list")" = $(($(scripts/studies.sh --list | wc -l) + 1)) ] &&
	ok "scripts/studies.sh --list: the folders, the new one in its order ($(tr '\n' ' ' <<<"$list"))" ||
	bad "scripts/studies.sh --list: $(brief "$list")"

# planned: make plan finds its matrix in its folder, make help lists it,
# and make reproduce's checks take the study
out=$(cd "$c" && make -s plan MATRIX=dummy 2>&1)
verdict $? "make plan MATRIX=dummy plans the study's own matrix (studies/dummy/dummy.matrix)" "$(brief "$out")"
grep -q '^matrices: .*\bdummy\b' <<<"$(cd "$c" && make -s help 2>&1)" && ok "make help lists the dummy matrix" ||
	bad "make help does not list the dummy matrix"
out=$(cd "$c" && QEMU=tests/lib/fake-qemu DRYRUN=1 RUNS=dummy,dumy scripts/reproduce.sh 2>&1)
grep -qF "RUNS: unknown run 'dumy'; the runs of studies/ are: $(tr '\n' ' ' <<<"$list" | sed 's/ $//')" <<<"$out" &&
	ok "make reproduce RUNS=dumy is refused, naming the folders (dummy among them)" || bad "make reproduce RUNS=dumy: $(brief "$out")"

# reported: its block, from its run, by make report FROM=committed
list=$(cd "$c" && scripts/regen-report.sh --list 2>&1)
grep -qx 'tables:dummy studies/dummy/run' <<<"$list" && grep -q '^report .* --dummy studies/dummy/run ' <<<"$list" &&
	ok "scripts/regen-report.sh gives plots/report.sh the dummy study's run as --dummy" || bad "regen-report.sh --list: $(brief "$list")"
out=$(cd "$c" && scripts/regen-report.sh 2>&1)
verdict $? "make report FROM=committed with the dummy study" "$(tail -n 3 <<<"$out" | tr '\n' ' ')"
blk=$(sed -n '/<!-- tables:dummy:begin -->/,/<!-- tables:dummy:end -->/p' "$c/REPORT.md")
grep -qxF "### the dummy study's table (run dummy)" <<<"$blk" &&
	ok "its block of REPORT.md is its tables.py's tables(run)" || bad "the dummy block: $(brief "$blk")"
grep -q '^| dummy | dummy | ' "$c/REPORT.md" && ok "the runs table has its row" || bad "no runs-table row for dummy"
diff <(sed "/<!-- tables:dummy:begin -->/,\$d; /^| dummy | dummy | /d; /^| all | /d" "$c/REPORT.md") \
	<(sed "/^| all | /d" REPORT.md) >"$tmp/other.diff" && ok "every other block as committed" ||
	bad "other blocks changed: $(head -n 6 "$tmp/other.diff" | tr "\n" " ")"

# refused when misspelled, each naming the folders
refused() { # what output
	grep -q "dummy" <<<"$2" && grep -q "dumy" <<<"$2" && ok "$1 refuses 'dumy', naming the folders" || bad "$1: $(brief "$2")"
}
refused "plots/report_tables.py" "$(cd "$c" && python3 plots/report_tables.py - - --dumy studies/dummy/run 2>&1 && echo ACCEPTED)"
refused "plots/report.sh" "$(cd "$c" && plots/report.sh - --dumy studies/dummy/run 2>&1 && echo ACCEPTED)"
refused "scripts/keep-run.sh" "$(cd "$c" && scripts/keep-run.sh dumy studies/dummy/run 2>&1 && echo ACCEPTED)"
refused "scripts/studies.sh" "$(cd "$c" && scripts/studies.sh dumy matrix 2>&1 && echo ACCEPTED)"

# its own code: each study with a block defines tables(run) in its own
# tables.py, not a name imported from plots/
out=$(cd plots && python3 -c 'import importlib.util, inspect, os, runlib
for name, f in runlib.studies().items():
    path = os.path.join(runlib.ROOT, "studies", name, "tables.py")
    if f.get("block"):
        spec = importlib.util.spec_from_file_location("study_" + name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        src = inspect.getsourcefile(mod.tables)
        if os.path.realpath(src) != os.path.realpath(path):
            print(f"{name}: {os.path.relpath(src, runlib.ROOT)}")' 2>&1)
[ -z "$out" ] && ok "each study's tables(run) is defined in its own folder (studies/<name>/tables.py)" ||
	bad "tables(run) defined outside the study's folder: $(brief "$out")"

# its own chart: the dummy claims chart 5 and its charts.py's chart(run,
# dir) writes into prepare.py's data directory, the run's other charts too
sed -i 's/^charts .*/charts 5-jitter-vs-hz/' "$d/study" &&
	printf '%s\n' "import os" "" "" "def chart(run, out):" \
		"    open(os.path.join(out, 'dummy.dat'), 'w').write(os.path.basename(os.path.dirname(run)) + '\\n')" >"$d/charts.py"
out=$(cd "$c" && python3 plots/prepare.py studies/dummy/run "$tmp/data" 2>&1)
[ "$(cat "$tmp/data/dummy.dat" 2>/dev/null)" = dummy ] && [ -s "$tmp/data/hz.dat" ] &&
	ok "plots/prepare.py calls the study's chart(run, dir) for the chart it claims, and draws the rest" ||
	bad "the dummy study's chart(run, dir): $(brief "$out") $(ls "$tmp/data" 2>&1 | tr '\n' ' ')"

# a folder that is no study is refused, naming it
mkdir -p "$c/studies/stray"
out=$(cd "$c" && scripts/studies.sh --list 2>&1)
[ $? -ne 0 ] && grep -q "studies/stray holds no study file" <<<"$out" && ok "a folder without a study file is refused, naming it" ||
	bad "studies/stray: $(brief "$out")"

# scripts/deps.sh (under set -f: a matrix's value is no glob) finds a
# study's matrix by name, as the test command's `--matrix arches` asks
out=$(scripts/deps.sh --list --matrix arches 2>&1)
[ $? -eq 0 ] && grep -qx "qemu-system-arm" <<<"$out" &&
	ok "scripts/deps.sh --matrix finds a study's matrix by name (arches: qemu-system-arm)" ||
	bad "scripts/deps.sh --matrix arches: $(brief "$out")"
