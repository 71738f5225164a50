#!/usr/bin/env bash
# test: both bases booted
# Both kernel bases booted (icount, -cpu qemu64: no RDRAND, the TSC as
# counter): on 6.12 as on 6.1, `block`'s first /dev/urandom read waits for
# the CRNG (returns after "crng init done") and `legacy`'s returns before
# it; the vDSO's getrandom() (getrandom-vdso) returns bytes on 6.12 and is
# "unavailable" on 6.1, never a failed boot.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "bases boots"
# make check builds another base's kernels only where warm (tests/run.sh)
if [ -n "${CRNGBENCH_COLD_LEFT:-}" ]; then
	echo "SKIP: bases boots: not booted, base(s)$CRNGBENCH_COLD_LEFT left cold (CRNGBENCH_CHECK_COLD=all builds them)"
	exit 0
fi
out=tests/out/bases-boots
rm -rf "$out"
if ! build/crngbench-run --image build/guest.cpio --quiet --out "$out" --seed 3 \
	--set base=6.1,6.12 --set variant=legacy,block --set accel=icount --set cpu=qemu64 \
	--set nocounter=off --set reads=urandom:getrandom-vdso --set trace=off --set reps=1 \
	--set timeout=120 >"$out.log" 2>&1; then
	bad "the run failed: $(tail -n 3 "$out.log" | tr '\n' ' ')"
	exit 0
fi
/usr/bin/python3 - "$out" <<'PY'
import csv, sys
d = sys.argv[1]
raw = {r["boot_id"]: r for r in csv.DictReader(open(f"{d}/raw.csv"))}
reads = list(csv.DictReader(open(f"{d}/reads.csv")))
for b, r in sorted(raw.items(), key=lambda kv: (kv[1]["base"], kv[1]["variant"])):
    base, var = r["base"], r["variant"]
    name = f"bases boots: {base} {var}"
    if r["status"] != "ok":
        print(f"FAIL: {name}: status {r['status']} ({r['reason']})")
        continue
    before = r["first_urandom_before_ready"]
    want = "1" if var == "legacy" else "0"
    what = "returns before the CRNG is ready" if var == "legacy" else "waits for the CRNG"
    if before == want and r["first_urandom_errno"] == "0":
        print(f"PASS: {name}: the first urandom read {what}")
    else:
        print(f"FAIL: {name}: first_urandom_before_ready={before!r} (want {want}), errno {r['first_urandom_errno']}")
    v = [x for x in reads if x["boot_id"] == b and x["iface"] == "getrandom-vdso"]
    if base == "6.12":
        ok = len(v) == 1 and v[0]["status"] == "" and v[0]["bytes"] == "32" and v[0]["errno"] == "0" and v[0]["digest"]
        print(f"{'PASS' if ok else 'FAIL'}: {name}: the vDSO's getrandom() returned 32 bytes ({v})")
    else:
        ok = len(v) == 1 and v[0]["status"] == "unavailable"
        print(f"{'PASS' if ok else 'FAIL'}: {name}: the vDSO read is 'unavailable' on 6.1, the boot ok ({v})")
if len(raw) != 4:
    print(f"FAIL: bases boots: {len(raw)} boots, want 4")
PY
