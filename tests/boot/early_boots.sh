#!/usr/bin/env bash
# test: the early reads in a child of PID 1, booted
# The early axis booted (icount, stock, -cpu qemu64 without a cycle
# counter: the early blocking /dev/random read waits minutes of guest time
# for interrupts, a few host seconds). With early=pid1, PID 1 makes the
# reads before it execs systemd, so systemd starts and the game stand-in
# is seeded only after the blocking read has returned; with early=child a
# child of PID 1 makes them and PID 1 execs systemd at once: systemd
# starts, and the game is seeded, while the child's read still waits. The
# child's reads reach reads.csv as PID 1's do, in order, and it finished
# before the report (no reason). In both, systemd's boot finished after
# the CRNG was ready: systemd 252's random-seed service waits for it on
# its own (REPORT.md, finding 5). Orders of events only, never durations.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "early boots"
out=tests/out/early-boots
rm -rf "$out"
if ! build/crngbench-run --matrix studies/systemd/systemd.matrix --image build/guest.cpio --quiet --out "$out" --seed 5 \
	--parallel-jobs 1 --set variant=stock --set accel=icount --set cpu=qemu64 --set nocounter=on \
	--set reads=urandom:random --set trace=off --set early=pid1,child --set reps=1 >"$out.log" 2>&1; then
	bad "the run failed: $(tail -n 3 "$out.log" | tr '\n' ' ')"
	exit 0
fi
/usr/bin/python3 - "$out" <<'PY'
import csv, sys
d = sys.argv[1]
raw = list(csv.DictReader(open(f"{d}/raw.csv")))
reads = list(csv.DictReader(open(f"{d}/reads.csv")))
if sorted(r["early"] for r in raw) != ["child", "pid1"]:
    print(f"FAIL: early boots: want one boot per early value, got {[r['early'] for r in raw]}")
for r in raw:
    e, b = r["early"], r["boot_id"]
    name = f"early boots: early={e}"
    if r["status"] != "ok" or r["reason"]:
        print(f"FAIL: {name}: status {r['status']} ({r['reason']})")
        continue
    mine = [x for x in reads if x["boot_id"] == b]
    if [x["iface"] for x in mine] != ["urandom", "random"] or any(x["errno"] != "0" or x["timed_out"] != "0" for x in mine):
        print(f"FAIL: {name}: reads.csv rows {[(x['iface'], x['errno'], x['timed_out']) for x in mine]}")
        continue
    print(f"PASS: {name}: both reads in reads.csv, in order, returned")
    rnd = next(x for x in mine if x["iface"] == "random")
    back = int(rnd["start_ns"]) + int(rnd["dur_ns"])
    start, seeded = int(r["userspace_ns"]), int(r["game_seeded_ns"])
    before = e == "child"
    ok = (start < back and seeded < back) if before else (start > back and seeded > back)
    word = "before" if before else "after"
    print(f"{'PASS' if ok else 'FAIL'}: {name}: systemd started ({start} ns) and the game was seeded ({seeded} ns) "
          f"{word} the blocking /dev/random read returned ({back} ns)")
    ready, fin = int(r["crng_ready_ns"]), int(r["finish_ns"])
    print(f"{'PASS' if fin >= ready else 'FAIL'}: {name}: systemd's boot finished ({fin} ns) after the CRNG was "
          f"ready ({ready} ns): its random-seed service waits on its own")
PY
