#!/usr/bin/env bash
# Refresh tests/fixtures/run from a real run of the main job:
#   tests/make-fixture.sh results/latest
# Keeps raw.csv, reads.csv, summary.csv, meta.json, seed and run.matrix as
# they are, and traces.csv only for each cell's first repetition (the full
# table is large; the timeline chart needs one boot's traces).
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:?usage: tests/make-fixture.sh RUN_DIR}
fx=tests/fixtures/run
rm -rf "$fx"
mkdir -p "$fx"
cp "$run"/{raw.csv,reads.csv,summary.csv,meta.json,seed,run.matrix} "$fx/"
keep=$(tests/csvget.py "$run/raw.csv" boot_id | grep -- '-r0$' | paste -sd'|')
{ head -n 1 "$run/traces.csv"; grep -E "^($keep)," "$run/traces.csv" || true; } >"$fx/traces.csv"
du -sh "$fx"
