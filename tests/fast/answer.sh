#!/usr/bin/env bash
# test: REPORT.md's first screen: the answer, against its runs
# REPORT.md's first screen ("The answer", tables:answer): generated, and
# agreeing with the runs' own figures. Each row's block and stock reads,
# block's CRNG ready and "added by block" are worked out again here from
# the named run's summary.csv (the tables below are made from it): some
# cell of that run must have the row's block figure, and the same cell
# (its stock twin, its CRNG ready) the others; a stock "not run" must be
# a cell without a stock twin; a row that says "emulated at F MHz" (or
# GHz) must be a cell whose icount shift gives that speed (1000 MHz >>
# shift; "auto": the run.matrix's icount shift); and the block must equal
# what plots/report_tables.py --answer makes of studies now.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "answer"
block=$(sed -n '/<!-- tables:answer:begin -->/,/<!-- tables:answer:end -->/p' REPORT.md | sed '1d;$d')
[ -n "$block" ] || { bad "REPORT.md has no tables:answer block"; exit 0; }
now=$(python3 plots/report_tables.py - - --answer studies 2>&1)
[ "$(printf '%s\n' "$now" | sed '/^$/d')" = "$(printf '%s\n' "$block" | sed '/^$/d')" ] &&
	ok "REPORT.md's answer is what report_tables.py --answer makes of studies" ||
	bad "REPORT.md's answer differs from report_tables.py --answer studies (make report FROM=committed)"
# The first screen (issue 34): the answer's bullets (at most six), the
# determinism sentence and the whole table within REPORT.md's first 60 lines.
end=$(grep -n '<!-- tables:answer:end -->' REPORT.md | head -n 1 | cut -d: -f1)
bullets=$(sed -n '/^## The answer/,/<!-- tables:answer:begin -->/p' REPORT.md | grep -c '^- \*\*')
det=$(head -n 60 REPORT.md | grep -c "credited bits are the kernel's accounting")
[ -n "$end" ] && [ "$end" -le 60 ] && [ "$bullets" -ge 1 ] && [ "$bullets" -le 6 ] && [ "$det" = 1 ] &&
	ok "the first screen: $bullets bullets, the determinism sentence and the answer table end by line $end (at most 60)" ||
	bad "the first screen: the answer table ends at line ${end:-none} (at most 60), $bullets bullets (1-6), determinism sentence in the first 60 lines: $det"
check() { # REPORT-or-file: every row agrees with its run's summary.csv
	python3 - "$1" <<'PY'
import re
import sys
from tests.lib.expect import agrees, table, median
text = open(sys.argv[1]).read()
part = text.split("<!-- tables:answer:begin -->", 1)[1].split("<!-- tables:answer:end -->", 1)[0]
rows = [[c.strip() for c in l.strip().strip("|").split(" | ")] for l in part.splitlines()
        if l.startswith("| ") and "---" not in l][1:]
assert len(rows) >= 5, rows
AXES = None
def fig(cell):  # "989 [989, 989]; n=10" or "7683 (identical in 2 boots); n=2" -> ("989", "10")
    med, _, n = re.split(r" \[| \(", cell)[0], None, cell.rpartition("n=")[2]
    return med, n
for r in rows:
    words, b, st, added, ready, run = r[1], r[2], r[3], r[4], r[5], r[6].strip("`")
    if st == "not run":  # the run booted block alone: nothing to subtract
        st = ""
        assert added == "not measured", (words, "stock not run, but added by block is", added)
    summ = table(f"studies/{run}/run")
    axes = [k for k in summ[0] if k not in ("variant",) and k in
            ("hz", "accel", "cpu", "trust_cpu", "virtio_rng", "nocounter", "smp", "reads", "trace", "seed",
             "timer", "arch", "bootseed", "rtc", "base", "shift", "early")]
    key = lambda x: tuple(x.get(a, "") for a in axes)  # noqa: E731
    lat = {(x["variant"], key(x)): x for x in summ if x["measure"] == "first_urandom_latency" and x["n"] != "0"}
    rdy = {(x["variant"], key(x)): x for x in summ if x["measure"] == "crng_ready" and x["n"] != "0"}
    bm, bn = fig(b)
    cands = [k for (v, k), x in lat.items() if v == "block" and agrees(bm, x) and x["n"] == bn]
    assert cands, (words, "no block cell of", run, "has", b)
    good = []
    for k in cands:
        s = lat.get(("stock", k))
        if st and (s is None or not agrees(fig(st)[0], s) or s["n"] != fig(st)[1]):
            continue
        if not st and s is not None:
            continue
        rr = rdy.get(("block", k))
        if ready and (rr is None or not agrees(re.split(r" \[| \(", ready)[0], rr)):
            continue
        if st and added:
            d = float(lat[("block", k)]["median_ms"]) - float(s["median_ms"])
            if d <= -0.1 and "1" not in (lat[("block", k)]["median_censored"], s["median_censored"]):
                # stock's read (its own trial and dance) waited longer
                want = "none: " + median({"median_censored": "0", "median_ms": f"{-d:.3f}"}) + " less"
            else:
                d = max(0.0, d)
                want = "~0" if d < 0.1 else (">" if lat[("block", k)]["median_censored"] == "1" else "") + \
                    median({"median_censored": "0", "median_ms": f"{d:.3f}"})
            if added != want:
                continue
        good.append(k)
    assert good, (words, run, "block's cell has other stock, ready or added figures than", r)
    speed = re.search(r"emulated at ([0-9.]+) (MHz|GHz)", words)
    if speed:  # the label's CPU speed is the cell's icount shift
        mhz = float(speed.group(1)) * (1000 if speed.group(2) == "GHz" else 1)
        icount = re.search(r"^icount = shift=(\d+)", open(f"studies/{run}/run/run.matrix").read(), re.M)
        assert icount, (run, "run.matrix has no icount shift")
        def cell_mhz(k):
            sh = k[axes.index("shift")] if "shift" in axes else ""
            return 1000 / 2 ** int(icount.group(1) if sh in ("", "auto") else sh)
        assert any(cell_mhz(k) == mhz for k in good), (words, run, "no such cell at", mhz, "MHz")
print("ok", len(rows))
PY
}
if out=$(check REPORT.md 2>&1); then
	ok "each of its ${out#ok } rows is one cell of its run: block's and stock's reads, CRNG ready and block's extra wait as summary.csv has them"
