#!/usr/bin/env bash
# test: the trace study's table shows a run's text as text
# studies/trace/tables.py writes a run's variant, pid, command and
# function into Markdown. A run is untrusted: a variant that opens with a
# backquote and holds HTML must come out escaped (md()), never as a raw
# code span or markup, whatever its first character.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "trace table"
if [ ! -f studies/trace/run/raw.csv ]; then
	bad "studies/trace/run has no committed run"
	exit 0
fi
cp -r studies/trace/run "$tmp/run"
python3 - "$tmp/run/raw.csv" <<'PY'
import csv, sys
rs = list(csv.DictReader(open(sys.argv[1])))
for r in rs:
    r["variant"] = "`<img src=x>`"
w = csv.DictWriter(open(sys.argv[1], "w", newline=""), list(rs[0]), lineterminator="\n")
w.writeheader()
w.writerows(rs)
PY
out=$(cd plots && python3 -c 'import sys; sys.path.insert(0, "../studies/trace"); import tables; print(tables.tables(sys.argv[1]))' "$tmp/run" 2>&1)
grep -qF '\`&lt;img src=x&gt;\`' <<<"$out" && ! grep -q '<img' <<<"$out"
verdict $? "a variant opening with a backquote and holding HTML is escaped in the table" "$(grep -m1 img <<<"$out")"
