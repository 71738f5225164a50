#!/usr/bin/env bash
# test: the fix for 32-bit kernels, booted (versatilepb, block against block-fix)
# The fix for 32-bit kernels (patch 0008), its mechanism shown by a boot
# (patch 0007's log of each fast pool mix, raw.csv's mix_* columns):
# versatilepb at HZ=100 (1 GHz under icount: its jitter trial gives up, so
# interrupts alone credit), idle, block against block-fix on base 6.1.
#  - block: no mix by the one-second path before ~301 s after boot (the
#    fast pool's last mix starts at jiffies 0, and a 32-bit jiffies starts
#    300 s before it wraps): its first mix, if by time, comes after 300 s,
#    and the CRNG is ready after 300 s;
#  - block-fix: the first mix by time within the first seconds, and the
#    CRNG ready earlier than block's.
# Two boots of a few host seconds each (the guest idles through its wait).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "fix boots"
out=tests/out/fix-boots
rm -rf "$out"
if ! build/crngbench-run --matrix studies/fix/fix.matrix --quiet --out "$out" --seed 3 \
	--set base=6.1 --set arch=armv5-versatilepb --set variant=block,block-fix --set shift=auto \
	--set nocounter=off --set reps=1 >"$out.log" 2>&1; then
	bad "the run failed: $(tail -n 3 "$out.log" | tr '\n' ' ')"
	exit 0
fi
python3 - "$out/raw.csv" <<'PY'
import csv, sys
rows = {r["variant"]: r for r in csv.DictReader(open(sys.argv[1]))}
S = 1_000_000_000


def n(r, c):
    return int(r[c]) if r.get(c) not in (None, "") else None


def say(ok, what):
    print(f"{'PASS' if ok else 'FAIL'}: fix boots: {what}")


b, f = rows.get("block"), rows.get("block-fix")
if not b or not f or b["status"] != "ok" or f["status"] != "ok":
    say(False, f"block and block-fix booted ok: {[(v, r['status'], r['reason']) for v, r in rows.items()]}")
    sys.exit(0)
first, by, ready = n(b, "mix_first_ns"), n(b, "mix_first_by_time"), n(b, "crng_ready_ns")
say(first is not None and n(b, "mix_n") and n(b, "mix_bits"),
    f"block logged its fast pool mixes (patch 0007): {b['mix_n']} mixes, {b['mix_bits']} bits")
say(first is not None and (by == 0 or first > 300 * S) and ready is not None and ready > 300 * S,
    f"block on 32-bit: no mix by time before 300 s (first mix {first} ns, by {'time' if by else 'count'}), "
    f"ready at {ready} ns")
ffirst, fby, fready = n(f, "mix_first_ns"), n(f, "mix_first_by_time"), n(f, "crng_ready_ns")
say(ffirst is not None and fby == 1 and ffirst < 5 * S,
    f"block-fix: the first mix by time within 5 s of boot ({ffirst} ns)")
say(fready is not None and ready is not None and fready < ready,
    f"block-fix is ready earlier than block ({fready} against {ready} ns)")
PY
