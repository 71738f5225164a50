#!/usr/bin/env bash
# test: the mail and the terminal summary
# post.txt (plots/post.py, the report's text) and the terminal summary on
# the fixture run: the text is plain, in 80 columns, no mbox beside it;
# every figure in it is the runner's (summary.csv);
# every chart has a text version whose legend names every variant drawn;
# the terminal summary fits a screen and names every cell.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "post"
cp -r tests/fixtures/run "$tmp/run"
if ! plots/render.sh "$tmp/run" >/dev/null 2>&1 || ! out=$(plots/post.py "$tmp/run" --hz "$tmp/run" 2>&1); then
	echo "FAIL: post: plots/post.py on the fixture failed: $(head -c 300 <<<"${out:-render failed}")"
	exit 0
fi
p=$tmp/run/post.txt
bad=$(awk 'length > 80 || /\t/ || / $/ || /^ *\|/ || /<(html|br|table|p>)/ || /\*\*/' "$p" | head -n 3)
[ -z "$bad" ] && echo "PASS: post: plain text, lines of at most 80 columns, no tab, trailing space, Markdown table or HTML" ||
	echo "FAIL: post: lines that break the mail conventions: $bad"

/usr/bin/python3 - "$tmp/run" <<'PY' && echo "PASS: post: every table figure and finding is the runner's median, CI and n of its own cell" || echo "FAIL: post: a figure differs from summary.csv"
import re, sys
from tests.lib.expect import agrees, median, near, one, quick_cell, shown, table
run = sys.argv[1]
rows = table(run)
text = open(run + "/post.txt").read()
TITLES = {"The first blocking /dev/urandom read's own duration": "first_urandom_latency",
          "When that read returned, from kernel start": "first_urandom_return",
          "CRNG ready, from kernel start": "crng_ready"}
checked = 0
for block in text.split("\n\n"):
    lines = block.splitlines()
    measure = next((m for t, m in TITLES.items() if lines and lines[0].startswith(t)), None)
    if measure:
        cur = measure
        continue
    if not lines or not lines[0].startswith("  condition ") or "CONFIG_HZ" in lines[0]:
        continue
    for l in lines[1:]:
        m = re.match(r"  (.{24}) (\S+)\s+(>?[0-9.]+(?: us)?)  ([0-9.]+) - ([0-9.]+)( us)?\s+(\d+)( \((\d+) >\))?\Z", l)
        assert m, l
        cond, v, med, lo, hi, unit, n, _, cens = m.groups()
        r = one(rows, measure=cur, accel="tcg", variant=v, **quick_cell(cond.strip()))
        if unit:  # under 1 ms: us from raw.csv's ns, summary.csv's figures to its 1 us
            assert agrees(med, r) and near(lo, r["ci95_lo_ms"]) and near(hi, r["ci95_hi_ms"]), (l, r)
            assert (n, cens or "0") == (r["n"], r["censored"]), (l, r)
        else:
            assert (med, lo, hi, n, cens or "0") == (median(r), shown(r["ci95_lo_ms"]), shown(r["ci95_hi_ms"]),
                                                     r["n"], r["censored"]), (l, r)
        checked += 1
assert checked >= 40, checked
# The CONFIG_HZ table: chart 5's selection, written out here.
hz = text.split("  CONFIG_HZ ")[1].split("\n\n")[0].splitlines()[1:]
for l in hz:
    m = re.match(r"  (\d+)\s+(\d+)  (\S+)\s+(>?[0-9.]+(?: us)?)  ([0-9.]+) - ([0-9.]+)( us)?\s+(\d+)\Z", l)
    assert m, l
    h, ticks, v, med, lo, hi, unit, n = m.groups()
    r = one(rows, measure="first_urandom_latency", accel="tcg", cpu="qemu64", nocounter="off", hz=h, variant=v)
    if unit:
        assert ticks == f"{256000 / int(h):.0f}" and n == r["n"] and agrees(med, r), (l, r)
        assert near(lo, r["ci95_lo_ms"]) and near(hi, r["ci95_hi_ms"]), (l, r)
    else:
        assert (ticks, med, lo, hi, n) == (f"{256000 / int(h):.0f}", median(r), shown(r["ci95_lo_ms"]),
                                           shown(r["ci95_hi_ms"]), r["n"]), (l, r)
    checked += 1
