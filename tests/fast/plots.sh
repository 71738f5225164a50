#!/usr/bin/env bash
# test: plots and report tables
# runs: first
# The plot step on a results fixture (raw data of a real run, tests/fixtures/
# run): every chart renders without a gnuplot warning, the text versions fit
# an 80-column mail, the runner's summary of the fixture's raw.csv matches
# the fixture's summary.csv, and REPORT.md-style tables match it too.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "plots"
fx=tests/fixtures/run
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
# A text chart says what its PNG says: chart 4 names its boot (the PNG's
# title, vars.gp's boot_label); chart 5 of a run of one HZ says why it is
# one bar a variant (the PNG's label, vars.gp's hz_note)
p=$tmp/run/plots
boot=$(sed -n "s/^boot_label = '\(.*\)'$/\1/p" "$p/data/vars.gp")
note=$(sed -n "s/^hz_note = '\(.*\)'$/\1/p" "$p/data/vars.gp")
[ -n "$boot" ] && grep -qF "One boot's timeline: $boot" "$p/4-timeline.txt"
verdict $? "chart 4's text names its boot, as its PNG's title does ($boot)" "$(head -n 2 "$p/4-timeline.txt" | tr '\n' ' ')"
[ "$(awk '{print $1}' "$p/data/hz.dat" | grep -c '^[0-9]')" = 1 ] && [ "$note" = "only one HZ in this run: make bench MATRIX=hz" ] &&
	[ "$(tail -n 1 "$p/5-jitter-vs-hz.txt")" = "$note" ]
verdict $? "chart 5's text of a run of one HZ says what its PNG says: '$note'" "$(tail -n 2 "$p/5-jitter-vs-hz.txt" | tr '\n' ' ')"
# Charts 2 and 3's time axes read as ms, s and min (no '1e+06'), and
# each of chart 2's panels has a tick where its boots are (vars.gp's tic
# lists against cdf.dat's times)
out=$(python3 - "$p/data" <<'PY' 2>&1
import re, sys
d = sys.argv[1]
v = dict(re.match(r"(\w+) = (.*)", l).groups() for f in ("vars.gp", "series.gp")
         for l in open(f"{d}/{f}") if re.match(r"\w+ = ", l))
tics = {k: re.findall(r'"([^"]*)" ([0-9.e+-]+)', v[k]) for k in v if k == "ytics3" or k.startswith("cdft_")}
assert tics.get("ytics3") and any(k.startswith("cdft_") for k in tics), sorted(tics)
for k, ts in tics.items():
    for label, _ in ts:
        assert re.fullmatch(r"[0-9.]+ (ms|s|min)", label), (k, label)
panels, cur = {}, None
for l in open(d + "/cdf.dat"):
    m = re.match(r"# condition (\d+)", l)
    if m:
        cur = int(m.group(1))
    elif l.strip() and cur is not None:
        panels.setdefault(cur, []).append(float(l.split()[0]))
for c, xs in panels.items():
    ts = [float(x) for _, x in tics[f"cdft_{c}"]]
    assert any(min(xs) / 2.1 <= t <= max(xs) * 2.1 for t in ts), (c, min(xs), max(xs), ts)
PY
)
verdict $? "charts 2 and 3: time ticks read as ms, s and min; every chart 2 panel has a tick where its boots are" "$(brief "$out")"

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
# Every number in the generated tables is the summary's median, CI and n
# of exactly that table's measure, that row's condition and that column's
# variant: a number from another cell (or another measure), or printed
# wrong, fails. What is expected is worked out by tests/lib/expect.py from
# summary.csv, never by the code under test.
python3 - "$tmp/run" <<'PY' && echo "PASS: report tables: each cell is its own cell's median, CI and n in summary.csv" || echo "FAIL: report tables do not match the summary cell by cell"
import subprocess, sys
from tests.lib.expect import check, grid, one, quick_cell, table
run = sys.argv[1]
text = subprocess.run(["python3", "plots/report_tables.py", run, "-", "--hz", run, "--guest", run,
                       "--sources", run, "--longwait", run], capture_output=True, text=True, check=True).stdout
