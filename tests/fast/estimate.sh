#!/usr/bin/env bash
# test: the plan and its estimated host time
# A run's plan and its estimated host time (make plan): the runner's
# `--print-axis plan` lists exactly the cells a dry run boots (exclude
# lines, shards, the reps of each), and plots/estimate.py turns it into
# host time from reference runs: a cell of a fixture run gets the median
# host time of that cell's boots (worked out here with the csv module), a
# cell alike but for its reads the same, icount time is shared out over
# --parallel-jobs and TCG's is not, a cell no run comes near is estimated
# at its timeout and said to be, and a bad reference run is an error
# naming its file and line. `make run` prints the plan first and runs even
# when the estimate fails. No timing is asserted.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "estimate"
root=$PWD
runner=$root/${CRNGBENCH_RUNNER:-build/crngbench-run}
export CRNGBENCH_RUNNER=$runner
est=$root/plots/estimate.py
py=/usr/bin/python3

# --- the plan --------------------------------------------------------------
cat >"$tmp/m.matrix" <<'M'
name = t
reps = 3
arch = x86_64,armv5-versatilepb
variant = stock,block
accel = tcg,icount
trace = off
cpu = default,qemu64
timeout.icount = 77
exclude = arch=x86_64 cpu=default
exclude = arch=armv5-versatilepb cpu=qemu64
exclude = arch=armv5-versatilepb variant=stock
M
mkdir -p "$tmp/k/stock-hz250" "$tmp/k/block-hz250" "$tmp/k/block-hz250-armv5"
: >"$tmp/k/stock-hz250/bzImage"
: >"$tmp/k/block-hz250/bzImage"
: >"$tmp/k/block-hz250-armv5/zImage"
: >"$tmp/k/block-hz250-armv5/versatile-pb.dtb"
: >"$tmp/image"
: >"$tmp/probe-armv5.cpio"
mkdir -p "$tmp/bin"
for q in x86_64 arm; do ln -s "$root/tests/lib/fake-qemu" "$tmp/bin/qemu-system-$q"; done