assert hz and checked >= 44, checked
# The findings: "COND: ... takes A ms on V1 and B ms on V2"
for cond, a, v1, b, v2 in re.findall(r"^(.+?): the first blocking /dev/urandom read takes (\S+\s(?:ms|us)) on\s+(\S+)\s+"
                                     r"and\s+(\S+\s(?:ms|us)) on (\S+)", text, re.M | re.S):
    for val, v in ((a, v1), (b, v2)):
        r = one(rows, measure="first_urandom_latency", accel="tcg", variant=v, **quick_cell(cond.splitlines()[-1]))
        num, unit = val.split()
        assert agrees(f"{num} us", r) if unit == "us" else num == median(r), (cond, v, val)
        checked += 1
assert checked >= 46, checked
PY

/usr/bin/python3 - "$tmp/run" <<'PY' && echo "PASS: post: every chart has a text version naming every variant it draws, within 80 columns" || echo "FAIL: post: a text chart is missing, too wide, or leaves a variant unnamed"
import glob, os, sys
run = sys.argv[1]
sys.path.insert(0, "plots")
from runlib import variants
VARIANTS = variants()
data = run + "/plots/data/"
charts = open(data + "charts").read().split()  # the ones that fit the run (prepare.py)
assert charts == sorted(os.path.basename(p)[:-3] for p in glob.glob("plots/[1-6]-*.gp")), charts
drawn = {"1-nethack": "nethack.dat", "6-nocounter": "nocounter.dat", "2-crng-ready-cdf": "cdf.dat",
         "3-tcg-vs-kvm": "accel.dat", "5-jitter-vs-hz": "hz.dat"}
for c in charts:
    txt = open(f"{run}/plots/{c}.txt").read()
    assert max(len(l) for l in txt.splitlines()) <= 80, c
    if c in drawn:
        # the data rows (a header comment names every column, drawn or not)
        dat = "".join(l for l in open(data + drawn[c]) if not l.startswith("#"))
        for v in VARIANTS:
            # a series' title is vars.gp's variant_<i>, the variant's name
            titles = [l.split(" = ", 1)[1].strip() for l in open(f"{run}/plots/data/vars.gp")
                      if l.startswith("variant_")]
            shown = f"'{v}'" in titles or f" {v}" in dat or f'"{v}' in dat
            if shown:
                assert f"  {v}" in txt or f"{v} " in txt, (c, v)
PY

[ ! -e "$tmp/run/post.mbox" ] && echo "PASS: post: no mbox of attached charts is written (the charts stay files)" ||
	echo "FAIL: post: post.py wrote post.mbox"

# The terminal summary: at most 60 lines, every measured cell named, the
# skipped ones counted.
runner=${CRNGBENCH_RUNNER:-build/crngbench-run}
"$runner" --summarize "$tmp/run" >"$tmp/term.txt" 2>&1
/usr/bin/python3 - "$tmp/run" "$tmp/term.txt" <<'PY' && echo "PASS: terminal summary fits in 60 lines and names every cell" || echo "FAIL: terminal summary: $(wc -l <"$tmp/term.txt") lines or a cell missing"
import csv, sys
run, term = sys.argv[1], open(sys.argv[2]).read()
assert len(term.splitlines()) <= 60
rows = [r for r in csv.DictReader(open(run + "/summary.csv")) if r["measure"] == "kernel_to_init"]
vary = [a for a in ("hz", "cpu", "trust_cpu", "virtio_rng", "nocounter", "smp", "reads", "trace", "seed")
        if len({r[a] for r in rows}) > 1]
skipped = 0
for r in rows:
    if r["n"] == "0" and r["skipped"] != "0":
        skipped += 1
        continue
    label = " ".join([r["variant"], r["accel"]] + [f"{a}={r[a]}" for a in vary])
    assert any(l.startswith(label + " ") for l in term.splitlines()), label
assert f"skipped: {skipped} kvm cells" in term, skipped
PY

