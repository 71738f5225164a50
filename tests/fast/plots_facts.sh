#!/usr/bin/env bash
# test: the chart tools' facts, each from one place
# Facts the chart, report and mail tools (plots/) take from one place, and
# the copies elsewhere that must agree with it: which statuses are measured
# (runlib.MEASURED against the runner's summary), the chart list
# (runlib.CHARTS against plots/*.gp), 256/HZ, the kernel base (from a run's
# meta.json, never a literal), that importing runlib runs nothing, and
# the runner's formats as plots/formats.py reads them (no runner needed).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "plots_facts"
runner=${CRNGBENCH_RUNNER:-build/crngbench-run}
export CRNGBENCH_RUNNER=$runner

# Every status a boot can end with (docs/results.md), each given to every
# row of one cell of the fixture: the runner's summary counts the cell's
# boots as data (n), failed or skipped. The statuses it counts as data are
# runlib.MEASURED, and runlib.measured() keeps those rows.
cp -r tests/fixtures/run "$tmp/st"
python3 - "$tmp/st" "$runner" <<'PY' && echo "PASS: measured: runlib.MEASURED is the runner's rule (its summary counts exactly those statuses as data)" || echo "FAIL: measured: runlib.MEASURED and the runner's summary disagree on which statuses are data"
import csv, subprocess, sys
sys.path.insert(0, "plots")
import runlib
run, runner = sys.argv[1:]
STATUSES = ["ok", "censored", "timeout", "panic", "corrupt", "qemu-failed", "guest-failed", "skipped"]
with open(run + "/raw.csv", newline="") as f:
    reader = csv.DictReader(f)
    cols, raw = reader.fieldnames, list(reader)
cells = list(dict.fromkeys(r["cell"] for r in raw if r["accel"] == "tcg"))
assert len(cells) >= len(STATUSES), cells
given = dict(zip(cells, STATUSES))
for r in raw:
    r["status"] = given.get(r["cell"], r["status"])
with open(run + "/raw.csv", "w", newline="") as f:
    w = csv.DictWriter(f, cols, lineterminator="\n")
    w.writeheader()
    w.writerows(raw)
seed = open(run + "/seed").read().strip()
subprocess.run([runner, "--summarize", run, "--seed", seed], check=True, capture_output=True)
with open(run + "/summary.csv", newline="") as f:
    summary = [s for s in csv.DictReader(f) if s["measure"] == "kernel_to_init"]
axes = [c for c in summary[0] if c in cols]
counted = set()
for cell, status in given.items():
    mine = [r for r in raw if r["cell"] == cell]
    s = [s for s in summary if all(s[a] == mine[0][a] for a in axes)]
    assert len(s) == 1, (cell, len(s))
    if s[0]["failed"] == "0" and s[0]["skipped"] == "0":
        counted.add(status)
    assert len(runlib.measured(mine)) == (len(mine) if status in runlib.MEASURED else 0), status
assert counted == set(runlib.MEASURED), (sorted(counted), runlib.MEASURED)
PY

# The chart list: runlib.CHARTS names every plots/N-*.gp once, and the
# mail puts each in a place of its own.
python3 - <<'PY' && echo "PASS: charts: runlib.CHARTS lists every chart of plots/ once, each with its own place in the mail" || echo "FAIL: charts: runlib.CHARTS and plots/*.gp disagree"
import glob, os, sys
sys.path.insert(0, "plots")
from runlib import CHARTS
files = sorted(os.path.basename(p)[:-3] for p in glob.glob("plots/[0-9]-*.gp") + glob.glob("plots/[0-9][0-9]-*.gp"))
assert sorted(CHARTS) == files, (sorted(CHARTS), files)
assert sorted(place for _, place in CHARTS.values()) == list(range(1, len(CHARTS) + 1)), CHARTS
PY

# 256/HZ: chart 5's gnuplot script draws runlib's number (handed to it in
# vars.gp), not a number of its own.
python3 - <<'PY' && echo "PASS: 256/HZ: chart 5's script takes jitter_ticks from prepare.py, with no number of its own" || echo "FAIL: 256/HZ: plots/5-jitter-vs-hz.gp spells the jitter loop's ticks itself"
import re, sys
sys.path.insert(0, "plots")
from runlib import JITTER_TICKS, jitter_ticks_ms
gp = open("plots/5-jitter-vs-hz.gp").read()
code = "\n".join(l for l in gp.splitlines() if not l.lstrip().startswith("#"))
assert "jitter_ticks" in code and not re.search(str(JITTER_TICKS), code), code
assert jitter_ticks_ms(250) == 1024 and jitter_ticks_ms(100) == 2560
assert "jitter_ticks = {JITTER_TICKS}" in open("plots/prepare.py").read()
PY

