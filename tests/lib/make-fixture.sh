#!/usr/bin/env bash
# Refresh tests/fixtures/run from a real run of the main job:
#   tests/lib/make-fixture.sh results/latest
# or tests/fixtures/arches from a run of the arches matrix:
#   tests/lib/make-fixture.sh results/arches-<time> arches
# Keeps raw.csv, reads.csv, summary.csv, meta.json, seed and run.matrix as
# they are, and traces.csv only for each cell's first repetition (the full
# table is large; the timeline chart needs one boot's traces). No boot
# logs: the clock table reads the clocksource's rate from raw.csv.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:?usage: tests/lib/make-fixture.sh RUN_DIR [NAME]}
fx=tests/fixtures/${2:-run}
rm -rf "$fx"
mkdir -p "$fx"
cp "$run"/{raw.csv,reads.csv,summary.csv,meta.json,seed,run.matrix} "$fx/"
keep=$(tests/lib/csvget.py "$run/raw.csv" boot_id | grep -- '-r0$' | paste -sd'|')
{ head -n 1 "$run/traces.csv"; grep -E "^($keep)," "$run/traces.csv" || true; } >"$fx/traces.csv"
du -sh "$fx"
