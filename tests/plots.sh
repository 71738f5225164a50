#!/usr/bin/env bash
# The plot step on a results fixture (raw data of a real run, tests/fixtures/
# run): every chart renders without a gnuplot warning, the text versions fit
# an 80-column mail, the runner's summary of the fixture's raw.csv matches
# the fixture's summary.csv, and REPORT.md-style tables match it too.
set -uo pipefail
cd "$(dirname "$0")/.."
fx=tests/fixtures/run
tmp=$(mktemp -d)
cp -r "$fx" "$tmp/run"
if out=$(plots/render.sh "$tmp/run" 2>&1); then
	n=0
	for c in 1-nethack 2-crng-ready-cdf 3-tcg-vs-kvm 4-timeline 5-jitter-vs-hz 6-nocounter; do
		for ext in png svg; do [ -s "$tmp/run/plots/$c.$ext" ] && n=$((n + 1)); done
	done
	[ $n -eq 12 ] && echo "PASS: plots: all 6 charts render as PNG and SVG without gnuplot warnings" ||
		echo "FAIL: plots: only $n of 12 chart files rendered"
else
	echo "FAIL: plots: $(echo "$out" | head -5 | tr '\n' ' ')"
fi
wide=$(cat "$tmp"/run/plots/*.txt 2>/dev/null | awk 'length > 80' | wc -l)
txt=$(ls "$tmp"/run/plots/*.txt 2>/dev/null | wc -l)
[ "$txt" -eq 6 ] && [ "$wide" -eq 0 ] && echo "PASS: plots: all 6 charts as text within 80 columns" ||
	echo "FAIL: plots: $txt text charts, $wide lines wider than 80 columns"

# same_summary FIXTURE COPY WHAT: the runner recomputes the summary from
# the copy's raw.csv: the same numbers as the fixture's summary.csv.
same_summary() {
	if build/crngbench-run --summarize "$2" --seed "$(cat "$1/seed")" >/dev/null 2>&1 &&
		cmp -s "$2/summary.csv" "$1/summary.csv"; then
		echo "PASS: summary: $3 recomputed from its raw.csv, identical to its summary.csv"
	else
		echo "FAIL: summary: $3 recomputed differs: $(diff "$1/summary.csv" "$2/summary.csv" | head -3 | tr '\n' ' ')"
	fi
}
same_summary "$fx" "$tmp/run" "the main job's fixture"
# Every number in the generated tables is the summary's median of exactly
# that table's measure, that row's condition and that column's variant:
# a number from another cell (or another measure) fails.
python3 - "$tmp/run" <<'PY' && echo "PASS: report tables: each cell is its own cell's median in summary.csv" || echo "FAIL: report tables do not match the summary cell by cell"
import re, subprocess, sys
sys.path.insert(0, "scripts")
from report_tables import ms, summary_rows  # the tables' own number format and labels
from runlib import VARIANTS
run = sys.argv[1]
text = subprocess.run(["python3", "scripts/report_tables.py", run, "-", "--hz", run, "--guest", run,
                       "--sources", run, "--longwait", run], capture_output=True, text=True, check=True).stdout
# Which measure and accelerator each section shows (written out here, not
# taken from report_tables.py).
SECTIONS = [("Chart 1: first blocking", "first_urandom_return", "tcg"),
            ("Chart 1: the same moment", "host_first_urandom", "tcg"),
            ("The first blocking /dev/urandom read's own", "first_urandom_latency", "tcg"),
            ("Chart 2: CRNG ready", "crng_ready", "tcg"),
            ("Chart 3: CRNG ready under KVM", "crng_ready", "kvm"),
            ("Chart 6:", "first_urandom_return", "tcg"),
            ("systemd: boot finished", "userspace_finished", "tcg"),
            ("Host wall time", "host_wall", "tcg"),
            ("Seeds and virtio-rng: the first", "first_urandom_latency", "tcg"),
            ("Seeds and virtio-rng: CRNG ready", "crng_ready", "tcg"),
            ("Seeds and virtio-rng: systemd", "userspace_finished", "tcg"),
            ("Without a counter or RDRAND, under icount: CRNG", "crng_ready", "icount"),
            ("Without a counter or RDRAND, under icount: the first", "first_urandom_latency", "icount")]
rows = summary_rows(run)
checked = 0
for sec in text.split("### ")[1:]:
    title = sec.splitlines()[0]
    m = next(((me, ac) for p, me, ac in SECTIONS if title.startswith(p)), None)
    if m is None:
        continue
    for line in sec.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != len(VARIANTS) + 1 or cells[0] in ("condition", "---"):
            continue
        for v, cell in zip(VARIANTS, cells[1:]):
            num = re.match(r">?([0-9.]+) \[", cell)
            if not num:
                continue
            want = [r for r in rows if r["measure"] == m[0] and r["accel"] == m[1]
                    and r["variant"] == v and r["_cond"] == cells[0]]
            assert len(want) == 1, (title, cells[0], v, len(want))
            assert num.group(1) == ms(want[0]["median_ms"]), (title, cells[0], v, cell, want[0]["median_ms"])
            checked += 1
# The HZ table: row HZ, column variant, the jitter selection at that HZ.
hz = text.split("### Chart 5")[1].split("###")[0]
for line in hz.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if not cells[0].isdigit():
        continue
    for v, cell in zip(VARIANTS, cells[2:]):
        num = re.match(r">?([0-9.]+) \[", cell)
        if num:
            want = [r for r in rows if r["measure"] == "first_urandom_latency" and r["accel"] == "tcg"
                    and r["cpu"] == "qemu64" and r["nocounter"] == "off" and r["hz"] == cells[0]
                    and r["variant"] == v]
            assert len(want) == 1 and num.group(1) == ms(want[0]["median_ms"]), (cells[0], v, cell)
            checked += 1
assert checked > 50, checked
assert "### The guest itself" in text and "| probe overhead" in text, "no guest table"
PY
# Chart 5 and the HZ table: the same medians (both the runner's).
python3 - "$tmp/run" <<'PY' && echo "PASS: chart 5's medians are summary.csv's, as in the HZ table" || echo "FAIL: chart 5 and the HZ table disagree"
import sys
sys.path.insert(0, "plots")
from runlib import VARIANTS, jitter_rows, summary_rows
run = sys.argv[1]
rows = jitter_rows(summary_rows(run))
drawn = [l.split() for l in open(run + "/plots/data/hz.dat") if not l.startswith("#")]
assert drawn
for line in drawn:
    for v, val in zip(VARIANTS, line[1:]):
        want = [r["median_ms"] for r in rows if r["hz"] == line[0] and r["variant"] == v]
        assert (want[0] if want else "NaN") == val, (line[0], v, val, want)
PY
rm -rf "$tmp"

# The arches fixture (a real run of bench/arches.matrix, cut by
# tests/make-fixture.sh): chart 7 alone, as PNG, SVG and text.
afx=tests/fixtures/arches
tmp=$(mktemp -d)
cp -r "$afx" "$tmp/run"
if out=$(plots/render.sh "$tmp/run" 2>&1); then
	listed=$(tr '\n' ' ' <"$tmp/run/plots/data/charts")
	files=$(cd "$tmp/run/plots" && ls ./*.png ./*.svg ./*.txt 2>/dev/null | tr '\n' ' ')
	[ "$listed" = "7-arches " ] && [ "$files" = "./7-arches.png ./7-arches.svg ./7-arches.txt " ] &&
		echo "PASS: plots: an arches run draws chart 7 alone, as PNG, SVG and text, without gnuplot warnings" ||
		echo "FAIL: plots: arches run: charts listed '$listed', files '$files'"
else
	echo "FAIL: plots: arches run: $(echo "$out" | head -5 | tr '\n' ' ')"
fi
wide=$(awk 'length > 80' "$tmp/run/plots/7-arches.txt" 2>/dev/null | wc -l)
[ -s "$tmp/run/plots/7-arches.txt" ] && [ "$wide" -eq 0 ] &&
	echo "PASS: plots: chart 7 as text within 80 columns" ||
	echo "FAIL: plots: chart 7's text is missing or has $wide lines wider than 80 columns"
same_summary "$afx" "$tmp/run" "the arches fixture"
python3 - "$tmp/run" <<'PY' && echo "PASS: chart 7 draws every measured boot once, at its own CRNG-ready time and wait" || echo "FAIL: chart 7's points are not the boots of raw.csv"
import csv, glob, sys
run = sys.argv[1]
raw = [r for r in csv.DictReader(open(run + "/raw.csv")) if r["status"] in ("ok", "censored")]
drawn = sorted(float(l.split()[2]) for p in glob.glob(run + "/plots/data/arches_*.dat")
               for l in open(p) if not l.startswith("#") and l.split()[2] != "NaN")
want = sorted(max(int(r["crng_ready_bound_ns" if r["crng_ready_censored"] == "1" else "crng_ready_ns"]) / 1e6, 0.001)
              for r in raw if r["crng_ready_ns" if r["crng_ready_censored"] != "1" else "crng_ready_bound_ns"])
assert len(drawn) == len(want) and len(want) > 10, (len(drawn), len(want))
assert all(abs(a - b) <= max(1e-4, 1e-6 * b) for a, b in zip(drawn, want)), "a point is not its boot's ready time"
PY
python3 - "$tmp/run" <<'PY' && echo "PASS: report: the revert's architectures table is summary.csv cell by cell; the clock table names each machine's clocksource, its logged rate and its jitter trial" || echo "FAIL: report: the arches tables do not match summary.csv"
import re, subprocess, sys
sys.path.insert(0, "scripts")
from report_tables import ms
from runlib import summary_rows, value
run = sys.argv[1]
text = subprocess.run(["python3", "scripts/report_tables.py", run, "-", "--arches", run],
                      capture_output=True, text=True, check=True).stdout
sec = text.split("### Chart 7")[1].split("###")[0]
lines = [[c.strip() for c in l.strip().strip("|").split("|")] for l in sec.splitlines() if l.startswith("|")]
head, body = lines[0], [l for l in lines[2:]]
rows = summary_rows(run)
# The arches matrix's conditions in the table's words (written out here,
# not taken from runlib): (bootseed, nocounter).
CONDS = {"no boot-loader seed": ("off", "off"), "boot-loader seed credited": ("on", "off"),
         "no counter": ("off", "on")}
checked = 0
for cells in body:
    m, cond, v = cells[:3]
    seed, knob = CONDS[cond]
    for title, cell in zip(head[3:], cells[3:]):
        num = re.match(r">?([0-9.]+) \[", cell)
        if not num:
            continue
        meas = "crng_ready" if title.startswith("CRNG ready") else "first_urandom_latency"
        acc = title.rsplit(", ", 1)[1]
        want = [r for r in rows if value(r, "arch") == m and r["variant"] == v and r["accel"] == acc
                and r["measure"] == meas and value(r, "bootseed") == seed and r["nocounter"] == knob]
        assert len(want) == 1, (m, cond, v, title, len(want))
        assert num.group(1) == ms(want[0]["median_ms"]), (m, cond, v, title, cell, want[0]["median_ms"])
        assert f"n={want[0]['n']}" in cell, (m, cond, v, cell, want[0]["n"])
        checked += 1
assert checked >= 20, checked
cs = text.split("### What each machine's clock was")[1]
assert re.search(r"\| armv7-virt \| icount \| arch_sys_counter \| 62.5 MHz \|", cs), cs
assert re.search(r"\| armv5-versatilepb \| icount \| arm,sp804 \| 1 MHz \| [0-9-]+ per bit \(at most 6\): gives up \|", cs), cs
assert re.search(r"\| m68k-virt \| icount \| goldfish_timer \| 1 GHz \| 1 per bit \(at most 6\): runs \|", cs), cs
assert re.search(r"\| m68k-q800 \| tcg \| via1 \| 783 kHz \|", cs), cs  # its console is quiet: from /dev/kmsg
PY
rm -rf "$tmp"
