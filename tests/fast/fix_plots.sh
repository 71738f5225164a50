#!/usr/bin/env bash
# test: chart 10: the fix's mechanism, from the committed fix run
# Chart 10 (the fix's mechanism) on a copy of the committed fix run
# (studies/fix/run): the run draws chart 9 (two bases) and chart 10, PNG,
# SVG and text, without gnuplot warnings; every mark of the chart's data
# is a raw.csv column of a boot, worked out here with the csv module (the
# first mix, 64/128/192 bits reached, ready at 256 bits or the bound),
# and a column a boot left empty is no mark; a boot's steps never fall; a
# run of one variant without its -fix form does not draw chart 10; a
# hostile machine name runs nothing and stays data.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "fix plots"
run=studies/fix/run
[ -f "$run/raw.csv" ] || { echo "SKIP: fix plots: $run is not committed"; exit 0; }
export CRNGBENCH_RUNNER=${CRNGBENCH_RUNNER:-$PWD/build/crngbench-run}
cp -r "$run" "$tmp/r1" && rm -rf "$tmp/r1/plots"
out=$(plots/render.sh "$tmp/r1" 2>&1)
rc=$?
listed=$(tr '\n' ' ' <"$tmp/r1/plots/data/charts" 2>/dev/null)
wide=$(awk 'length > 80' "$tmp/r1/plots/10-fix-mixes.txt" 2>/dev/null | wc -l)
[ $rc -eq 0 ] && [ "$listed" = "9-bases 10-fix-mixes " ] && [ -s "$tmp/r1/plots/10-fix-mixes.png" ] &&
	[ -s "$tmp/r1/plots/10-fix-mixes.svg" ] && [ "$wide" -eq 0 ]
verdict $? "the fix run draws charts 9 and 10, PNG, SVG and 80-column text, without gnuplot warnings" \
	"rc $rc, charts '$listed', $wide wide lines: $(brief "$out")"

why=$(python3 - "$run/raw.csv" "$tmp/r1/plots/data" <<'PY' 2>&1
import csv, glob, os, sys
raw, data = sys.argv[1:]
boots = [r for r in csv.DictReader(open(raw)) if r["status"] in ("ok", "censored")]
want = []
for b in boots:
    cens = b["crng_ready_censored"] == "1"
    marks = []
    if b["mix_first_ns"]:
        marks.append((int(b["mix_first_ns"]), 1, "0"))
    for i, c in enumerate(("mix_64_ns", "mix_128_ns", "mix_192_ns")):
        if b[c]:
            marks.append((int(b[c]), 64 * (i + 1), str(i + 1)))
    end = b["crng_ready_bound_ns" if cens else "crng_ready_ns"]
    if end:
        marks.append((int(end), int(b["mix_bits"] or 0) if cens else 256, "5" if cens else "4"))
    want.append(sorted((f"{max(t / 1e9, 0.001):.6f}", str(bits), code) for t, bits, code in marks))
got = []
for p in sorted(glob.glob(os.path.join(data, "fixmarks_*.dat"))):
    rows = [l.split() for l in open(p) if not l.startswith("#")]
    got += [(r[0], r[1], r[3]) for r in rows]
flat = sorted(m for w in want for m in w)
assert sorted(got) == flat, (len(got), len(flat), sorted(set(got) ^ set(flat))[:5])
# a boot with no mix logged has no first-mix mark (none invented)
assert any(not b["mix_first_ns"] for b in boots)
# every boot's steps rise or stay
for p in glob.glob(os.path.join(data, "fix_*.dat")):
    for block in open(p).read().split("\n\n\n"):
        ys = [int(l.split()[1]) for l in block.splitlines() if l and not l.startswith("#")]
        assert ys == sorted(ys), (p, ys)
print(len(got))
PY
)
[ $? -eq 0 ]
verdict $? "chart 10's marks are raw.csv's columns, boot by boot ($(tail -n 1 <<<"$why") marks); an empty column is no mark; steps never fall" \
	"$(brief "$(tail -n 3 <<<"$why")")"

# a run of the unfixed variants alone: no chart 10
python3 - "$tmp/r1/raw.csv" "$tmp/r2" <<'PY'
import csv, os, shutil, sys
src, dst = sys.argv[1:]
shutil.copytree(os.path.dirname(src), dst, ignore=shutil.ignore_patterns("plots"))
rows = list(csv.DictReader(open(src)))
with open(os.path.join(dst, "raw.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=rows[0].keys(), lineterminator="\n")
    w.writeheader()
    w.writerows(r for r in rows if not r["variant"].endswith("-fix"))
PY
(cd plots && python3 -c 'import sys; from runlib import charts_for, read_table; print(" ".join(charts_for(read_table(sys.argv[1], "raw.csv"))))' "$tmp/r2") >"$tmp/c2" 2>&1
[ "$(cat "$tmp/c2")" = 9-bases ]
verdict $? "a run without a -fix variant does not draw chart 10" "charts: $(brief "$(cat "$tmp/c2")")"

# a hostile machine name: data in chart 10's titles, never code
cp -r "$run" "$tmp/r3" && rm -rf "$tmp/r3/plots"
hostile_arch "$tmp/r3" "x86'; system('touch $tmp/PWNED'); '"
out=$(plots/render.sh "$tmp/r3" 2>&1)
rc=$?
[ ! -e "$tmp/PWNED" ] && { [ $rc -eq 0 ] || clean_error $rc "$out" "error"; }
verdict $? "a machine named with gnuplot code runs nothing in chart 10" "rc $rc: $(brief "$out")"
