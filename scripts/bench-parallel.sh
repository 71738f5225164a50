#!/usr/bin/env bash
# Does running icount boots side by side change what they measure? (make
# bench-parallel). Not a test: it boots the same icount cells with
# --parallel-jobs 1 and then 2 (or PARALLEL), prints each cell's guest-clock
# medians and 95% CIs from both runs side by side, whether the CIs overlap,
# and the host time each run took. Kernels and image must be built.
set -euo pipefail
cd "$(dirname "$0")/.."
par=${PARALLEL:-2}
reps=${REPS:-5}
kernels=$(kernel/build.sh --kernels-dir)
out=${RESULTS:-results}/parallel-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
for j in 1 "$par"; do
	build/crngbench-run --matrix bench/quick.matrix --set accel=icount --set variant=stock,block \
		--set cpu=qemu64 --set nocounter=off,on --set trace=off --set reps="$reps" --seed 1 \
		--image build/guest.cpio --kernels "$kernels" --parallel-jobs "$j" --quiet \
		--out "$out/jobs$j" >/dev/null
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
