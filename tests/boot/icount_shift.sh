#!/usr/bin/env bash
# test: icount shifts keep time (x86_64 at 1 GHz and 125 MHz)
# icount shifts: the guest's clock keeps time at every CPU speed. Under
# icount QEMU's TSC is the virtual clock in ns, so the kernel is told
# 1 GHz at every shift; told 10^9 / 2^shift instead, its clock ran 2^shift
# times fast and the jitter dance seemed to take 4-8x its 256/HZ. block,
# a counter, no RDRAND, the PIT tick: the first read waits the dance at 1
# sample per bit at both speeds, so the two waits agree (a ratio, guest time).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "icount shift"
out=tests/out/icount_shift
rm -rf "$out"
if ! build/crngbench-run --image build/guest.cpio --quiet --out "$out" --seed 7 --parallel-jobs 2 \
	--set variant=block --set accel=icount --set cpu=qemu64 --set nocounter=off --set timer=pit \
	--set shift=auto,3 --set reads=urandom --set trace=off --set reps=1 --set read_timeout=60 \
	--set timeout=300 >"$out.log" 2>&1; then
	bad "the run failed: $(tail -n 3 "$out.log" | tr '\n' ' ')"
	exit 0
fi
/usr/bin/python3 - "$out/raw.csv" <<'PY'
import csv, sys
rows = {r["shift"]: r for r in csv.DictReader(open(sys.argv[1]))}
try:
    fast, slow = rows["auto"], rows["3"]
    per_bit = [r["jitter_per_bit"] for r in (fast, slow)]
    a, b = (int(r["first_urandom_dur_ns"]) for r in (fast, slow))
    ia, ib = (int(r["init_ns"]) for r in (fast, slow))
except (KeyError, ValueError) as e:
    print(f"FAIL: icount shift: raw.csv lacks a boot or a column ({e}): {sorted(rows)}")
    sys.exit(0)
ok = per_bit == ["1", "1"] and 0.8 <= b / a <= 1.25
print(("PASS" if ok else "FAIL") + f": icount shift: the dance at 125 MHz waits as long as at 1 GHz "
      f"(samples per bit {'/'.join(per_bit)}; {b} against {a} ns, {b / a:.2f})")
# 8x slower instructions: PID 1 starts later, but not 2^shift x 8 later
ok = 1 < ib / ia <= 8
print(("PASS" if ok else "FAIL") + f": icount shift: PID 1 at 125 MHz starts at most 8x later than at 1 GHz "
      f"({ib} against {ia} ns, {ib / ia:.1f}x)")
PY
