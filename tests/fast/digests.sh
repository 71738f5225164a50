#!/usr/bin/env bash
# test: digests of what the reads returned, in results directories
# What each early read returned (guest-image/record.h: digest=) in a
# results directory: summary.csv's digests_distinct and digests_n per cell
# against a count of raw.csv's urandom_digest made here (the csv module,
# not the runner's code); a run older than the columns (the fixtures) reads
# as having no digest; a hostile digest, read status or count is refused by
# the runner's row rules and by the chart tools' (plots/runlib.py), each
# naming file, line and column. Against the fixture run: no boots.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "digests"
runner=${CRNGBENCH_RUNNER:-build/crngbench-run}
export CRNGBENCH_RUNNER=$runner
fx=tests/fixtures/run
# clean_error and edit: tests/lib/lib.sh
summarize() { "$runner" --summarize "$1" --seed "$(cat "$1/seed")" 2>&1; }

# 1. The fixtures have no digest columns: read as no digest, the summary's
# columns empty, every chart drawn.
cp -r "$fx" "$tmp/old"
if out=$(summarize "$tmp/old") &&
	python3 - "$tmp/old" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/summary.csv", newline="")))
assert rows and all(r["digests_distinct"] == "" and r["digests_n"] == "" for r in rows), rows[0]
sys.path.insert(0, "plots")
import runlib
raw = runlib.read_table(sys.argv[1], "raw.csv")
reads = runlib.read_table(sys.argv[1], "reads.csv")
assert raw and all(r.get("urandom_digest") is None for r in raw)
assert reads and all(r.get("digest") is None and r.get("status") is None for r in reads)
PY
then
	ok "a run without digest columns (the fixtures) reads as no digest; summary.csv's digests_* are empty"
else
	bad "a run without digest columns: $(brief "$out")"
fi

# 2. Digests given to the fixture's boots (some cells all alike, some all
# different, some partly empty, failed boots with digests of their own):
# the runner's k distinct of n per cell is the count made here.
d=$tmp/dg
cp -r "$fx" "$d"
edit "$d" raw.csv "
h.append('urandom_digest')
for i, r in enumerate(rows):
    c = int(r['cell'])
    r['urandom_digest'] = ('' if c % 5 == 0 else
                           '%016x' % c if c % 5 == 1 else
                           '%016x' % (i + 1000) if c % 5 == 2 else
                           ('' if i % 2 else '%016x' % (i % 3)) if c % 5 == 3 else
                           '%016x' % (i % 2))
rows[0]['status'] = 'timeout'  # a failed boot: its digest is no data
rows[0]['urandom_digest'] = 'ffffffffffffffff'
"
edit "$d" reads.csv "
h += ['digest', 'status', 'ready_before', 'ready_after']
for i, r in enumerate(rows):
    r['digest'] = '%016x' % i if r['bytes'] not in ('', '0') else ''
for b in {r['boot_id']: r for r in rows}.values():
    rows.append(dict(b, seq='99', iface='getrandom-vdso', bytes='0', errno='38', digest='', status='unavailable'))
    rows.append(dict(b, seq='98', iface='getrandom-vdso', ready_before='0', ready_after='1'))
"
if out=$(summarize "$d") && python3 - "$d" <<'PY'; then
import csv, sys
d = sys.argv[1]
raw = list(csv.DictReader(open(d + "/raw.csv", newline="")))
summary = list(csv.DictReader(open(d + "/summary.csv", newline="")))
axes = [c for c in summary[0] if c in raw[0] and c not in ("status", "reason")]
want = {}
for r in raw:
    if r["status"] in ("ok", "censored") and r["urandom_digest"]:
        want.setdefault(tuple(r[a] for a in axes), []).append(r["urandom_digest"])
seen, kinds = 0, set()
for s in summary:
    got = want.get(tuple(s[a] for a in axes))
    exp = (str(len(set(got))), str(len(got))) if got else ("", "")
    assert (s["digests_distinct"], s["digests_n"]) == exp, (s["measure"], exp, s["digests_distinct"], s["digests_n"])
    seen += bool(got)
    if got:
        kinds.add("one" if len(set(got)) == 1 else "all" if len(set(got)) == len(got) else "some")
assert seen and kinds == {"one", "all", "some"}, (seen, kinds)
PY
	ok "summary.csv's digests_distinct of digests_n per cell is the count of raw.csv's measured boots' urandom_digest made here"
else
	bad "the runner's distinct digests disagree with raw.csv: $(brief "$out")"
fi
if out=$(plots/render.sh "$d" 2>&1) && out2=$(plots/report_tables.py "$d" - 2>&1); then
	ok "a run with digests, an unavailable read and the vDSO read's columns renders and tabulates"
else
	bad "a run with digest columns does not render: $(brief "$out$out2")"
fi
if grep -q "probe: getrandom-vdso (unavailable)" "$d/plots/data/timeline.dat" 2>/dev/null &&
	! grep -q "probe: getrandom-vdso (errno 38)" "$d/plots/data/timeline.dat"; then
	ok "the timeline says an unavailable read was unavailable (reads.csv status), not its errno"
else
	bad "the timeline does not say 'getrandom-vdso (unavailable)': $(grep -h getrandom-vdso "$d/plots/data/timeline.dat" | head -2 | tr '\n' ' ')"
fi

# 3. Hostile values: refused by the runner (raw.csv) and the chart tools,
# naming file, line and column.
n=0
for v in 0123456789abcde 0123456789abcdef0 0123456789ABCDEF 0123456789abcdeg %30123456789abcde "0123456789abcd%0A" "x'\`id\`"; do
	h=$tmp/h$n
	n=$((n + 1))
	cp -r "$d" "$h"
	edit "$h" raw.csv "rows[3]['urandom_digest'] = '''$v'''"
	o1=$(summarize "$h")
	r1=$?
	o2=$(plots/render.sh "$h" 2>&1)
	r2=$?
	if clean_error $r1 "$o1" "raw.csv line 5" urandom_digest "16 lowercase hex" &&
		clean_error $r2 "$o2" "raw.csv line 5" urandom_digest; then
		ok "raw.csv urandom_digest '$v' is refused by --summarize and the chart tools, naming line and column"
	else
		bad "raw.csv urandom_digest '$v': runner rc $r1: $(brief "$o1") | tools rc $r2: $(brief "$o2")"
	fi
done
for c in "digest=ABCDEF0123456789" "digest=0123" "status=failed" "ready_before=yes"; do
	h=$tmp/h$n
	n=$((n + 1))
	cp -r "$d" "$h"
	edit "$h" reads.csv "rows[1]['${c%%=*}'] = '${c#*=}'"
	o2=$(plots/render.sh "$h" 2>&1)
	if clean_error $? "$o2" "reads.csv line 3" "column ${c%%=*}"; then
		ok "reads.csv ${c%%=*} '${c#*=}' is refused by the chart tools, naming line and column"
	else
		bad "reads.csv ${c%%=*} '${c#*=}': $(brief "$o2")"
	fi
done
h=$tmp/h$n
cp -r "$d" "$h"
edit "$h" summary.csv "rows[0]['digests_distinct'] = 'many'"
o2=$(plots/report_tables.py "$h" - 2>&1)
if clean_error $? "$o2" "summary.csv line 2" digests_distinct; then
	ok "summary.csv digests_distinct 'many' is refused, naming line and column"
else
	bad "summary.csv digests_distinct 'many': $(brief "$o2")"
fi
