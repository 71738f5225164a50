#!/usr/bin/env bash
# test: chart 9 and the bases table
# Chart 9 and REPORT.md's "6.1 against 6.12" table on a small two-base run
# (tests/lib/bases_run.sh: the runner against tests/lib/fake-qemu): the run is
# told from the others by its two bases and gets chart 9 alone; each
# table row's numbers and its ratio are worked out here from summary.csv
# with the csv module, never by plots/; a hostile machine name runs
# nothing and breaks no table; report.sh --bases fills its block.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "bases plots"
root=$PWD
synthetic_run bases

render_copy
wide=$(awk 'length > 80' "$tmp/r1/plots/9-bases.txt" 2>/dev/null | wc -l)
[ $rc -eq 0 ] && [ "$listed" = "9-bases " ] && [ -s "$tmp/r1/plots/9-bases.png" ] && [ -s "$tmp/r1/plots/9-bases.svg" ] &&
	[ "$wide" -eq 0 ] && grep -q "Linux 6.12" "$tmp/r1/plots/9-bases.txt"
verdict $? "a run of two bases (x86_64 and a probe-only machine) draws chart 9 alone, PNG, SVG and text, without gnuplot warnings" \
	"rc $rc, charts '$listed', $wide wide lines: $(brief "$out")"

out=$(python3 plots/report_tables.py - - --bases "$run" 2>&1)
rc=$?
printf '%s\n' "$out" >"$tmp/t.md"
why=$(python3 - "$run" "$tmp/t.md" 2>&1 <<'PY'
import sys
from tests.lib.expect import table
run, md = sys.argv[1:]
summ = table(run, "summary.csv")
rows = [[c.strip() for c in l.strip().strip("|").split(" | ")] for l in open(md) if l.startswith("| ") and "---" not in l]
head, body = rows[0], rows[1:]
assert head[-1] == "duration 6.12 / 6.1", head
assert len(body) == 4, body
seen = set()
for b in body:
    arch, cpu = b[0], {"RDRAND (cpu=max)": "max"}.get(b[2], "default" if b[0] != "x86_64" else "qemu64")
    knob = "on" if b[2].startswith("no counter") else "off"
    pick = lambda base, measure: next(r for r in summ if r["arch"] == arch and r["cpu"] == cpu  # noqa: E731
                                      and r["nocounter"] == knob and r["base"] == base and r["measure"] == measure)
    m = {base: pick(base, "first_urandom_return") for base in ("6.1", "6.12")}
    d = {base: pick(base, "first_urandom_latency") for base in ("6.1", "6.12")}
    if "1" in (d["6.1"]["median_censored"], d["6.12"]["median_censored"]):
        want = "censored"
    elif min(float(d["6.1"]["median_ms"]), float(d["6.12"]["median_ms"])) < 0.1:
        want = "under 0.1 ms"
    else:
        want = f"{float(d['6.12']['median_ms']) / float(d['6.1']['median_ms']):.3f}"
    assert b[-1] == want, (b, want)
    assert b[5].startswith((">" if m["6.1"]["median_censored"] == "1" else "") + f"{float(m['6.1']['median_ms']):.0f}"), b
    assert b[8].startswith(">" if d["6.12"]["median_censored"] == "1" else tuple("0123456789")), b
    seen.add(want)
assert "censored" in seen and any(w not in ("censored", "under 0.1 ms") for w in seen), seen
PY
)
prc=$?
[ $prc -eq 0 ] && [ $rc -eq 0 ]
verdict $? "the table's duration 6.12 / 6.1 is the ratio of summary.csv's medians of the first read's own duration, 'censored' where either median is" \
	"rc $rc: $(brief "$(tail -n 2 <<<"$why")") $(brief "$out")"

# The vDSO read's table: reads.csv rows added to a copy (6.1: unavailable;
# 6.12: 32 bytes after ready, or cut by the read budget), its counts
# worked out here.
v=$tmp/vdso
cp -r "$run" "$v"
python3 - "$v" <<'PY'
import csv, sys
d = sys.argv[1]
with open(f"{d}/raw.csv", newline="") as f:
    raw = [r for r in csv.DictReader(f) if r["arch"] == "x86_64"]
with open(f"{d}/reads.csv", newline="") as f:
    rd = csv.DictReader(f)
    head, rows = rd.fieldnames, list(rd)
knob_seen = {}  # base -> its knob boots so far (raw.csv's order varies with the jobs)
for k, r in enumerate(raw):
    new = dict.fromkeys(head, "")
    new.update(boot_id=r["boot_id"], seq="9", iface="getrandom-vdso", start_ns="5000000", errno="0", timed_out="0")
    if r["base"] == "6.1":
        new.update(dur_ns="0", bytes="0", errno="38", status="unavailable")
        knob = 0
    else:
        # every other knob boot of a base, its first included, is cut
        knob = knob_seen[r["base"]] = knob_seen.get(r["base"], 0) + (r["nocounter"] == "on")
    if r["base"] != "6.1" and r["nocounter"] == "on" and knob % 2:
        new.update(dur_ns="1005000", bytes="0", errno="4", timed_out="1", ready_before="0", ready_after="0")
    elif r["base"] != "6.1":
        new.update(dur_ns=str(8000 + k), bytes="32", ready_before="1", ready_after="1")
    rows.append(new)