# plan_vs_dry NAME [RUNNER OPTIONS]: the plan's cells and reps against the
# dry run's boot ids (c<cell>-r<rep>) of the same options.
plan_vs_dry() {
	local name=$1 plan dry
	shift
	plan=$("$runner" --matrix "$tmp/m.matrix" "$@" --print-axis plan 2>&1) ||
		{ bad "$name: --print-axis plan failed: $plan"; return; }
	dry=$(PATH=$tmp/bin:$PATH "$runner" --matrix "$tmp/m.matrix" "$@" --kernels "$tmp/k" \
		--image "$tmp/image" --qemu "$root/tests/lib/fake-qemu" --out "$tmp/o" --seed 1 --dry-run 2>&1) ||
		{ bad "$name: dry run failed: $(head -c 300 <<<"$dry")"; return; }
	got=$($py -c '
import csv, sys
rows = sorted(csv.DictReader(sys.stdin), key=lambda r: int(r["cell"]))
print(" ".join(r["cell"] + "x" + r["reps"] for r in rows))' <<<"$plan")
	want=$(sed -nE 's/^c([0-9]+)-r[0-9]+: .*/\1/p' <<<"$dry" | sort -n | uniq -c | awk '{ printf "%s%sx%s", (NR > 1 ? " " : ""), $2, $1 }')
	[ -n "$want" ] && [ "$got" = "$want" ] &&
		ok "$name: --print-axis plan lists the dry run's cells, each with its boots ($(wc -w <<<"$got") cells)" ||
		bad "$name: plan '$got', dry run '$want'"
}
plan_vs_dry "whole plan"
plan_vs_dry "shard 2/3 of 4 reps" --shard 2/3 --set reps=4
plan_vs_dry "trust_cpu on and off" --set reps=2 --set trust_cpu=on,off
# icount_off: how many planned cells are icount ones with trust_cpu=off.
icount_off() {
	$py -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
print(len(rows), sum(1 for r in rows if r["accel"] == "icount" and r["trust_cpu"] == "off"))'
}
read -r n_all n_off < <("$runner" --matrix "$tmp/m.matrix" --set trust_cpu=on,off --print-axis plan | icount_off)
printf 'exclude = accel=icount trust_cpu=off\n' >>"$tmp/m.matrix"
plan_vs_dry "trust_cpu on and off, an exclude line more" --set reps=2 --set trust_cpu=on,off
read -r n_all2 n_off2 < <("$runner" --matrix "$tmp/m.matrix" --set trust_cpu=on,off --print-axis plan | icount_off)
[ "$n_off" -gt 0 ] && [ "$n_off2" = 0 ] && [ "$n_all2" = $((n_all - n_off)) ] &&
	ok "an exclude line takes its cells, and only those, out of the plan ($n_off of $n_all)" ||
	bad "exclude line: $n_all cells, $n_off icount trust_cpu=off; after: $n_all2, $n_off2"

# The columns: raw.csv's axis values (the timer as the guest gets it), the
# cell's timeout, quoting by the runner's CSV rules.
plan=$("$runner" --matrix "$tmp/m.matrix" --set 'cpu=default,qemu64,+rdrand' --print-axis plan 2>&1)
$py - "$plan" "$($runner --describe)" <<'PY' && ok "plan columns: every axis as raw.csv records it, timeout per accelerator, quoted CSV" || bad "plan columns: $plan"
import csv, io, json, sys
plan, desc = sys.argv[1], json.loads(sys.argv[2])
rows = list(csv.reader(io.StringIO(plan)))
axes = [a["name"] for a in desc["axes"]]
assert rows[0] == ["cell", "reps"] + axes + ["timeout", "parallel", "kvm"], rows[0]
d = [dict(zip(rows[0], r)) for r in rows[1:]]
assert all(len(r) == len(rows[0]) for r in rows)
assert {r["timer"] for r in d if r["arch"] == "armv5-versatilepb"} == {"machine"}
assert {r["timer"] for r in d if r["arch"] == "x86_64" and r["accel"] == "tcg"} == {"lapic"}
assert {r["timeout"] for r in d if r["accel"] == "icount"} == {"77"}
assert {r["timeout"] for r in d if r["accel"] == "tcg"} == {str(desc["settings"]["timeout"])}
assert {r["parallel"] for r in d if r["accel"] == "icount"} == {"1"}
assert {r["parallel"] for r in d if r["accel"] == "tcg"} == {"0"}
assert '"qemu64,+rdrand"' in plan and "qemu64,+rdrand" in {r["cpu"] for r in d}
PY

# --- the estimate ------------------------------------------------------------
fix=$root/tests/fixtures
# est_json NAME OUT ESTIMATOR-ARGS...: the JSON estimate into OUT.
est_json() {
	local name=$1 out=$2
	shift 2
	"$est" --json "$@" >"$out" 2>"$out.err" || { bad "$name: estimate.py failed: $(tail -n 2 "$out.err")"; return 1; }
}

# A plan of the fixture run's own TCG cells: each the median host time of
# that cell's boots, times its reps; one boot at a time, the sum.
if est_json "fixture cells" "$tmp/e1.json" --matrix "$fix/run/run.matrix" --set accel=tcg --set reps=3 \
	--jobs 1 --from "$fix/run"; then
	$py - "$fix/run/raw.csv" "$tmp/e1.json" "$($runner --describe)" <<'PY' &&
import csv, json, statistics, sys
raw, est, desc = list(csv.DictReader(open(sys.argv[1]))), json.load(open(sys.argv[2])), json.loads(sys.argv[3])
axes = [a["name"] for a in desc["axes"]]
dflt = {a["name"]: a["default"] for a in desc["axes"]}
by = {}
for r in raw:
    if r["accel"] == "tcg":
        by.setdefault(tuple(r.get(a, dflt[a]) for a in axes), []).append(int(r["host_exit_ns"]) / 1e9)
want = {k: statistics.median(v) for k, v in by.items()}
assert len(est["plan"]) == len(want) == 16, (len(est["plan"]), len(want))
assert all(c["match"] == "exact" and c["reps"] == 3 for c in est["plan"]), est["plan"]
got = sorted(c["est_s"] for c in est["plan"])
assert all(abs(a - b) < 1e-9 for a, b in zip(got, sorted(want.values()))), (got, sorted(want.values()))
total = sum(want.values()) * 3
assert abs(est["total_s"] - total) < 1e-6, (est["total_s"], total)
assert est["bound_boots"] == 0 and est["boots"] == 48
PY
	ok "a fixture cell's estimate is the median host time of its boots; the total their sum times reps" ||
		bad "fixture cells: $(head -c 600 "$tmp/e1.json")"
fi

# The same cells but for their reads: alike on every other axis (reads are
# dropped first of the named axes, after rtc and trace), so the same
# medians, a partial match.
if est_json "reads differ" "$tmp/e2.json" --matrix "$fix/run/run.matrix" --set accel=tcg --set reps=3 \
	--set reads=urandom --jobs 1 --from "$fix/run"; then
	$py - "$tmp/e1.json" "$tmp/e2.json" <<'PY' &&
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert all(c["match"] == "partial" and c["keys"] == b["axes"] - 3 for c in b["plan"]), b["plan"]
assert abs(a["total_s"] - b["total_s"]) < 1e-6
PY
	ok "a cell alike but for its reads gets the alike cell's median (partial match)" ||
		bad "reads differ: $(head -c 600 "$tmp/e2.json")"
fi

# icount time is shared out over --parallel-jobs, TCG time over --jobs only.
for p in 1 3; do
	est_json "parallel $p" "$tmp/p$p.json" --matrix "$fix/arches/run.matrix" --set arch=armv7-virt,m68k-virt \
		--jobs 1 --parallel-jobs $p --from "$fix/arches"
done
$py - "$tmp/p1.json" "$tmp/p3.json" <<'PY' && ok "icount boots' time is divided by --parallel-jobs, TCG's is not" || bad "parallelism: $(head -c 400 "$tmp/p3.json")"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ic = sum(c["est_s"] * c["reps"] for c in a["plan"] if c["accel"] == "icount")
tcg = sum(c["est_s"] * c["reps"] for c in a["plan"] if c["accel"] == "tcg")
assert ic > 0 and tcg > 0
assert abs(a["total_s"] - (ic + tcg)) < 1e-6, (a["total_s"], ic + tcg)
assert abs(b["total_s"] - (ic / 3 + tcg)) < 1e-6, (b["total_s"], ic / 3 + tcg)
PY

# No reference boot of the accelerator: the cell's timeout, said so.
if est_json "bound" "$tmp/b.json" --matrix "$tmp/m.matrix" --set accel=icount --set arch=x86_64 --from "$fix/run"; then
	$py - "$tmp/b.json" <<'PY' &&
import json, sys
e = json.load(open(sys.argv[1]))
assert all(c["match"] == "bound" and c["est_s"] == 77 for c in e["plan"]), e["plan"]
assert e["bound_boots"] == e["boots"] > 0
PY
	ok "a cell without reference data is estimated at its timeout (bound)" || bad "bound: $(head -c 400 "$tmp/b.json")"
fi
# Boots side by side take no less than the longest of them: one boot of
# 600 s (its bound) with 4 at a time is 600 s, not a quarter of it.
printf '%s\n' 'name = one' 'reps = 1' 'arch = x86_64' 'variant = block' 'accel = icount' 'trace = off' \
	'cpu = qemu64' 'timeout.icount = 600' >"$tmp/one.matrix"
if est_json "one long boot" "$tmp/one.json" --matrix "$tmp/one.matrix" --jobs 4 --parallel-jobs 4 --from "$fix/run"; then
	$py - "$tmp/one.json" <<'PY' &&
import json, sys
e = json.load(open(sys.argv[1]))
assert e["boots"] == 1 and [c["est_s"] for c in e["plan"]] == [600], e["plan"]
assert e["total_s"] >= 600, e["total_s"]
PY
	ok "one 600 s boot with 4 at a time is estimated at 600 s at least (the longest boot)" ||
		bad "one long boot, 4 at a time: $(head -c 400 "$tmp/one.json")"
fi
text=$("$est" --matrix "$tmp/m.matrix" --set accel=icount --set arch=x86_64 --from "$fix/run" 2>&1)
grep -q "bound: timeout" <<<"$text" && grep -q "^estimated host time: ~.* 6 boots estimated from the bound only" <<<"$text" &&
	ok "the table says which estimates are only the bound" || bad "bound text: $text"
text=$("$est" --matrix "$fix/run/run.matrix" --set accel=tcg --from "$fix/run" 2>&1)
grep -qE "^  x86_64 +tcg +[0-9]+ +[0-9.]+ .* exact$" <<<"$text" && grep -q "^estimated host time: ~" <<<"$text" &&
	ok "the table: a line per arch and accelerator, then the total" || bad "table: $text"

# KVM cells (CRNGBENCH_ESTIMATE_KVM_DEVICE stands in for /dev/kvm): where
# it does not open, none (the runner skips them); where it opens and the
# reference runs skipped every KVM boot after a failed canary (the
# fixture's), one canary boot (the runner's default, or --kvm-canary);
# where a reference run measured KVM boots, their host times.
: >"$tmp/kvmdev"
est_json "tcg alone" "$tmp/k0.json" --matrix "$fix/run/run.matrix" --set accel=tcg --jobs 1 --from "$fix/run"
canary=$($py -c 'import json, sys; print(json.load(sys.stdin)["default_jobs"]["kvm_canary_s"])' <<<"$($runner --describe)")
# kvm_case NAME DEVICE WANT-MATCH EXTRA-SECONDS [ESTIMATOR-ARGS...]
kvm_case() {
	local name=$1 dev=$2 match=$3 extra=$4
	shift 4
	CRNGBENCH_ESTIMATE_KVM_DEVICE=$dev est_json "$name" "$tmp/kvm.json" --matrix "$fix/run/run.matrix" --jobs 1 "$@" &&
		$py - "$tmp/k0.json" "$tmp/kvm.json" "$match" "$extra" <<'PY' && ok "KVM: $name" || bad "KVM: $name: $(head -c 400 "$tmp/kvm.json")"
import json, sys
base, e, match, extra = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3], float(sys.argv[4])
kvm = [c for c in e["plan"] if c["accel"] == "kvm"]
assert kvm and all(c["match"] == match for c in kvm), [c["match"] for c in kvm]
assert abs(e["total_s"] - (base["total_s"] + extra)) < 1e-6, (e["total_s"], base["total_s"], extra)
assert e["canary_boots"] == (sum(c["reps"] for c in kvm) if match == "canary" else 0)
PY
}
kvm_case "where the device does not open, KVM cells count as none" "$tmp/nokvm" skipped 0 --from "$fix/run"
kvm_case "where it opens and the reference runs' canaries failed, one canary boot ($canary s)" \
	"$tmp/kvmdev" canary "$canary" --from "$fix/run"
