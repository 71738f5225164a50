#!/usr/bin/env bash
# test: chart 8 and the entropy tables
# Chart 8 and REPORT.md's "What ready holds" tables on a small entropy run
# (tests/lib/entropy_run.sh: the runner against tests/lib/fake-qemu, each boot's
# digest and jitter trial set there, summarized by the runner): the run is
# told from the others by its machines and gets chart 8 alone (PNG, SVG,
# 80-column text, no gnuplot warning); each point is a boot of raw.csv at
# its own samples per bit and CPU speed; each table cell is its cell's
# numbers, worked out here from raw.csv and summary.csv with the csv
# module (tests/lib/expect.py), never by plots/; hostile text in the run (a
# machine's name, a clocksource) runs nothing and breaks no table; make
# report's --entropy takes chart 8 and the tables only from a run that
# draws chart 8.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "entropy plots"
root=$PWD
synthetic_run entropy

# --- chart 8 alone, drawn without a warning ---------------------------------------
render_copy
files=$(cd "$tmp/r1/plots" 2>/dev/null && find . -maxdepth 1 -type f -name '*.*' | sort | tr '\n' ' ')
[ $rc -eq 0 ] && [ "$listed" = "8-trial-margin " ] &&
	[ "$files" = "./8-trial-margin.png ./8-trial-margin.svg ./8-trial-margin.txt " ] &&
	[ -s "$tmp/r1/plots/8-trial-margin.png" ]
verdict $? "an entropy run (x86_64 and probe-only machines) draws chart 8 alone, as PNG, SVG and text, without gnuplot warnings" \
	"rc $rc, charts listed '$listed', files '$files': $(brief "$out")"
wide=$(awk 'length > 80' "$tmp/r1/plots/8-trial-margin.txt" 2>/dev/null | wc -l)
grep -q "HZ=100: at most 6 per bit" "$tmp/r1/plots/8-trial-margin.txt" 2>/dev/null && [ "$wide" -eq 0 ]
verdict $? "chart 8 as text within 80 columns, its caps named" \
	"$wide lines over 80 columns, or no cap: $(head -c 200 "$tmp/r1/plots/8-trial-margin.txt" 2>/dev/null)"

# Each point is one icount boot that logged a trial, at its samples per bit
# and its CPU's speed: 1000 MHz >> shift, auto read here from run.matrix's
# icount setting (shift=1 in this run: 500 MHz, not icount's default 1000).
python3 - "$tmp/r1" <<'PY'
import re, sys
from tests.lib.expect import table
run = sys.argv[1]
auto = int(re.search(r"^icount = .*shift=([0-9]+)", open(run + "/run.matrix").read(), re.M).group(1))
assert auto == 1, auto
want = sorted((1000 / 2 ** (auto if r["shift"] == "auto" else int(r["shift"])), int(r["jitter_per_bit"]), int(r["hz"]),
               int(int(r["jitter_per_bit"]) <= int(r["jitter_max_per_bit"])), r["arch"])
              for r in table(run, "raw.csv") if r["status"] in ("ok", "censored") and r["accel"] == "icount"
              and r["jitter_per_bit"])
names = dict(re.findall(r"^machine_([0-9]+) = '(.*)'$", open(run + "/plots/data/vars.gp").read(), re.M))
got = sorted((float(l.split()[1]), int(l.split()[2]), int(l.split()[4]), int(l.split()[5]), names[l.split()[3]])
             for l in open(run + "/plots/data/margin.dat") if not l.startswith("#"))
assert len(want) > 8 and got == want, (got, want)
assert {(25, 0), (3, 1), (1, 1)} <= {(p, s) for _, p, _, s, _ in got} and {500, 125} <= {m for m, *_ in got}, got
PY
verdict $? "chart 8 draws every icount boot with a logged trial once, at its samples per bit, 1000>>shift MHz (auto: the run's icount shift) and its outcome" "chart 8's points are not the boots of raw.csv"

# chart 8's lower panel: per cell with digests, k of n from raw.csv's own
# digests (counted here), as the share drawn, its accelerator and rtc
# (the copy drawn above)
python3 - "$tmp/r1" <<'PY'
import sys, collections
from tests.lib.expect import table
run = sys.argv[1]
cells = collections.defaultdict(list)
for r in table(run, "raw.csv"):
    if r["status"] in ("ok", "censored") and r["urandom_digest"]:
        cells[tuple(r[a] for a in ("arch", "variant", "hz", "accel", "cpu", "nocounter", "virtio_rng", "bootseed", "rtc", "shift", "trust_cpu", "timer", "smp", "reads", "trace", "seed", "base"))].append(r)
want = sorted((len({r["urandom_digest"] for r in v}), len(v), 0 if k[3] == "icount" else 1, 1 if k[8] == "fixed" else 0)
              for k, v in cells.items())