with open(f"{d}/reads.csv", "w", newline="") as f:
    w = csv.DictWriter(f, head, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
PY
out=$(python3 plots/report_tables.py - - --bases "$v" 2>&1)
rc=$?
printf '%s\n' "$out" >"$tmp/v.md"
why=$(python3 - "$v" "$tmp/v.md" 2>&1 <<'PY'
import sys
from tests.lib.expect import table
run, md = sys.argv[1:]
raw = {r["boot_id"]: r for r in table(run, "raw.csv")}
reads = [r for r in table(run, "reads.csv") if r["iface"] == "getrandom-vdso"]
text = open(md).read()
assert "### The vDSO getrandom() read" in text, "no vDSO table"
part = text.split("### The vDSO getrandom() read", 1)[1]
rows = [[c.strip() for c in l.strip().strip("|").split(" | ")] for l in part.splitlines() if l.startswith("| ") and "---" not in l]
head, body = rows[0], rows[1:]
assert head[-2:] == ["6.1", "6.12"], head
for b in body:
    knob = "on" if b[1].startswith("no counter") else "off"
    cpu = "max" if b[1].startswith("RDRAND") else "qemu64"
    for base, cell in (("6.1", b[-2]), ("6.12", b[-1])):
        rs = [r for r in reads if raw[r["boot_id"]]["base"] == base and raw[r["boot_id"]]["nocounter"] == knob
              and raw[r["boot_id"]]["cpu"] == cpu]
        n = len(rs)
        if base == "6.1":
            assert cell == f"unavailable; n={n}", (b, cell)
            continue
        full = sum(r["bytes"] == "32" for r in rs)
        late = sum(r["timed_out"] == "1" for r in rs)
        ready = sum(r["ready_before"] == "1" for r in rs)
        assert cell.startswith(f"{full}/{ready}/{late}/0 of {n}; "), (b, cell, full, ready, late, n)
assert any(b[-1].split("/")[2] != "0" for b in body), ("no 6.12 read cut by the budget", body)
PY
)
prc=$?
[ $prc -eq 0 ] && [ $rc -eq 0 ]
verdict $? "the vDSO read's table counts reads.csv's getrandom-vdso rows per base and cell (returned, ready before, cut by the budget, unavailable)" \
	"rc $rc: $(brief "$(tail -n 2 <<<"$why")") $(brief "$out")"

# A hostile machine name: drawn and tabled as text, running nothing.
h=$tmp/hostile
cp -r "$run" "$h"
mkdir -p "$tmp/pw"
# shellcheck disable=SC2016 # the backquotes are the attack, kept literal
evil='x86`touch${IFS}'"$tmp"'/pw/PWNED`'"'"'@caption|<b>m</b>[l](javascript:x)%g'
hostile_arch "$h" "$evil"
out=$(plots/render.sh "$h" 2>&1)
rc=$?
tab=$(python3 plots/report_tables.py - - --bases "$h" 2>&1)
rc2=$?
cols=$(grep '^| ' <<<"$tab" | python3 -c 'import re,sys; print(sorted({len(re.findall(r"(?<!\\)\|", l)) for l in sys.stdin}))')
# shellcheck disable=SC2016
[ ! -e "$tmp/pw/PWNED" ] && [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && grep -qF 'x86`touch${IFS}' "$h/plots/9-bases.svg" &&
	[ "$cols" = "[13]" ] && ! grep -q "<b>" <<<"$tab"
verdict $? "a machine named with backquotes, a quote, @macro, '|', HTML and % runs nothing in chart 9 and keeps the table's columns" \
	"rc $rc/$rc2, cols $cols, PWNED $([ -e "$tmp/pw/PWNED" ] && echo created || echo absent): $(brief "$out")"

# report.sh --bases, in a copy of what it reads and writes.
cl=$tmp/clone
mkdir -p "$cl"
git ls-files -co --exclude-standard -z plots scripts kernel bench/matrix/matrix.h bench/rows/row.h bench/summary/summary.c bench/ground/runlimits.h "studies/*/study" "studies/*/*.py" REPORT.md "studies/*.md" "studies/*/README.md" | tar --null -T - -cf - | tar -xf - -C "$cl"
cp -r tests/fixtures/run "$tmp/main"
cp -r "$run" "$tmp/b1"
export CRNGBENCH_RUNNER=${CRNGBENCH_RUNNER:-$root/build/crngbench-run}
out=$("$cl/plots/report.sh" "$tmp/main" --bases "$tmp/b1" 2>&1)
rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/b1/plots/9-bases.png" "$cl/plots/figures/9-bases.png" &&
	sed -n '/<!-- tables:bases:begin -->/,/<!-- tables:bases:end -->/p' "$cl/studies/bases/README.md" | grep -q "### 6.1 against 6.12"
verdict $? "report.sh --bases: its table between the bases markers of studies/bases/README.md, chart 9 into plots/figures" "rc $rc: $(brief "$out")"
out=$("$cl/plots/report.sh" "$tmp/main" --bases "$root/tests/fixtures/arches" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "is not a run that draws 9-bases" <<<"$out"
verdict $? "report.sh --bases refuses a run of one base" "rc $rc: $(brief "$out")"