kvm_case "the canary's seconds from the run's --kvm-canary" "$tmp/kvmdev" canary 7 --from "$fix/run" -- --kvm-canary 7
text=$(CRNGBENCH_ESTIMATE_KVM_DEVICE=$tmp/kvmdev "$est" --matrix "$fix/run/run.matrix" --from "$fix/run" 2>&1)
grep -qE "^[0-9]+ KVM boots: one canary boot \(<=$canary s\) first; in the reference runs every KVM cell was skipped after its canary made no progress, so they count as none; if KVM works here they take longer$" <<<"$text" &&
	ok "KVM: the table says the KVM cells count as their canary boot" || bad "KVM canary text: $text"
text=$(CRNGBENCH_ESTIMATE_KVM_DEVICE=$tmp/nokvm "$est" --matrix "$fix/run/run.matrix" --from "$fix/run" 2>&1)
grep -q "KVM boots count as none: the runner will skip them ($tmp/nokvm: No such file" <<<"$text" &&
	ok "KVM: the table says why KVM cells count as none" || bad "KVM skipped text: $text"
# the fixture with its KVM boots measured (3 s each): estimated as any cell
mkdir -p "$tmp/kvmrun"
$py - "$fix/run/raw.csv" "$tmp/kvmrun/raw.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
for r in rows[1:]:
    if r[h.index("accel")] == "kvm":
        r[h.index("status")], r[h.index("reason")], r[h.index("host_exit_ns")] = "ok", "", "3000000000"