got = sorted((int(l.split()[4]), int(l.split()[5]), int(l.split()[2]), int(l.split()[3]))
             for l in open(run + "/plots/data/distinct.dat") if not l.startswith("#"))
assert want and got == want, (got, want)
assert all(abs(float(l.split()[1]) - int(l.split()[4]) / int(l.split()[5])) < 1e-3
           for l in open(run + "/plots/data/distinct.dat") if not l.startswith("#"))
PY
verdict $? "chart 8's lower panel draws each cell's distinct first outputs (k of n from raw.csv's digests), its accelerator and rtc" "chart 8's distinct-outputs panel differs from raw.csv's digests"

# --- the tables, cell by cell -------------------------------------------------------
python3 - "$run" <<'PY'
import subprocess, sys
from tests.lib.expect import grid, median, shown, table
run = sys.argv[1]
text = subprocess.run(["python3", "plots/report_tables.py", run, "-", "--entropy", run],
                      capture_output=True, text=True, check=True).stdout
sec = text.split("### What ready holds")[1].split("###")[0]
head, body = grid(sec)
assert head == ["machine", "condition", "clock", "CPU MHz", "HZ", "rtc", "n", "distinct first outputs", "CRNG ready",
                "first urandom read returned"], head
summary, raw = table(run), [r for r in table(run, "raw.csv") if r["status"] in ("ok", "censored")]
# The condition words, written out here: (nocounter, cpu is max)
COND = {"no counter (knob)": ("on", False), "RDRAND (cpu=max)": ("off", True)}
MHZ = {"500": "auto", "125": "3"}
fmt = lambda r: f"{median(r)} [{shown(r['ci95_lo_ms'])}, {shown(r['ci95_hi_ms'])}]"
seen = set()
for m, cond, accel, mhz, hz, rtc, n, k, ready, ret in body:
    knob, rdrand = COND.get(cond, ("off", False))
    if cond not in COND:
        assert cond == ("own clock (tsc)" if m == "x86_64" else "own clock (arm,sp804)"), cond
    shift = MHZ[mhz] if accel == "icount" else "auto"
    assert accel == "icount" or mhz == f"host-paced ({accel})", mhz
    cell = lambda r: (r["arch"], r["accel"], r["shift"], r["hz"], r["rtc"], r["nocounter"], r["cpu"] == "max") == \
        (m, accel, shift, hz, rtc, knob, rdrand)
    rows = {r["measure"]: r for r in summary if cell(r)}
    boots = [r for r in raw if cell(r)]
    digests = [r["urandom_digest"] for r in boots if r["urandom_digest"]]
    assert k == f"{len(set(digests))} of {len(digests)}", (k, digests)
    assert k == f"{rows['crng_ready']['digests_distinct']} of {rows['crng_ready']['digests_n']}", k
    assert n == str(len(boots)) == rows["crng_ready"]["n"], (n, len(boots))
    assert ready == fmt(rows["crng_ready"]) and ret == fmt(rows["first_urandom_return"]), (ready, ret)
    seen.add((m, accel, shift, hz, rtc, knob, rdrand))
cells = {(r["arch"], r["accel"], r["shift"], r["hz"], r["rtc"], r["nocounter"], r["cpu"] == "max") for r in summary}
assert seen == cells and len(body) == len(cells), (len(body), len(cells))
ks = {row[7] for row in body}
assert {"1 of 2", "1 of 1", "2 of 2"} <= ks, ks
PY
verdict $? "What ready holds: one row per cell, each its own k of n distinct first outputs (raw.csv's digests, = summary.csv's), n, CRNG ready and return median [CI], CPU MHz" "the What ready holds table does not match the run"

python3 - "$run" <<'PY'
import subprocess, sys
from tests.lib.expect import grid, median, shown, table
run = sys.argv[1]
text = subprocess.run(["python3", "plots/report_tables.py", run, "-", "--entropy", run],
                      capture_output=True, text=True, check=True).stdout
head, body = grid(text.split("### The jitter trial's margin")[1])
assert head == ["machine", "condition", "clock", "CPU MHz", "HZ", "rtc", "samples per bit", "cap HZ/15", "margin",
                "first trial", "CRNG ready", "boots"], head
summary, raw = table(run), [r for r in table(run, "raw.csv") if r["status"] in ("ok", "censored")]
MHZ = {"500": "auto", "125": "3"}


def outcome(r):  # the first trial of one boot, written out here
    if r["jitter_skipped"] == "1":
        return "skipped"
    p, c = int(r["jitter_per_bit"]), int(r["jitter_max_per_bit"])
    return "passed" if p <= c else "passed later" if r["jitter_run_ns"] else "gave up"


