#!/usr/bin/env bash
# test: make reproduce's shards through GNU parallel on this machine
# make reproduce HOSTS=... as docs/sharding.md documents it, on this machine alone
# (HOSTS=:, GNU parallel's "no ssh" sshlogin) with two shards, in a
# stand-in checkout whose run "one" is two fake-qemu cells
# (tests/lib/reproduce_standin.sh): GNU parallel runs scripts/shard-run.sh for
# shards 1/2 and 2/2, the runner merges them, and the merged run holds
# exactly the boots of the unsharded plan (--print-axis plan: each cell's
# reps 0 .. reps-1, worked out here), each once; the shards are disjoint;
# the run is kept in studies/one/run. The comparison is seen to fail on
# the merged run less one shard's boots, and keep-run refuses that run.
# A shard holding a symbolic link is refused and removed; complete shards
# of other code (an uncommitted edit since) are refused before anything
# runs.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "reproduce shards"
brief() { tail -n 5 <<<"$1" | tr '\n' ' ' | head -c 600; }
command -v parallel >/dev/null || { bad "GNU parallel is not installed (scripts/deps.sh installs 'parallel')"; exit 0; }
# shellcheck source=tests/lib/reproduce_standin.sh
. tests/lib/reproduce_standin.sh
s=$tmp/s
standin "$s" || { bad "cannot make the stand-in checkout"; exit 0; }

# The unsharded plan, as cell,rep lines (the test's own expansion of it).
expected=$(cd "$s" && build/crngbench-run --matrix bench/mini.matrix --print-axis plan |
	awk -F, 'NR > 1 { for (r = 0; r < $2; r++) print $1 "," r }' | sort)
# cells DIR: its raw.csv's cell,rep lines, sorted (duplicates kept)
cells() { paste -d, <(tests/lib/csvget.py "$1/raw.csv" cell) <(tests/lib/csvget.py "$1/raw.csv" rep) | sort; }
same_as_plan() { [ -n "$expected" ] && [ "$(cells "$1" 2>/dev/null)" = "$expected" ]; }
# shards: the documented command (docs/sharding.md), with this machine as
# the only host; its output in out, its exit status in rc
shards() { out=$(cd "$s" && make reproduce RUNS=one HOSTS=: SHARDS=2 QEMU=tests/lib/fake-qemu 2>&1); rc=$?; }
# refused NAME PATTERN: that make reproduce failed, saying PATTERN, and
# neither merged the run nor kept it
refused() {
	if [ $rc -ne 0 ] && grep -q "$2" <<<"$out" && [ ! -e "$run/raw.csv" ] && [ ! -e "$s/studies/one/run" ]; then
		ok "$1"
	else
		bad "$1: exit $rc: $(brief "$out")"
	fi
}

# Links at the names make reproduce writes in results/reproduce (a results
# directory may come from elsewhere): replaced, never written through.
run=$s/results/reproduce/one sd=$s/results/reproduce/shards/one
mkdir -p "$sd"
for f in "$sd/seed" "$sd/count" "$sd/.joblog" "$s/results/reproduce/one.commit"; do
	ln -s "$tmp/victim-$(basename "$f")" "$f"
done
shards
victims=$(ls "$tmp"/victim-* 2>/dev/null)
[ -z "$victims" ] && [ -f "$sd/seed" ] && [ ! -L "$sd/seed" ] && [ ! -L "$sd/count" ] && [ ! -L "$sd/.joblog" ] &&
	ok "links at the shards' seed, count, joblog and the run's commit file are replaced, not written through" ||
	bad "a link was written through: ${victims:-none} $(ls -l "$sd" 2>&1 | tr '\n' ' ')"
if [ $rc -eq 0 ] && grep -q '^\[one 1/2\]' <<<"$out" && grep -q '^\[one 2/2\]' <<<"$out" &&
	[ -f "$sd/shard-1/raw.csv" ] && [ -f "$sd/shard-2/raw.csv" ]; then
	ok "make reproduce HOSTS=: SHARDS=2 runs shards 1/2 and 2/2 through GNU parallel"
else
	bad "make reproduce HOSTS=: SHARDS=2: exit $rc: $(brief "$out")"
fi
a=$(cells "$sd/shard-1" 2>/dev/null) b=$(cells "$sd/shard-2" 2>/dev/null)
[ -n "$a" ] && [ -n "$b" ] && [ -z "$(comm -12 <(echo "$a") <(echo "$b"))" ] &&
	ok "the two shards boot disjoint parts of the plan" || bad "shards overlap or are empty: {$a} {$b}"
if same_as_plan "$run"; then
	ok "the merged run holds every boot of the unsharded plan once ($(wc -l <<<"$expected") boots)"
else
	bad "merged run's cell,rep set differs from the plan: $(diff <(echo "$expected") <(cells "$run" 2>&1) | head -5 | tr '\n' ' ')"
fi
[ "$(cat "$sd/seed" 2>/dev/null)" = "$(cat "$run/seed" 2>/dev/null)" ] && [ -s "$run/summary.csv" ] &&
	ok "the shards ran with one seed, recorded in the merged run, and it has its summary" ||
	bad "seed '$(cat "$sd/seed" 2>/dev/null)' against the merged run's '$(cat "$run/seed" 2>/dev/null)'"
if cmp -s "$run/raw.csv" "$s/studies/one/run/raw.csv" && [ ! -e "$s/studies/one/run/boots" ] &&
	[ "$(cat "$s/studies/one/run/commit" 2>/dev/null)" = "$(git -C "$s" rev-parse HEAD)" ]; then
	ok "the merged run is kept in studies/one/run (no boots/), with the commit it was made from"
