#!/usr/bin/env bash
# test: charts and tables of a run's own variants, known to kernel/variants or not
# Charts and tables of a run's own variants (issues 46 and 47), on copies
# of the fixture run with its variants renamed: one defined last in
# kernel/variants (stock-once) and one it does not define, of 11
# characters (mine-patch1, as make run VARIANTS=mine RUNFLAGS='--kernels
# DIR' boots), then a run of unknown variants only. Charts 1 and 6 place
# every point inside its condition's group (the data files and vars.gp's
# ticks), name every variant in their key and text version, fit the time
# axis to the data with ticks read as ms, s and min; the mail's tables
# keep their columns (no line wider than its header); a chart with
# nothing to show is not drawn; a variant's name reaches REPORT.md's
# headers and chart 3 as text.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "run variants"
export CRNGBENCH_RUNNER=${CRNGBENCH_RUNNER:-$PWD/build/crngbench-run}
# variants DIR OLD=NEW...: the run DIR with each variant OLD renamed NEW
variants() {
	local d=$1 f
	shift
	for f in raw.csv summary.csv; do
		edit "$d" "$f" "m = dict(a.split('=', 1) for a in '''$*'''.split())
for r in rows: r['variant'] = m.get(r['variant'], r['variant'])"
	done
}
a=$tmp/a
cp -r tests/fixtures/run "$a"
variants "$a" legacy=stock-once block=mine-patch1
out=$(plots/render.sh "$a" 2>&1)
verdict $? "a run of stock-once (last in kernel/variants) and mine-patch1 (not in it) renders without a gnuplot warning" "$(brief "$out")"

# inside DATA FILE GROUP_PREFIX: FILE's conditions each in a group of
# their own (its slots nearer each other than the next condition's), and
# every point nearer its own condition's tick (vars.gp's <prefix>x_<i>,
# labelled <prefix>_<i>) than any other
inside() {
	python3 - "$@" <<'PY'
import shlex, sys
data, name, prefix = sys.argv[1:]
pts = [(float(r[0]), r[5]) for r in (shlex.split(l) for l in open(f"{data}/{name}") if not l.startswith("#"))]
# the cells' slots (a boot spread +-0.25 about its cell's): in a run whose
# every condition booted every variant, a condition's slots are nearer
# each other than the next condition's
slots = {}
for x, g in pts:
    slots.setdefault(g, set()).add(round(x))
groups = sorted(slots.values(), key=min)
assert len(groups) > 1, (name, len(pts))
for g, h in zip(groups, groups[1:]):
    s = sorted(g)
    within = max([b - a for a, b in zip(s, s[1:])] or [0])
    assert min(h) - max(g) > within, f"{name}: slots {s} of a condition, {sorted(h)} of the next"
var = {}
for l in open(f"{data}/vars.gp"):
    k, _, v = l.rstrip("\n").partition(" = ")
    var[k] = v[1:-1].replace("''", "'").replace("%%", "%") if v.startswith("'") else v
tics = {}
i = 0
while f"{prefix}_{i}" in var:
    tics[var[f"{prefix}_{i}"]] = float(var[f"{prefix}x_{i}"])
    i += 1
for x, g in pts:
    near = min(tics, key=lambda t: abs(tics[t] - x))
    assert near == g, f"{name}: a point of '{g}' at x={x} is nearest the tick of '{near}' ({tics})"
PY
}
# the committed quick run too, renamed alike: instruction time, and TCG
# in chart 1's second panel (the fixture is TCG alone)
q=$tmp/q
cp -r studies/quick/run "$q" && rm -rf "$q/plots"
variants "$q" legacy=stock-once block=mine-patch1
out=$(plots/render.sh "$q" 2>&1)
verdict $? "the quick run renamed alike renders without a gnuplot warning" "$(brief "$out")"
for r in a:fixture q:quick; do
	for c in nethack.dat:g1 nethack_tcg.dat:g1t nocounter.dat:g6; do
		d=$tmp/${r%%:*}/plots/data
		if [ "${c%%:*}" = nethack_tcg.dat ] && [ "$r" = a:fixture ]; then continue; fi
		why=$(inside "$d" "${c%%:*}" "${c#*:}" 2>&1)
		verdict $? "${r#*:}: ${c%%:*}: every point sits inside its condition's group, at its tick" "$(brief "$why")"
	done