# The mail carries every text chart the run has, the main job's (1-6) and
# an arches run's (7).
cp -r tests/fixtures/arches "$tmp/arches"
if plots/render.sh "$tmp/arches" >/dev/null 2>&1 && plots/post.py "$tmp/arches" >/dev/null 2>&1; then
	missing=
	for run in "$tmp/run" "$tmp/arches"; do
		for t in "$run"/plots/*.txt; do
			python3 -c 'import sys; sys.exit(open(sys.argv[1]).read().rstrip("\n") not in open(sys.argv[2]).read())' \
				"$t" "$run/post.txt" || missing="$missing $(basename "$run")/$(basename "$t")"
		done
	done
	[ -z "$missing" ] && echo "PASS: post: the mail carries every text chart of the run (charts 1-6; an arches run's chart 7)" ||
		echo "FAIL: post: text charts missing from the mail:$missing"
else
	echo "FAIL: post: plots/post.py on the arches fixture failed"
fi
# --arches: the main run's text carries the arches run's chart 7; a run
# of another kind given as --arches adds nothing.
cp -r "$tmp/run" "$tmp/withar"
rm -f "$tmp/withar/post.txt"
if plots/post.py "$tmp/withar" --arches "$tmp/arches" >/dev/null 2>&1 &&
	python3 -c 'import sys; sys.exit(open(sys.argv[1]).read().rstrip("\n") not in open(sys.argv[2]).read())' \
		"$tmp/arches/plots/7-arches.txt" "$tmp/withar/post.txt" &&
	plots/post.py "$tmp/withar" --arches "$tmp/run" >/dev/null 2>&1 &&
	! grep -q "The revert's architectures" "$tmp/withar/post.txt"; then
	echo "PASS: post: --arches adds an arches run's chart 7, and nothing from a run of another kind"
else
	echo "FAIL: post: --arches did not add chart 7, or added one from a run that is not an arches run"
fi

# The terminal summary's columns stay in line after a six-digit CI (the
# bases run's 554358 [554358, 554358]), and a CRNG ready the kernel logged
# before its clock started reads as such, never 0.000 (the arches run's
# seeded machines: every boot; the bases run's TCG -cpu max: some).
for r in bases arches; do
	cp -r "studies/$r/run" "$tmp/sum-$r"
	"$runner" --summarize "$tmp/sum-$r" >"$tmp/sum-$r.txt" 2>&1
done
/usr/bin/python3 - "$tmp/sum-bases.txt" "$tmp/sum-arches.txt" <<'PY' && echo "PASS: terminal summary: columns in line after a six-digit CI; a CRNG ready before timekeeping reads so, never 0.000" || echo "FAIL: terminal summary: a column out of line, or a clamped CRNG ready shown as 0.000"
import sys
wide = clamped = 0
for path in sys.argv[1:]:
    text = open(path).read().splitlines()
    lines = text[next(i for i, l in enumerate(text) if l.startswith("variant accel condition")):]
    head = lines[0]
    col = head.index("CRNG ready (ms)")
    for l in lines[1:]:
        if not l or l.startswith("skipped:"):
            break
        assert l[col - 1] == " " and l[col] != " ", (path, l)
        ready = l[col:]
        assert not ready.startswith("0.000") and "[0.000" not in ready, (path, l)
        wide += "554358 [554358, 554358]" in l
        clamped += "before timekeeping" in ready
assert wide and clamped >= 4, (wide, clamped)
PY

# Issue 47: under TCG -cpu max the kernel may log CRNG ready before its
# clock started; the probe clamps that time to 0. The fixture run's block
# cpu=max cell made so (every boot, and the summary recomputed): the
# medians table, post.txt's table and chart 3 (its text and its gnuplot
# series, where a 0 on the log axis drew no bar) say "before timekeeping",
# never 0.000; cells.fmt gives a cell of some clamped boots its CI as
# "[before timekeeping, hi]".
cl=$tmp/clamped
cp -r tests/fixtures/run "$cl"
edit "$cl" raw.csv "
for r in rows:
    if r['variant'] == 'block' and r['cpu'] == 'max' and r['nocounter'] == 'off' and r['crng_ready_src'] == 'kmsg':
        r['crng_ready_kmsg_ns'] = r['crng_ready_ns'] = '0'"
if "$runner" --summarize "$cl" >"$tmp/clamped.txt" 2>&1 && plots/render.sh "$cl" >/dev/null 2>&1 &&
	plots/post.py "$cl" >/dev/null 2>&1; then
	/usr/bin/python3 - "$cl" "$tmp/clamped.txt" <<'PY' && echo "PASS: post: a CRNG ready logged before timekeeping reads so in the medians table, post.txt and chart 3, never 0.000" || echo "FAIL: post: a clamped CRNG ready is shown as 0.000 or vanishes"
import re, sys
sys.path.insert(0, "plots")
from cells import fmt
run, term = sys.argv[1], open(sys.argv[2]).read()
line = next(l for l in term.splitlines() if l.startswith("block tcg cpu=max nocounter=off"))
assert line.rstrip().endswith("before timekeeping"), line
post = open(run + "/post.txt").read()
table = post.split("CRNG ready, from kernel start")[1].split("\n\n\n")[0]
rows = [l for l in table.splitlines() if re.match(r"  cpu=max +block ", l)]
assert rows and all("before timekeeping" in l and "0.000" not in l for l in rows), rows
chart = open(run + "/plots/3-tcg-vs-kvm.txt").read()
block = chart.split("block cpu=max\n")[1].split("\n")[0]
assert "before timekeeping" in block and not re.search(r"[^0-9.]0\.000 ms", chart), block
assert "before timekeeping" in open(run + "/plots/data/series.gp").read()  # chart 3's label on its floor
r = {"measure": "crng_ready", "n": "3", "median_ms": "5.853", "median_censored": "0", "ci95_lo_ms": "0.000",
     "ci95_hi_ms": "15.549", "note": "", "censored": "0"}
assert fmt(r) == "5.9 [before timekeeping, 15.5]", fmt(r)
PY
else
	echo "FAIL: post: the clamped fixture did not summarize, render or post: $(tail -c 300 "$tmp/clamped.txt")"
fi

# The reproduce line (plots/runmail.py make_args): a study's own matrix
# is one MATRIX= finds (no note); a matrix from elsewhere is named; a run
# grown by a --resume command gets its overrides from its run.matrix set
# against its matrix file (studies/quick/quick.matrix): VARIANTS, HZ,
# ACCELS, REPS, other axes in SETS, the seed kept, no note that it was
# resumed.
grown=$tmp/grown
cp -r tests/fixtures/run "$grown"
# (trace as the matrix file has it: the fixture was made traced)
trace=$(sed -n 's/^trace = //p' studies/quick/quick.matrix)
sed -i "s/^variant = .*/variant = stock,block/; s/^hz = .*/hz = 100,250/; s/^trace = .*/trace = $trace/" "$grown/run.matrix" &&
	echo 'rtc = fixed' >>"$grown/run.matrix"
