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
[ "$txt" -eq 3 ] && [ "$wide" -eq 0 ] && echo "PASS: plots: 3 headline charts as text within 80 columns" ||
	echo "FAIL: plots: $txt text charts, $wide lines wider than 80 columns"

# The runner recomputes the summary from raw.csv: same numbers as the fixture.
cp "$fx/summary.csv" "$tmp/expected.csv"
if build/crngbench-run --summarize "$tmp/run" --seed "$(cat "$fx/seed")" >/dev/null 2>&1 &&
	cmp -s "$tmp/run/summary.csv" "$tmp/expected.csv"; then
	echo "PASS: summary: recomputed from the fixture's raw.csv, identical to its summary.csv"
else
	echo "FAIL: summary: recomputed summary differs: $(diff "$tmp/expected.csv" "$tmp/run/summary.csv" | head -3 | tr '\n' ' ')"
fi
# Every median in the generated tables (main, hz, sources, guest) is the summary's median.
python3 - "$tmp/run" <<'PY' && echo "PASS: report tables match the fixture's summary" || echo "FAIL: report tables do not match the summary"
import csv, re, subprocess, sys
sys.path.insert(0, "scripts")
from report_tables import ms  # the tables' own number format
run = sys.argv[1]
text = subprocess.run(["python3", "scripts/report_tables.py", run, "-", "--hz", run, "--guest", run,
                       "--sources", run],
                      capture_output=True, text=True, check=True).stdout
assert "### The guest itself" in text and "| probe overhead" in text, "no guest table"
assert "### Seeds and virtio-rng" in text, "no sources tables"
rows = list(csv.DictReader(open(run + "/summary.csv")))
meds = {ms(r["median_ms"]) for r in rows if r["median_ms"]}
cells = re.findall(r"\| (>?)([0-9.]+) \[", text)
assert cells, "no numbers in the tables"
bad = [c for _, c in cells if c not in meds]
assert not bad, bad
PY
rm -rf "$tmp"