else
	bad "studies/one/run: $(ls "$s/studies/one/run" 2>&1 | tr '\n' ' ')"
fi

# Run again: nothing is booted again.
before=$(stat -c %Y "$run/raw.csv" 2>/dev/null)
shards
[ $rc -eq 0 ] && grep -q "is complete: skipped" <<<"$out" && [ "$(stat -c %Y "$run/raw.csv")" = "$before" ] &&
	ok "run again, the complete sharded run is skipped" || bad "second run: $(brief "$out")"

# The comparison is seen to fail on the merged run without shard 2's rows,
# and keep-run refuses that run; the runner refuses to merge shard 1 alone.
mkdir -p "$tmp/dropped"
cp "$run"/* "$tmp/dropped/" 2>/dev/null
ids2=$(tests/lib/csvget.py "$sd/shard-2/raw.csv" boot_id 2>/dev/null)
awk -F, 'NR == FNR { drop[$1] = 1; next } FNR == 1 || !($1 in drop)' <(echo "$ids2") "$run/raw.csv" >"$tmp/dropped/raw.csv"
if [ -n "$ids2" ] && ! same_as_plan "$tmp/dropped"; then
	ok "the comparison fails on the merged run without shard 2's boots"
else
	bad "the merged run without shard 2's boots passes as the whole plan"
fi
if (cd "$s" && scripts/keep-run.sh one "$tmp/dropped") >/dev/null 2>"$tmp/err"; then
	bad "keep-run took a run missing a shard's boots"
else
	grep -q "is not a complete run (partial" "$tmp/err" && ok "keep-run refuses a run missing a shard's boots" ||
		bad "keep-run's refusal: $(cat "$tmp/err")"
fi
if (cd "$s" && build/crngbench-run --quiet --merge "$tmp/half" "$sd/shard-1") >/dev/null 2>&1; then
	bad "the runner merged shard 1 of 2 alone"
else
	ok "the runner refuses to merge shard 1 of 2 alone"
fi

# A sharded run whose shards were all made before this invocation is not
# "made from its start" here: its merge is no cold time, and
# studies/reproduce-time.csv is left as it was (it was rewritten as a
# from-start time after both shards were skipped and nothing booted).
rt=$s/studies/reproduce-time.csv
echo "commit,runs,stage,seconds" >"$rt"
echo "0000000000000000000000000000000000000000,one,boots,999.0" >>"$rt"
cp "$rt" "$tmp/rt.before"
rm -rf "$run"
shards
if [ $rc -eq 0 ] && grep -q "shard 1/2 is complete: skipped" <<<"$out" && cmp -s "$rt" "$tmp/rt.before"; then
	ok "a run merged from shards made earlier leaves reproduce-time.csv as it was (no cold time)"
else
	bad "shards skipped, merged again: reproduce-time.csv is now '$(tail -n +2 "$rt" | tr '\n' ' ')' ($(brief "$out"))"
fi

# A shard here holding a symbolic link (to /etc) is refused before the
# merge, naming it, and removed; make reproduce again runs it again.
rm -rf "$run" "$s/studies/one/run"
ln -s /etc "$sd/shard-2/boots/etc"
shards
refused "a shard holding a symbolic link is refused before the merge, naming it" \
	"shard 2/2 refused: $sd/shard-2/boots/etc is a symbolic link"
[ ! -e "$sd/shard-2" ] && ok "the shard holding a link is removed" || bad "the shard holding a link is kept"
shards
[ $rc -eq 0 ] && same_as_plan "$run" && [ -z "$(find "$sd" ! -type f ! -type d)" ] &&
	ok "run again, the removed shard runs again and the run merges" || bad "after the link: $(brief "$out")"

# Complete shards of other code (this checkout has an uncommitted edit to
# a script since) are refused before anything runs, naming one.
rm -rf "$run" "$s/studies/one/run"
echo "# an edit" >>"$s/scripts/keep-run.sh"
shards
refused "complete shards of other code are refused before anything runs, naming one" \
	"shards/one/shard-1 was made from other code ('$(git -C "$s" rev-parse HEAD)')"
git -C "$s" checkout -q -- scripts/keep-run.sh

# Shards of another matrix (each edited to reps=1: two boots, not six) are
# refused before any boot (the merge would refuse them too), naming the
# shard and the line, never merged and kept as the run.
for k in 1 2; do
	sed -i -e 's/^reps = .*/reps = 1/' -e '/^min_reps = /d' "$sd/shard-$k/run.matrix"
	python3 - "$sd/shard-$k" <<'PY'
import csv, os, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "raw.csv"), newline="")))
keep = [r for r in rows if r["rep"] == "0"]
ids = {r["boot_id"] for r in keep}
w = csv.DictWriter(open(os.path.join(d, "raw.csv"), "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader()
w.writerows(keep)
p = os.path.join(d, "reads.csv")
if os.path.exists(p):
    rr = list(csv.DictReader(open(p, newline="")))
    if rr:
        w = csv.DictWriter(open(p, "w", newline=""), fieldnames=list(rr[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(r for r in rr if r["boot_id"] in ids)
PY
done
rm -rf "$run" "$s/studies/one/run"
out=$(cd "$s" && make reproduce RUNS=one HOSTS=: SHARDS=2 QEMU=tests/lib/fake-qemu 2>&1)
if [ $? -ne 0 ] && grep -q "shards/one/shard-1 was made from another bench/mini.matrix (its resolved matrix differs: reps = 3)" <<<"$out" &&
	[ ! -e "$run/raw.csv" ] && [ ! -e "$s/studies/one/run" ]; then
	ok "shards whose run.matrix is not the matrix's (reps edited) are refused before any boot, naming the shard and the line"
else
	bad "shards with reps edited: $(brief "$out")"
fi