if out=$(CRNGBENCH_RUNNER=$runner python3 - "$grown" <<'PY' 2>&1
import sys
sys.path.insert(0, "plots")
from runmail import make_args
def notes(argv):
    return make_args({"command_line": ["crngbench-run"] + argv, "seed": 1})[1]
study = notes(["--matrix", "studies/quick/quick.matrix", "--set", "variant=stock,mine"])
other = notes(["--matrix", "/tmp/x/mine.matrix"])
assert study == [], study
assert any("not one of bench/ or studies/" in n for n in other), other
words, grown = make_args({"command_line": ["crngbench-run", "--resume", "--out", "results/r", "--set", "accel=icount,tcg"],
                          "matrix": "quick", "seed": 7}, sys.argv[1])
assert words == ["MATRIX=quick", "REPS=4", "VARIANTS=stock,block", "HZ=100,250", "ACCELS=tcg,kvm",
                 "SETS='--set rtc=fixed'", "RUNFLAGS='--seed 7'"], words
assert not any("resumed" in n for n in grown), grown
PY
); then
	echo "PASS: post: the reproduce line: a study's matrix needs no note, one from elsewhere is named, a grown run's overrides are its run.matrix's"
else
	echo "FAIL: post: the reproduce line: $(tail -n 3 <<<"$out" | tr '\n' ' ')"
fi