done
for c in 1-nethack 6-nocounter; do
	miss=
	for v in stock stock-once mine-patch1 block-v0; do
		grep -q ">$v<" "$a/plots/$c.svg" 2>/dev/null || miss="$miss $v (key)"
		grep -q "^  $v  *[ .o>:]" "$a/plots/$c.txt" 2>/dev/null || miss="$miss $v (text)"
	done
	grep -q "variant [0-9]" "$a/plots/$c.txt" && miss="$miss 'variant N' in the text"
	[ -z "$miss" ]
	verdict $? "chart $c names every variant of the run, in its key and its text version" "missing:$miss"
done

# The time axis fits the data: from the decade below the least to within
# a decade above the most, its ticks in ms, s and min.
why=$(python3 - "$a/plots/data" <<'PY' 2>&1
import re, shlex, sys
d = sys.argv[1]
var = dict(l.rstrip("\n").split(" = ", 1) for l in open(f"{d}/vars.gp"))
for n, files in (("1", ("nethack.dat", "nethack_tcg.dat")), ("6", ("nocounter.dat",))):
    vals = [float(r[c]) for f in files for r in (shlex.split(l) for l in open(f"{d}/{f}") if not l.startswith("#"))
            for c in (2, 6) if r[c] != "NaN"] + [750]
    lo, hi = float(var[f"ymin{n}"]), float(var[f"ymax{n}"])
    assert lo <= min(vals) and min(vals) / lo < 100, (n, lo, min(vals))
    assert max(vals) < hi <= max(vals) * 15, (n, hi, max(vals))
    labels = re.findall(r'"([^"]*)" ', var[f"ytics{n}"])
    assert labels and all(re.fullmatch(r"[0-9.]+ (ms|s|min)", t) for t in labels), (n, labels)
PY
)
verdict $? "charts 1 and 6: the time axis fits the data, its ticks read as ms, s and min" "$(brief "$why")"
if grep -q '>1e+0[0-9]<' "$a/plots/1-nethack.svg" "$a/plots/6-nocounter.svg"; then e=1; else e=0; fi
verdict $e "charts 1 and 6 draw no tick as 1e+06" "$(grep -o '>1e+0[0-9]<' "$a/plots/1-nethack.svg" | head -n 2 | tr '\n' ' ')"

# The mail's fixed-width tables: whole names, columns that do not move.
out=$(plots/post.py "$a" --hz "$a" 2>&1)
rc=$?
why=$(python3 - "$a/post.txt" <<'PY' 2>&1 && echo ok
import sys
text = open(sys.argv[1]).read()
tables = [b.splitlines() for b in text.split("\n\n") if b.startswith(("  condition ", "  CONFIG_HZ "))]
assert len(tables) >= 4, len(tables)
seen = set()
for t in tables:
    head, col = t[0], t[0].index(" variant ") + 1
    for l in t[1:]:
        assert len(l) <= len(head), f"a line wider than its header: {l!r} ({len(l)} > {len(head)})"
        if len(l) > col and l[col - 1] == " " and l[col] != " ":  # a row (not a condition's own line)
            seen.add(l[col:].split()[0])
        else:
            assert l.strip() and l.startswith("  ") and len(l) > 2, l
for v in ("stock", "stock-once", "mine-patch1", "block-v0"):
    assert v in seen, (v, sorted(seen))
PY
)
[ "${why##*$'\n'}" = ok ] && [ $rc -eq 0 ]
verdict $? "the mail's tables name every variant whole in the variant column; no line is wider than its header" "rc $rc: $(brief "$why $out")"

