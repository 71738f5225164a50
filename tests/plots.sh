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

# The runner recomputes the summary from raw.csv: same numbers as the fixture.
cp "$fx/summary.csv" "$tmp/expected.csv"
if build/crngbench-run --summarize "$tmp/run" --seed "$(cat "$fx/seed")" >/dev/null 2>&1 &&
	cmp -s "$tmp/run/summary.csv" "$tmp/expected.csv"; then
	echo "PASS: summary: recomputed from the fixture's raw.csv, identical to its summary.csv"
else
	echo "FAIL: summary: recomputed summary differs: $(diff "$tmp/expected.csv" "$tmp/run/summary.csv" | head -3 | tr '\n' ' ')"
fi
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
