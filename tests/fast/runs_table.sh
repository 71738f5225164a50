#!/usr/bin/env bash
# test: REPORT.md's table of the committed runs
# REPORT.md's table of the committed runs (plots/report_tables.py
# runs_table, --runs): one row per study's run (studies/), its
# boots and host time worked out here from host_time.csv with the csv
# module; a seed, commit or host_time.csv that is not one stops the report
# naming the file (nothing from a run reaches the table unchecked).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "runs table"
cp -r studies "$tmp/runs"
out=$(python3 plots/report_tables.py - - --runs "$tmp/runs" 2>&1)
python3 - "$tmp/runs" "$out" <<'PY' && ok "a row per committed run, boots and host time as host_time.csv sums them, and the total" || bad "rows: $(head -c 300 <<<"$out")"
import csv, os, sys
runs, text = sys.argv[1], sys.argv[2]
part = text.split("| run | matrix | commit |", 1)[1]
rows = {l.split(" | ")[0].strip("| "): l for l in part.splitlines() if l.startswith("| ") and "---" not in l}
tb, ts = 0, 0.0
for dirpath, _, files in os.walk(runs):
    if "host_time.csv" in files and "raw.csv" in files:
        name = os.path.relpath(dirpath, runs).replace("/run", "", 1)  # studies/<name>/run[/<sub>]
        t = list(csv.DictReader(open(os.path.join(dirpath, "host_time.csv"))))
        b, s = sum(int(r["boots"]) for r in t), sum(float(r["host_s"]) for r in t)
        tb, ts = tb + b, ts + s
        cells = [c.strip() for c in rows[name].strip().strip("|").split(" | ")]
        assert cells[5].split()[0] == str(b), (name, cells)
        assert cells[6].startswith(f"{s:.1f} s"), (name, cells)
        assert cells[3] == open(os.path.join(dirpath, "seed")).read().strip(), (name, cells)
cells = [c.strip() for c in rows["all"].strip().strip("|").split(" | ")]
assert cells[-2] == str(tb) and cells[-1].startswith(f"{ts:.1f} s"), (cells, tb, ts)
PY
printf '1; rm -rf /\n' >"$tmp/runs/hz/run/seed"
out=$(python3 plots/report_tables.py - - --runs "$tmp/runs" 2>&1) && bad "a hostile seed passed" ||
	{ grep -q "runs/hz/run/seed: not a seed" <<<"$out" && ok "a seed that is not a number stops the report, naming the file" || bad "seed: $out"; }
echo 66 >"$tmp/runs/hz/run/seed"
printf 'accel,boots,skipped,host_s\ntcg,3,0,`id`\n' >"$tmp/runs/hz/run/host_time.csv"
out=$(python3 plots/report_tables.py - - --runs "$tmp/runs" 2>&1) && bad "a hostile host_time.csv passed" ||
	{ grep -q "runs/hz/run/host_time.csv line 2" <<<"$out" && ok "a bad host_time.csv line stops the report, naming file and line" || bad "host_time: $out"; }