# Only variants kernel/variants does not define: chart 1 draws them all.
b=$tmp/b
cp -r tests/fixtures/run "$b"
variants "$b" stock=alpha legacy=beta block=gamma block-v0=delta
out=$(plots/render.sh "$b" 2>&1)
rc=$?
miss=
for v in alpha beta gamma delta; do grep -q ">$v<" "$b/plots/1-nethack.svg" 2>/dev/null || miss="$miss $v"; done
[ $rc -eq 0 ] && [ -z "$miss" ]
verdict $? "a run of variants kernel/variants does not define draws chart 1 with each under its name" "rc $rc, missing:$miss: $(brief "$out")"

# A chart with nothing to show is not drawn: no qemu64 cell, no chart 6.
c=$tmp/c
cp -r tests/fixtures/run "$c"
for f in raw.csv summary.csv; do edit "$c" "$f" "rows[:] = [r for r in rows if r['cpu'] != 'qemu64']"; done
out=$(plots/render.sh "$c" 2>&1)
rc=$?
[ $rc -eq 0 ] && ! grep -qx 6-nocounter "$c/plots/data/charts" && [ ! -e "$c/plots/6-nocounter.png" ] &&
	[ ! -e "$c/plots/6-nocounter.txt" ] && [ -s "$c/plots/1-nethack.png" ]
verdict $? "a run without a qemu64 cell draws no chart 6 (nothing to show), the others as before" \
	"rc $rc, charts: $(tr '\n' ' ' <"$c/plots/data/charts" 2>/dev/null): $(brief "$out")"

# A variant's name is the run's text: escaped in REPORT.md's headers, one
# label of chart 3 (an '@' in it once split the label's two lines there).
h=$tmp/h
cp -r tests/fixtures/run "$h"
variants "$h" 'block=x<b>y|z' 'legacy=v0@x'
out=$(plots/render.sh "$h" 2>&1) && md=$(plots/report_tables.py "$h" - --hz "$h" 2>&1)
rc=$?
! grep -q '<b>' <<<"$md" && grep -q '| x&lt;b&gt;y\\|z |' <<<"$md" && grep -q '^v0@x cpu=' "$h/plots/3-tcg-vs-kvm.txt"
verdict $? "a variant named x<b>y|z or v0@x: escaped in REPORT.md's table headers, whole in chart 3's labels" \
	"rc $rc: $(brief "$(grep -m 2 'x.b.y' <<<"$md") $(grep -m 1 'v0' "$h/plots/3-tcg-vs-kvm.txt") $out")"

# Chart 3 reads its data file as gnuplot does: a condition with spaces is
# one column, so a median still waiting at its bound is labelled so.
s=$tmp/s
cp -r studies/sources/run "$s" && rm -rf "$s/plots" && mkdir -p "$s/plots/data"
out=$(python3 plots/prepare.py "$s" "$s/plots/data" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^accel_series = .*still waiting" "$s/plots/data/series.gp"
verdict $? "chart 3 labels a censored median 'still waiting' where the condition holds spaces (the sources run)" \
	"rc $rc: $(brief "$out")"

# REPORT.md's block markers: a run's text shown as it is (a code span)
# that holds one is refused; REPORT.md is left as it was.
m=$tmp/m
cp -r tests/fixtures/run "$m"
python3 - "$m/meta.json" <<'PY'
import json, sys
p = sys.argv[1]
meta = json.load(open(p))
meta["host_cpu"] = "x <!-- tables:main:end --> y"
json.dump(meta, open(p, "w"))
PY
cp REPORT.md "$tmp/REPORT.md"
out=$(plots/report_tables.py "$m" "$tmp/REPORT.md" 2>&1)
clean_error $? "$out" "tables:main" "<!-- tables:" && cmp -s REPORT.md "$tmp/REPORT.md"
verdict $? "a run's text holding REPORT.md's block marker is refused, REPORT.md unchanged" "$(brief "$out")"