csv.writer(open(sys.argv[2], "w"), lineterminator="\n").writerows(rows)
PY
kvm_boots=$($py -c 'import json, sys; e = json.load(open(sys.argv[1])); print(sum(c["reps"] for c in e["plan"] if c["accel"] == "kvm"))' "$tmp/kvm.json")
kvm_case "where a reference run measured KVM boots, their host times" "$tmp/kvmdev" exact "$((kvm_boots * 3))" \
	--from "$fix/run" --from "$tmp/kvmrun"

# Reference runs are untrusted: a bad row is an error naming file and line.
mkdir -p "$tmp/bad"
cp "$fix/run/raw.csv" "$tmp/bad/raw.csv"
sed -i '5s/$/,extra/' "$tmp/bad/raw.csv"
out=$("$est" --matrix "$fix/run/run.matrix" --from "$tmp/bad" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "$tmp/bad/raw.csv line 5" <<<"$out" && ! grep -q Traceback <<<"$out" &&
	ok "a reference run with a bad row is refused, naming the file and line" || bad "bad row: rc=$rc $out"
cp "$fix/run/raw.csv" "$tmp/bad/raw.csv"
$py - "$tmp/bad/raw.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
rows[3][rows[0].index("host_exit_ns")] = "soon"
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rows)
PY
out=$("$est" --matrix "$fix/run/run.matrix" --from "$tmp/bad" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "line 4, column host_exit_ns" <<<"$out" && ! grep -q Traceback <<<"$out" &&
	ok "a host time that is not a number is refused, naming line and column" || bad "bad host time: rc=$rc $out"
out=$("$est" --matrix "$fix/run/run.matrix" --from "$tmp/none" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "not found" <<<"$out" && ! grep -q Traceback <<<"$out" &&
	ok "a reference directory without raw.csv is named" || bad "missing run: rc=$rc $out"
out=$("$est" --matrix "$tmp/m.matrix" --set nope=1 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "nope" <<<"$out" && ! grep -q Traceback <<<"$out" &&
	ok "a matrix the runner refuses: its message, no traceback" || bad "bad matrix: rc=$rc $out"

# RUNFLAGS after "--": --jobs, --parallel-jobs and --shard taken, the rest left.
half=$("$runner" --matrix "$fix/arches/run.matrix" --shard 1/2 --print-axis plan | awk -F, 'NR > 1 { n += $2 } END { print n }')
est_json "runflags" "$tmp/r.json" --matrix "$fix/arches/run.matrix" --from "$fix/arches" -- \
	--perf --parallel-jobs 3 --append 'quiet' --jobs 1 --shard 1/2 &&
	$py -c 'import json, sys; e = json.load(open(sys.argv[1])); assert (e["parallel_jobs"], e["jobs"], e["boots"]) == (3, 1, int(sys.argv[2])) and e["boots"] < 315, e' \
		"$tmp/r.json" "$half" && ok "the run's flags: --jobs, --parallel-jobs, --shard ($half boots of 315)" ||
	bad "runflags: $(head -c 300 "$tmp/r.json")"

# --- make plan and make run ----------------------------------------------------
# the boots the runner plans for quick's TCG cells (not a number written here:
# the matrix's reps change)
nq=$("$runner" --matrix studies/quick/quick.matrix --set accel=tcg --print-axis plan | awk -F, 'NR > 1 { n += $2 } END { print n + 0 }')
out=$(make -s plan MATRIX=quick ACCELS=tcg 2>&1)
[ "$nq" -gt 0 ] && grep -q "^plan: $nq boots" <<<"$out" && grep -q "^estimated host time: ~" <<<"$out" &&
	ok "make plan MATRIX=quick ACCELS=tcg prints the plan and the estimate" || bad "make plan: $out"

# make run with a stand-in runner (a build directory of its own, kept as
# it is by make -o): the plan comes first; a failing estimate is a warning,
# the run goes on.
b=$tmp/build
mkdir -p "$b"
cat >"$b/crngbench-run" <<SH
#!/bin/sh
case " \$* " in
*" --describe "*) exec "$runner" "\$@" ;;
*" --print-axis plan "*) [ -z "\${BREAK_PLAN:-}" ] || { echo "broken on purpose" >&2; exit 2; }; exec "$runner" "\$@" ;;
esac
echo "STAND-IN RUNNER STARTED"
SH
chmod +x "$b/crngbench-run"
: >"$b/probe"
: >"$b/guest.cpio"
touch "$b/probe" "$b/guest.cpio" "$b/crngbench-run"
out=$(make -s -o "$b/crngbench-run" run BUILD="$b" RESULTS="$tmp/results" MATRIX=quick ACCELS=tcg 2>&1)
$py - "$out" "$nq" <<'PY' && ok "make run prints the plan and its estimate before the runner starts" || bad "make run: $out"
import sys
lines = sys.argv[1].splitlines()
first = lambda p: next(i for i, l in enumerate(lines) if l.startswith(p))
assert first(f"plan: {sys.argv[2]} boots") < first("estimated host time") < first("STAND-IN RUNNER STARTED")
PY
out=$(BREAK_PLAN=1 make -s -o "$b/crngbench-run" run BUILD="$b" RESULTS="$tmp/results" MATRIX=quick ACCELS=tcg 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^warning: no estimate" <<<"$out" && grep -q "STAND-IN RUNNER STARTED" <<<"$out" &&
	ok "make run warns when the estimate fails, and runs" || bad "make run with a failing estimate: rc=$rc $out"
