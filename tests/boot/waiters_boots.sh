#!/usr/bin/env bash
# test: several waiters, booted (x86_64, stock against stock-once)
# Several waiters, booted (studies/waiters/waiters.matrix, patch 0009): x86_64 at
# 1 GHz under icount, qemu64 (no RDRAND: the jitter dance seeds the CRNG),
# base 6.1, PID 1 in getrandom(0) alone (waiters=0) and beside 3 more
# processes blocked in getrandom(0) (waiters=3), on stock and stock-once.
#  - every waiter returned (raw.csv's waiters_done is 3);
#  - stock: each waiter's timer credits a bit a tick, so with 4 waiting
#    the CRNG is ready well before it is with one (under 0.7 of it);
#  - stock-once (0009 counts a tick once): about as late with 4 as with
#    one (over 0.85 of it).
# Ratios within one run of one deterministic clock, never seconds. Four
# boots of a few host seconds each.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "waiters boots"
out=tests/out/waiters-boots
rm -rf "$out"
if ! build/crngbench-run --matrix studies/waiters/waiters.matrix --quiet --out "$out" --seed 3 \
	--set base=6.1 --set arch=x86_64 --set waiters=0,3 --set reps=1 >"$out.log" 2>&1; then
	bad "the run failed: $(tail -n 3 "$out.log" | tr '\n' ' ')"
	exit 0
fi
python3 - "$out/raw.csv" <<'PY'
import csv, sys
rows = {(r["variant"], r["waiters"]): r for r in csv.DictReader(open(sys.argv[1]))}


def say(ok, what):
    print(f"{'PASS' if ok else 'FAIL'}: waiters boots: {what}")


want = [(v, w) for v in ("stock", "stock-once") for w in ("0", "3")]
if any(k not in rows or rows[k]["status"] != "ok" or not rows[k]["crng_ready_ns"] for k in want):
    say(False, "stock and stock-once booted ok with 0 and 3 waiters, CRNG ready: "
        f"{[(k, r['status'], r['reason'], r['crng_ready_ns']) for k, r in rows.items()]}")
    sys.exit(0)
say(all(rows[(v, "3")]["waiters_done"] == "3" for v in ("stock", "stock-once")),
    f"every waiter returned (waiters_done: {[rows[(v, '3')]['waiters_done'] for v in ('stock', 'stock-once')]})")
r = {k: int(rows[k]["crng_ready_ns"]) for k in want}
q = r[("stock", "3")] / r[("stock", "0")]
say(q < 0.7, f"stock: 4 waiters are ready sooner than one ({r[('stock', '3')]} against {r[('stock', '0')]} ns, {q:.2f})")
q = r[("stock-once", "3")] / r[("stock-once", "0")]
say(q > 0.85, f"stock-once: 4 waiters are credited as one ({r[('stock-once', '3')]} against "
    f"{r[('stock-once', '0')]} ns, {q:.2f})")
PY