rows = table(run)
# Which measure and accelerator each section shows (written out here, not
# taken from report_tables.py).
SECTIONS = [("Chart 1: first blocking", "first_urandom_return", "tcg"),
            ("The first blocking /dev/urandom read's own", "first_urandom_latency", "tcg"),
            ("The same moment from QEMU start", "host_first_urandom", "tcg"),
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
checked = 0
secs = {s.splitlines()[0]: s for s in text.split("### ")[1:]}
for title, sec in secs.items():
    m = next(((me, ac) for p, me, ac in SECTIONS if title.startswith(p)), None)
    if m is None:
        continue
    head, body = grid(sec)
    if not head:  # no row of that measure and clock in the run: it says so
        assert "Not measured in this run." in sec and not any(r["measure"] == m[0] and r["accel"] == m[1]
                                                             for r in rows), title
        continue
    assert head[0] == "condition" and body, title
    for cells in body:
        for v, cell in zip(head[1:], cells[1:]):
            checked += check(cell, one(rows, measure=m[0], accel=m[1], variant=v, **quick_cell(cells[0])))
# The HZ table: row HZ, column variant, chart 5's selection written out
# here: the first urandom read under TCG, qemu64, with the counter.
head, body = grid(next(s for t, s in secs.items() if t.startswith("Chart 5")))
assert head[:2] == ["CONFIG_HZ", "256/HZ"] and body
for cells in body:
    assert cells[1] == f"{256000 / int(cells[0]):.0f}", cells[:2]
    for v, cell in zip(head[2:], cells[2:]):
        checked += check(cell, one(rows, measure="first_urandom_latency", accel="tcg", cpu="qemu64",
                                   nocounter="off", hz=cells[0], variant=v), censored=False)
# The guest's own costs: stock, a column per accelerator, trace and condition.
TITLES = {"probe overhead": "probe_overhead", "kernel start to PID 1": "kernel_to_init",
          "systemd: boot finished": "userspace_finished", "host wall": "host_wall"}
head, body = grid(next(s for t, s in secs.items() if t.startswith("The guest itself")))
assert head[0] == "measure" and len(body) == len(TITLES)
for cells in body:
    meas = next(m for t, m in TITLES.items() if cells[0].startswith(t))
    for col, cell in zip(head[1:], cells[1:]):
        accel, trace, label = col.split(", ", 2)
        checked += check(cell, one(rows, measure=meas, variant="stock", accel=accel,
                                   trace=trace.removeprefix("trace "), **quick_cell(label)), censored=False)
assert checked > 80, checked
PY
# Chart 5 and the HZ table: the same medians, the runner's. The selection
# is written out here (the first urandom read under icount where the run
# has such cells, else TCG, qemu64, with the counter), not taken from
# runlib: a wrong selection there fails. Its PNG's title and its text
# chart name that clock (vars.gp's hz_clock). On the fixture (TCG and
# KVM) and on the committed quick run (icount, TCG and KVM).
cp -r studies/quick/run "$tmp/both" && rm -rf "$tmp/both/plots"
plots/render.sh "$tmp/both" >/dev/null 2>&1 || bad "plots/render.sh on a copy of studies/quick/run failed"
for r in "$tmp/run" "$tmp/both"; do
	if python3 - "$r" <<'PY'; then
import sys
from tests.lib.expect import table
run = sys.argv[1]
sel = [r for r in table(run) if r["measure"] == "first_urandom_latency" and r["cpu"] == "qemu64"
       and r["nocounter"] == "off" and r["n"] not in ("", "0")]
accel = "icount" if any(r["accel"] == "icount" for r in sel) else "tcg"
want = {(r["hz"], r["variant"]): r["median_ms"] for r in sel if r["accel"] == accel}
with open(run + "/plots/data/hz.dat") as f:
    head, *drawn = [l.split() for l in f]
assert head[:2] == ["#", "hz"] and drawn, (head, drawn)
assert sorted(l[0] for l in drawn) == sorted({hz for hz, _ in want}), (drawn, want)
for line in drawn:
    for v, val in zip(head[2:], line[1:]):
        assert (want.get((line[0], v)) or "NaN") == val, (line[0], v, val, want.get((line[0], v)))
assert len(want) == sum(v != "NaN" for l in drawn for v in l[1:]), (want, drawn)
clock = {"icount": "instruction time (icount)", "tcg": "emulation time (TCG)"}[accel]
assert f"hz_clock = '{clock}'\n" in open(run + "/plots/data/vars.gp").read(), clock
assert clock in open(run + "/plots/5-jitter-vs-hz.txt").read().splitlines()[1], clock
PY
		ok "chart 5 of $(basename "$r"): summary.csv's medians of its selection, in the clock it names"
	else
		bad "chart 5 of $(basename "$r") does not draw summary.csv's medians of its selection in the clock it names"
	fi
done
rm -rf "$tmp"

# The arches fixture (a real run of studies/arches/arches.matrix, cut by
# tests/lib/make-fixture.sh): chart 7 alone, as PNG, SVG and text.
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
from tests.lib.expect import check, grid, one, table
run = sys.argv[1]
text = subprocess.run(["python3", "plots/report_tables.py", run, "-", "--arches", run],
                      capture_output=True, text=True, check=True).stdout
head, body = grid(text.split("### Chart 7")[1].split("###")[0])
assert head[:3] == ["machine", "condition", "variant"] and body, head
rows = table(run)
# The arches matrix's conditions in the table's words (written out here,
# not taken from runlib): (bootseed, nocounter).
CONDS = {"no boot-loader seed": ("off", "off"), "boot-loader seed credited": ("on", "off"),
         "no counter": ("off", "on")}
checked = hung = 0
for cells in body:
    m, cond, v = cells[:3]
    seed, knob = CONDS[cond]
    for title, cell in zip(head[3:], cells[3:]):
        meas = "crng_ready" if title.startswith("CRNG ready") else "first_urandom_latency"
        hits = [r for r in rows if r["arch"] == m and r["variant"] == v and r["accel"] == title.rsplit(", ", 1)[1]
                and r["measure"] == meas and r["bootseed"] == seed and r["nocounter"] == knob]
        assert len(hits) == (1 if cell else 0), (m, cond, v, title, cell, len(hits))
        if cell.startswith("not measured: all "):
            # every boot of the cell killed at the host's timeout (raw.csv's reason)
            boots = [b for b in table(run, "raw.csv") if b["arch"] == m and b["variant"] == v
                     and b["accel"] == title.rsplit(", ", 1)[1] and b["bootseed"] == seed and b["nocounter"] == knob]
            assert meas == "crng_ready" and boots and all(
                b["status"] == "censored" and "s of host time" in b["reason"] for b in boots), (m, v, cell)
            assert cell == f"not measured: all {len(boots)} boots hit the host timeout", cell
            hung += 1
            continue
        checked += check(cell, hits[0]) if cell else 0
assert checked >= 20 and hung >= 1, (checked, hung)
cs = text.split("### What each machine's clock was")[1]
assert re.search(r"\| armv7-virt \| icount \| arch_sys_counter \| 62.5 MHz \|", cs), cs
assert re.search(r"\| armv5-versatilepb \| icount \| arm,sp804 \| 1 MHz \| [0-9-]+ per bit \(at most 6\): gives up \|", cs), cs
assert re.search(r"\| m68k-virt \| icount \| goldfish_timer \| 1 GHz \| 1 per bit \(at most 6\): runs \|", cs), cs
assert re.search(r"\| m68k-q800 \| tcg \| via1 \| 783 kHz \|", cs), cs  # its console is quiet: from /dev/kmsg
PY
rm -rf "$tmp"

# A run measured under two accelerators (TCG and icount, as the quick
# matrix is): chart 3 draws both series from one data file. The committed
# fixture is TCG-only, so the same rows are given again as icount here.
two=$(mktemp -d)
cp -r tests/fixtures/run "$two/run"
python3 - "$two/run" <<'PY'
import csv, sys
d = sys.argv[1]
for name in ("raw.csv", "summary.csv"):
    with open(f"{d}/{name}", newline="") as f:
        rows = list(csv.reader(f))
    a = rows[0].index("accel")
    extra = []
    for r in rows[1:]:
        if r[a] == "tcg":
            r2 = list(r); r2[a] = "icount"
            if name == "raw.csv":
                r2[0] = r2[0] + "i"  # another boot
            extra.append(r2)
    with open(f"{d}/{name}", "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows + extra)
PY
if plots/render.sh "$two/run" >"$two/out" 2>&1 && grep -q "icount" "$two/run/plots/data/accel.dat" 2>/dev/null ||
	grep -q "icount" "$two/run/plots/data/series.gp" 2>/dev/null; then
	if ! grep -q "warned or failed" "$two/out"; then
		echo "PASS: plots: a run under TCG and icount draws chart 3's two series without a gnuplot warning"
	else
		echo "FAIL: plots: a run under TCG and icount: $(grep -m3 -A3 'warned or failed' "$two/out" | tr '\n' ' ' | head -c 300)"
	fi
else
	echo "FAIL: plots: a run under TCG and icount does not render: $(tail -n 3 "$two/out" | tr '\n' ' ' | head -c 300)"
fi
rm -rf "$two"
# Every boot of a cell at an x of its own in charts 1 and 6 (n=10 drawn
# as 10 points, not folded onto 5 by rep % 5), on the committed quick run
# with each boot's row copied as rep + n (its n doubled: the committed
# run's n=5 alone would not tell rep % 5 from every rep).
q=$(mktemp -d)
cp -r studies/quick/run "$q/run"
python3 - "$q/run/raw.csv" <<'PY'
import csv, sys
path = sys.argv[1]
with open(path, newline="") as f:
    rd = csv.DictReader(f)
    head, rows = rd.fieldnames, list(rd)
n = max(int(r["rep"]) for r in rows) + 1
more = [dict(r, rep=str(int(r["rep"]) + n), boot_id=f"c{r['cell']}-r{int(r['rep']) + n}") for r in rows]
with open(path, "w", newline="") as f:
    w = csv.DictWriter(f, head, lineterminator="\n")
    w.writeheader()
    w.writerows(rows + more)
PY
if plots/render.sh "$q/run" >/dev/null 2>&1 && python3 - "$q/run" <<'PY'
import collections, csv, sys
run = sys.argv[1]
reps = max(int(r["rep"]) for r in csv.DictReader(open(f"{run}/raw.csv"))) + 1
for name in ("nethack.dat", "nocounter.dat"):
    xs = collections.defaultdict(set)
    n = collections.Counter()
    for line in open(f"{run}/plots/data/{name}"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        cell = round(float(f[0]))  # the cell's slot: its boots are spread +-0.25 around it
        xs[cell].add(f[0])
        n[cell] += 1
    assert n and all(len(xs[c]) == n[c] for c in n), (name, {c: (len(xs[c]), n[c]) for c in n if len(xs[c]) != n[c]})
    assert max(n.values()) == reps, (name, reps, max(n.values()))
PY
then
	echo "PASS: plots: charts 1 and 6 put each of a cell's boots at an x of its own (every rep drawn)"
else
	echo "FAIL: plots: charts 1 and 6 fold boots of one cell onto one x"
fi
rm -rf "$q"