# The kernel base comes from the run (meta.json's kernel releases): a run
# of 6.12 kernels is labelled 6.12 in chart 7 (its PNG/SVG title and text
# version), REPORT's table and the mail, and 6.1 nowhere.
rebase() {
	cp -r "$1" "$2"
	sed -i 's/"6\.1\.192-/"6.12.9-/g; s/"release": "6\.1\.192/"release": "6.12.9/g' "$2/meta.json"
	grep -q '6\.12\.9-crngbench' "$2/meta.json"
}
if rebase tests/fixtures/arches "$tmp/a" && out=$(plots/render.sh "$tmp/a" 2>&1) &&
	tables=$(plots/report_tables.py "$tmp/a" - --arches "$tmp/a" 2>&1) &&
	rebase tests/fixtures/run "$tmp/r" && plots/render.sh "$tmp/r" >/dev/null 2>&1 &&
	plots/post.py "$tmp/r" >/dev/null 2>&1; then
	bad=
	grep -q "architectures on 6\.12: " "$tmp/a/plots/7-arches.txt" || bad="$bad text-chart"
	grep -q "architectures on Linux 6\.12: " "$tmp/a/plots/7-arches.svg" || bad="$bad svg"
	grep -q "### Chart 7: the revert's architectures on 6\.12 (run" <<<"$tables" || bad="$bad report"
	grep -q "from Debian's linux-source-6\.12 " "$tmp/r/post.txt" || bad="$bad mail"
	grep -qE '(on|Linux|source-)6\.1[^0-9]' "$tmp/a/plots/7-arches.txt" "$tmp/a/plots/7-arches.svg" \
		"$tmp/r/post.txt" <<<"$tables" && bad="$bad 6.1-left"
	[ -z "$bad" ] && echo "PASS: kernel base: a run of 6.12 kernels is labelled 6.12 in chart 7, its table and the mail" ||
		echo "FAIL: kernel base: a run of 6.12 kernels is not labelled 6.12 in:$bad"
else
	echo "FAIL: kernel base: rendering a 6.12 run failed: $(echo "$out$tables" | head -3 | tr '\n' ' ')"
fi

# Importing runlib runs nothing (no runner, no scripts/variants.sh); the
# first use asks, once.
out=$(cd plots && CRNGBENCH_RUNNER=/nonexistent python3 -c '
import subprocess
calls = []
real = subprocess.run
subprocess.run = lambda *a, **k: calls.append(a[0]) or real(*a, **k)
import runlib, prepare, textcharts, report_tables, post
assert calls == [], calls
runlib.variants(), runlib.variants(), runlib.colours()
assert len(calls) == 1 and calls[0][0].endswith("scripts/variants.sh"), calls
' 2>&1)
[ $? -eq 0 ] && echo "PASS: runlib: importing it (and the tools) runs nothing; the variant list is asked for once, on first use" ||
	echo "FAIL: runlib: importing runs a program: $(echo "$out" | tail -2 | tr '\n' ' ')"

# The runner's formats as plots/formats.py reads them from its headers
# (bench/matrix/matrix.h's AXES, bench/rows/row.h's ROW_METRICS) are what the runner
# says (--describe): its axes and defaults in order, and raw.csv's integer
# measures (its columns between crng_ready_src and clocksource).
out=$(python3 - "$runner" <<'PY' 2>&1
import json, subprocess, sys
sys.path.insert(0, "plots")
import formats
d = json.loads(subprocess.run([sys.argv[1], "--describe"], capture_output=True, text=True, check=True).stdout)
assert formats.axes() == [(a["name"], a["default"]) for a in d["axes"]], (formats.axes(), d["axes"])
cols = d["raw_columns"]
assert formats.raw_int_columns() == cols[cols.index("crng_ready_src") + 1:cols.index("clocksource")], formats.raw_int_columns()
assert formats.run_limits() == d["limits"], (formats.run_limits(), d["limits"])
PY
)
[ $? -eq 0 ] && echo "PASS: formats: plots/formats.py reads the axes, their defaults, raw.csv's integer columns and the limits of a run's tables from the runner's headers as the runner describes them" ||
	echo "FAIL: formats: plots/formats.py and crngbench-run --describe disagree: $(echo "$out" | tail -2 | tr '\n' ' ')"

# Reading a committed run needs no C build: the figures the prose quotes
# and the tables of the committed runs, with no runner to ask.
out=$(CRNGBENCH_RUNNER=$tmp/no-runner python3 plots/quoted.py studies 2>&1 >/dev/null &&
	CRNGBENCH_RUNNER=$tmp/no-runner python3 plots/report_tables.py - - --answer studies --runs studies \
		--entropy studies/entropy/run --bases studies/bases/run 2>&1 >/dev/null)
[ $? -eq 0 ] && echo "PASS: formats: quoted.py and report_tables.py read the committed runs without a runner" ||
	echo "FAIL: formats: reading the committed runs asks for the runner: $(echo "$out" | tail -2 | tr '\n' ' ')"

# A key the tools set on a row (r["_cond"]) is that row's alone, read
# before the file's columns, in dict(r) and "in"; held by column beside the
# file's (a dict per row of a large run took more than the file).
out=$(python3 - <<'PY' 2>&1
import sys
sys.path.insert(0, "plots")
import runfiles
rows = runfiles.read_table("tests/fixtures/run", "raw.csv")
a, b = rows[0], rows[1]
status = b["status"]
a["_cond"] = "x"
a["status"] = "mine"
assert a["_cond"] == "x" and a["status"] == "mine" and "_cond" in a, dict(a)
assert "_cond" not in b and b.get("_cond") is None and b["status"] == status, dict(b)
assert list(a).count("_cond") == 1 and list(a).count("status") == 1 and "_cond" not in list(b)
assert dict(a)["status"] == "mine" and len(a) == len(b) + 1
PY
)
[ $? -eq 0 ] && echo "PASS: runfiles: a key set on a row is its own (read first, in dict(r) and 'in'), never another row's" ||
	echo "FAIL: runfiles: a key set on a row: $(echo "$out" | tail -2 | tr '\n' ' ')"