rows_seen = 0
for m, cond, accel, mhz, hz, rtc, samples, cap, margin, first, ready, n in body:
    knob = "on" if cond.startswith("no counter") else "off"
    shift = MHZ[mhz] if accel == "icount" else "auto"
    cell = lambda r: (r["arch"], r["accel"], r["shift"], r["hz"], r["rtc"], r["nocounter"], r["cpu"]) == \
        (m, accel, shift, hz, rtc, knob, r["cpu"] if (r["cpu"] == "max") == cond.startswith("RDRAND") else None)
    boots = [r for r in raw if cell(r)]
    per = sorted(int(r["jitter_per_bit"]) for r in boots if r["jitter_per_bit"])
    assert n == str(len(boots)) and boots, (n, len(boots))
    assert samples == ("" if not per else str(per[0]) if per[0] == per[-1] else f"{per[0]}-{per[-1]}"), samples
    caps = {r["jitter_max_per_bit"] for r in boots if r["jitter_max_per_bit"]}
    assert cap == (caps.pop() if caps else "not logged") and (not per or int(cap) == int(hz) // 15), (cap, hz)
    if per:
        lo, hi = f"{int(cap) / per[-1]:.3g}", f"{int(cap) / per[0]:.3g}"
        assert margin == (lo if lo == hi else f"{lo}-{hi}"), margin
    got = [outcome(r) for r in boots]
    assert first == got[0] if len(set(got)) == 1 else \
        sorted(first.split(", ")) == sorted(f"{o} in {got.count(o)} of {len(got)}" for o in set(got)), (first, got)
    r = next(r for r in summary if cell(r) and r["measure"] == "crng_ready")
    assert ready == (f"not ready at {float(r['median_ms']) / 1000:.1f} s ({r['censored']} of {r['n']} boots)"
                     if r["median_censored"] == "1" else
                     f"{median(r)} [{shown(r['ci95_lo_ms'])}, {shown(r['ci95_hi_ms'])}]"), ready
    rows_seen += 1
logged = {(r["arch"], r["accel"], r["shift"], r["rtc"], r["nocounter"], r["cpu"]) for r in raw
          if r["jitter_per_bit"] or r["jitter_skipped"] == "1"}
assert rows_seen == len(logged), (rows_seen, len(logged))
firsts = {row[9] for row in body}
assert {"passed", "gave up", "skipped"} <= firsts and any("passed later in 1 of 2" in f for f in firsts), firsts
assert "No jitter trial logged" in text and "RDRAND (cpu=max)" in text.split("No jitter trial logged")[1]
PY
verdict $? "the jitter trial's margin: per cell with a logged trial, samples per bit (range over boots), cap HZ/15, margin cap/samples and the outcome from raw.csv; CRNG ready from summary.csv" "the margin table does not match raw.csv"

# --- hostile text in the run ----------------------------------------------------------
# A machine's name (the chart's key, the tables' first column) and a
# clocksource (the condition's words) with gnuplot's backquotes, a quote,
# an @macro, a '|', HTML and a Markdown link.
h=$tmp/hostile/run
mkdir -p "$tmp/hostile" "$tmp/pw"
cp -r "$run" "$h"
# shellcheck disable=SC2016 # the backquotes are the attack, kept literal
evil='x86`touch${IFS}'"$tmp"'/pw/PWNED`'"'"'@caption|<b>m</b>[l](javascript:x)%g'
# shellcheck disable=SC2016 # Python for each row r, backquotes kept literal
hostile_arch "$h" "$evil" 'if r.get("clocksource") == "arm,sp804": r["clocksource"] = "sp|<i>cs</i>`touch x`"'
out=$(plots/render.sh "$h" 2>&1)
rc=$?
# shellcheck disable=SC2016 # the backquotes are the attack, kept literal
[ ! -e "$tmp/pw/PWNED" ] && [ $rc -eq 0 ] && [ "$(cat "$h/plots/data/charts" 2>/dev/null)" = 8-trial-margin ] &&
	grep -qF 'x86`touch${IFS}' "$h/plots/8-trial-margin.svg" && grep -qF '%g' "$h/plots/8-trial-margin.svg"
verdict $? "a machine named with backquotes, a quote, @macro and % runs nothing in chart 8 and is drawn verbatim" \
	"rc $rc, PWNED $([ -e "$tmp/pw/PWNED" ] && echo created || echo absent): $(brief "$out")"
out=$(plots/report_tables.py "$h" - --entropy "$h" 2>&1)
rc=$?
printf '%s\n' "$out" >"$tmp/hostile.md"
why=$(python3 - "$tmp/hostile.md" 2>&1 <<'PY'
import re, sys
t = open(sys.argv[1]).read().split("### What ready holds")[1]
for line in t.splitlines():
    if line.startswith("|"):
        n = len(re.findall(r"(?<!\\)\|", line))
        assert n in (11, 13), (n, line)
assert "<" not in t, re.findall(r".{20}<.{20}", t)[:2]
assert not re.search(r"(?<!\\)\[[^\]\n]*(?<!\\)\]\(", t), "a Markdown link"
assert "x86\\`touch${IFS}" in t and "&lt;b&gt;m&lt;/b&gt;\\[l\\](javascript:x)" in t and "sp\\|&lt;i&gt;cs" in t
PY
)
[ $? -eq 0 ] && [ $rc -eq 0 ]
verdict $? "hostile text in a machine's name and a clocksource is escaped in the tables (no HTML, no link, every row keeps its columns)" \
	"rc $rc: $(brief "$(tail -n 1 <<<"$why")") $(brief "$out")"

# --- make report's --entropy ------------------------------------------------------------
# In a copy of what report.sh reads and writes (plots/, scripts/, kernel/, the studies' code,
# the runner's formats in bench/matrix/matrix.h, bench/rows/row.h and bench/ground/runlimits.h,
# REPORT.md and the study pages), so the repository's own are never touched.
cl=$tmp/clone
mkdir -p "$cl"
git ls-files -co --exclude-standard -z plots scripts kernel bench/matrix/matrix.h bench/rows/row.h bench/summary/summary.c bench/ground/runlimits.h "studies/*/study" "studies/*/*.py" REPORT.md "studies/*.md" "studies/*/README.md" | tar --null -T - -cf - | tar -xf - -C "$cl"
cp -r tests/fixtures/run "$tmp/main"
cp -r "$run" "$tmp/e1"
export CRNGBENCH_RUNNER=${CRNGBENCH_RUNNER:-$root/build/crngbench-run}
out=$("$cl/plots/report.sh" "$tmp/main" --entropy "$tmp/e1" 2>&1)
rc=$?
python3 - "$cl" "$root" <<'PY'
import glob, os, re, sys
cl, root = sys.argv[1:]
new = open(f"{cl}/studies/entropy/README.md").read()
block = new.split("<!-- tables:entropy:begin -->")[1].split("<!-- tables:entropy:end -->")[0]
assert "### What ready holds" in block and "### The jitter trial's margin" in block, block[:200]
# the other runs' blocks and the prose outside every block, in every page, are kept
cut = lambda t: re.sub(r"<!-- tables:(main|entropy):begin -->.*?<!-- tables:\1:end -->", "", t, flags=re.S)
pages = ["REPORT.md", "studies/README.md"] + [os.path.relpath(p, root) for p in glob.glob(f"{root}/studies/*/README.md")]
for p in pages:
    assert cut(open(f"{cl}/{p}").read()) == cut(open(f"{root}/{p}").read()), p
PY
[ $? -eq 0 ] && [ $rc -eq 0 ] && cmp -s "$tmp/e1/plots/8-trial-margin.png" "$cl/plots/figures/8-trial-margin.png"
verdict $? "report.sh --entropy: its tables between the entropy markers of studies/entropy/README.md (the other blocks and pages kept), chart 8 into plots/figures" \
	"rc $rc: $(brief "$out")"

# Chart 8 only from a run that draws it: an arches run's planted chart 8 is
# refused before REPORT.md or plots/figures change.
cp "$cl/REPORT.md" "$tmp/report.before"
figs=$(cd "$cl/plots/figures" && cksum -- *)
cp -r tests/fixtures/arches "$tmp/a1"
mkdir -p "$tmp/a1/plots"
echo EVILPNG >"$tmp/a1/plots/8-trial-margin.png"
out=$("$cl/plots/report.sh" "$tmp/main" --entropy "$tmp/a1" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "is not a run that draws 8-trial-margin" <<<"$out" && cmp -s "$tmp/report.before" "$cl/REPORT.md" &&
	[ "$figs" = "$(cd "$cl/plots/figures" && cksum -- *)" ]
verdict $? "report.sh --entropy takes chart 8 only from a run that draws it (an arches run's is refused first, nothing changed)" \
	"rc $rc: $(brief "$out")"

# A symlinked chart 8 or a FIFO in its place: refused before anything is written.
for kind in link fifo; do
	d=$tmp/e-$kind
	cp -r "$tmp/e1" "$d"
	rm "$d/plots/8-trial-margin.png"
	if [ $kind = link ]; then ln -s "$root/REPORT.md" "$d/plots/8-trial-margin.png"; else mkfifo "$d/plots/8-trial-margin.png"; fi
	out=$(timeout 60 "$cl/plots/report.sh" "$tmp/main" --entropy "$d" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "8-trial-margin.png" <<<"$out" && cmp -s "$tmp/report.before" "$cl/REPORT.md" &&
		[ "$figs" = "$(cd "$cl/plots/figures" && cksum -- *)" ]
	verdict $? "report.sh --entropy: a chart 8 that is a $kind is refused at once, REPORT.md and plots/figures unchanged" \
		"rc $rc: $(brief "$out")"
done