else
	bad "a row disagrees with its run: $(tail -n 1 <<<"$out")"
fi
# The check can fail: a copy of REPORT.md with one thing changed in its
# answer (the block's text between the markers gets PY's substitution)
# must disagree with the runs.
mutant() { # WHAT PY: PY edits the answer's text b1
	if ! python3 - "$tmp/REPORT.md" "$2" 2>/dev/null <<'PY'
import re, sys
s = open("REPORT.md").read()
a, b = s.split("<!-- tables:answer:begin -->", 1)
b1, b2 = b.split("<!-- tables:answer:end -->", 1)
b0 = b1
exec(sys.argv[2])
assert b1 != b0, "the mutation changed nothing"
open(sys.argv[1], "w").write(a + "<!-- tables:answer:begin -->" + b1 + "<!-- tables:answer:end -->" + b2)
PY
	then
		bad "negative check ($1): the mutation does not apply to REPORT.md's answer"
	elif check "$tmp/REPORT.md" >/dev/null 2>&1; then
		bad "negative check: an answer with $1 still agreed with the runs"
	else
		ok "negative check: an answer with $1 disagrees with its run: caught"
	fi
}
mutant "one figure changed" 'b1 = re.sub(r"\| (\d+) \[", lambda m: f"| {int(m.group(1)) + 1} [", b1, count=1)'
mutant "a measured stock read said not run" 'b1 = re.sub(r"(\| [^|]+ \| [^|]+; n=\d+ \| )[^|]+; n=\d+ \| [^|]+ \|", r"\1not run | not measured |", b1, count=1)'
mutant "a 1 GHz cell labelled 125 MHz" 'b1 = b1.replace("emulated at 1 GHz", "emulated at 125 MHz", 1)'
# The mail's first screen is the same answer: each row's block and stock
# medians, in its first 40 lines.
why=$(python3 - <<'PY' 2>&1
import re
text = open("REPORT.md").read()
part = text.split("<!-- tables:answer:begin -->", 1)[1].split("<!-- tables:answer:end -->", 1)[0]
rows = [[c.strip() for c in l.strip().strip("|").split(" | ")] for l in part.splitlines()
        if l.startswith("| ") and "---" not in l][1:]
head = "\n".join(open("studies/quick/run/post.txt").read().splitlines()[:40])
for r in rows:
    b, st = re.split(r" \[| \(", r[2])[0], (re.split(r" \[| \(", r[3])[0] or "-")
    want = f"block {b}, stock {st}"
    assert want in head, (want, "not in post.txt's first 40 lines")
PY
)
[ $? -eq 0 ] && ok "post.txt's first 40 lines give the same answer, row by row" || bad "post.txt's answer: $(tail -n 1 <<<"$why")"
# A censored stock median is a lower bound: block's median minus it is no
# figure, so "added by block" stays empty, never "~0" or a number. The
# committed runs have no such cell: a copy of quick's summary.csv whose
# stock cell of the first row (x86_64, -cpu max, icount) is censored.
mkdir -p "$tmp/runs/quick/run"
python3 - studies/quick/run/summary.csv "$tmp/runs/quick/run/summary.csv" <<'PY'
import csv, sys
with open(sys.argv[1], newline="") as f:
    r = csv.DictReader(f)
    fields, rows = r.fieldnames, list(r)
want = {"variant": "stock", "measure": "first_urandom_latency", "arch": "x86_64", "accel": "icount", "cpu": "max",
        "nocounter": "off"}
hits = [x for x in rows if all(x[k] == v for k, v in want.items())]
assert len(hits) == 1, len(hits)
hits[0]["median_censored"] = "1"
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
PY
row=$(python3 plots/report_tables.py - - --answer "$tmp/runs" 2>&1 | grep -F "RDRAND trusted (-cpu max)")
rm -rf "$tmp/runs"
added=$(awk -F ' [|] ' '{ print $5 }' <<<"$row")
case $row in
*"| >"*) [ -z "$(tr -d ' ' <<<"$added")" ] ;;
*) false ;;
esac && ok "a censored stock median gives no 'added by block' (neither ~0 nor a number)" ||
	bad "censored stock cell: added by block is '$added' in: $row"
