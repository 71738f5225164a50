#!/usr/bin/env bash
# Does running icount boots side by side change what they measure? (make
# bench-parallel). Not a test: it boots the same icount cells with
# --parallel-jobs 1 and then 2 (or PARALLEL), prints each cell's guest-clock
# medians and 95% CIs from both runs side by side, whether the CIs overlap,
# and the host time each run took. Kernels and image must be built.
#   scripts/bench-parallel.sh [--out DIR]   the two runs, DIR/jobs1 and DIR/jobs<PARALLEL>
#                                           (default $RESULTS/parallel-<UTC time>); a run
#                                           already complete there is kept, a partial one
#                                           resumed (make reproduce's "parallel" run)
#   scripts/bench-parallel.sh --estimate    "BOOTS SECONDS": both runs' boots and estimated
#                                           host time (plots/estimate.py), for make reproduce
#   scripts/bench-parallel.sh --state DIR   "none", "partial DONE PLANNED" or "complete
#                                           PLANNED" of both runs (plots/runstate.py)
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "scripts/bench-parallel.sh: error: $*" >&2; exit 2; }
par=${PARALLEL:-2}
reps=${REPS:-5}
qemu=${QEMU:-qemu-system-x86_64}
[[ $par =~ ^[1-9][0-9]*$ ]] && [ "$par" != 1 ] || die "PARALLEL=$par: give a whole number of at least 2"
# The runs' matrix, the one definition (the estimate reads it too).
# shellcheck disable=SC2054 # commas: a --set list, not array elements
matrix=(--matrix studies/quick/quick.matrix --set accel=icount --set variant=stock,block
	--set cpu=qemu64 --set nocounter=off,on --set trace=off --set reps="$reps")
mode=run out=
case ${1:-} in
--estimate) mode=estimate ;;
--state) mode=state out=${2:?--state DIR} ;;
--out) out=${2:?--out DIR} ;;
'') out=${RESULTS:-results}/parallel-$(date -u +%Y%m%dT%H%M%SZ) ;;
*) die "unknown argument '$1'; usage: scripts/bench-parallel.sh [--out DIR | --estimate | --state DIR]" ;;
esac
case $mode in
estimate)
	for j in 1 "$par"; do
		plots/estimate.py "${matrix[@]}" --parallel-jobs "$j" --json |
			python3 -c 'import json, sys; o = json.load(sys.stdin); print(o["boots"], o["total_s"])' || exit 2
	done | awk '{ b += $1; s += $2 } END { printf "%d %.1f\n", b, s }'
	exit 0 ;;
state)
	done_=0 planned=0 states=
	for j in 1 "$par"; do
		s=$(plots/runstate.py "$out/jobs$j") || exit 2
		read -r st a b <<<"$s"
		states="$states $st"
		case $st in
		none) # its plan, to count the boots left
			planned=$((planned + $(build/crngbench-run "${matrix[@]}" --print-axis plan |
				awk -F, 'NR > 1 { n += $2 } END { print n + 0 }'))) ;;
		partial) done_=$((done_ + a)) planned=$((planned + b)) ;;
		complete) done_=$((done_ + a)) planned=$((planned + a)) ;;
		esac
	done
	case $states in " complete complete") echo "complete $planned" ;; " none none") echo none ;; *) echo "partial $done_ $planned" ;; esac
	exit 0 ;;
esac
kernels=$(kernel/build.sh --kernels-dir)
mkdir -p "$out"
for j in 1 "$par"; do
	s=$(plots/runstate.py "$out/jobs$j") || exit 2
	case $s in
	complete*) echo "[bench-parallel] $out/jobs$j is complete: kept" ;;
	partial*)
		echo "[bench-parallel] $out/jobs$j: resumed (${s#partial }: boots done, planned)"
		build/crngbench-run --resume --out "$out/jobs$j" --qemu "$qemu" --quiet >/dev/null ;;
	*)
		build/crngbench-run "${matrix[@]}" --seed 1 --qemu "$qemu" \
			--image build/guest.cpio --kernels "$kernels" --parallel-jobs "$j" --quiet \
			--out "$out/jobs$j" >/dev/null ;;
	esac
done
/usr/bin/python3 - "$out" "$par" <<'PY'
import csv, sys
out, par = sys.argv[1], sys.argv[2]
def load(j):
    rows = list(csv.DictReader(open(f"{out}/jobs{j}/summary.csv")))
    return {(r["variant"], r["nocounter"], r["measure"]): r for r in rows}
def host(j):
    return float(next(csv.DictReader(open(f"{out}/jobs{j}/host_time.csv")))["host_s"])
a, b = load(1), load(par)
print(f"[bench-parallel] icount, cpu=qemu64, n per cell as below; results in {out}")
print(f"{'cell':<22} {'measure':<22} {'--parallel-jobs 1':>26} {'--parallel-jobs ' + par:>26}  CIs")
bad = 0
for k in a:
    if k[2] not in ("kernel_to_init", "first_urandom_return", "crng_ready") or not a[k]["median_ms"]:
        continue
    x, y = a[k], b[k]
    f = lambda r: f"{r['median_ms']} [{r['ci95_lo_ms']}, {r['ci95_hi_ms']}]"
    ok = float(x["ci95_lo_ms"]) <= float(y["ci95_hi_ms"]) and float(y["ci95_lo_ms"]) <= float(x["ci95_hi_ms"])
    bad += not ok
    print(f"{k[0] + (' no counter' if k[1] == 'on' else ''):<22} {k[2]:<22} {f(x):>26} {f(y):>26}  "
          f"{'overlap' if ok else 'DIFFER'}")
h1, h2 = host(1), host(par)
print(f"host time: {h1:.1f} s at 1, {h2:.1f} s at {par} ({h1 / h2:.2f}x faster); "
      f"{'every CI overlaps' if not bad else f'{bad} cells differ'}")
PY
