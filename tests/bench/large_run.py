#!/usr/bin/env python3
"""tests/bench/large_run.py OUT CELLS BOOTS [MODE]: a synthetic results directory
of CELLS cells of BOOTS boots each (raw.csv rows made from the committed
quick run's first row, the plan's cells and a fixed seed), for
tests/bench/bench_large.sh and tests/limits.sh. The cells come from the
runner's own plan (--print-axis plan) of a run.matrix whose axes are
widened until it has CELLS cells. MODE "spread" (the default): CRNG ready
times spread +-30% (cells that stop early, precise); "bimodal": half the
boots at 0.1 s, half at 2 s (no cell is ever precise: the stop rule
judges every boot count). Only the axes chart 5 takes as plain
vary (plots/runlib.py JITTER_PLAIN_AXES), so prepare.py draws every
chart: at most 2048 cells."""
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.environ.get("CRNGBENCH_RUNNER", os.path.join(ROOT, "build", "crngbench-run"))
TEMPLATE = os.path.join(ROOT, "plots", "runs", "quick")
# widened in this order until the matrix has enough cells
WIDEN = [("variant", "stock,legacy,block,block-v0"), ("cpu", "qemu64,max"), ("nocounter", "off,on"),
         ("virtio_rng", "off,on"), ("seed", "none,saved"), ("bootseed", "off,on"),
         ("smp", ",".join(str(i) for i in range(1, 9))), ("early", "pid1,child")]


def main():
    out, cells, boots = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    mode = sys.argv[4] if len(sys.argv) > 4 else "spread"
    os.makedirs(out)
    with open(os.path.join(TEMPLATE, "run.matrix")) as f:
        lines = [ln for ln in f if not ln.startswith(("exclude", "reps", "accel", "min_reps"))]
    sets = {"reps": str(boots), "accel": "tcg", "min_reps": "1"}
    n = 1
    for axis, values in WIDEN:
        if n >= cells:
            break
        sets[axis] = values
        n *= len(values.split(","))
    lines = [ln for ln in lines if ln.split("=")[0].strip() not in sets] + [f"{k} = {v}\n" for k, v in sets.items()]
    with open(os.path.join(out, "run.matrix"), "w") as f:
        f.writelines(lines)
    for name in ("seed", "meta.json"):
        with open(os.path.join(TEMPLATE, name)) as f, open(os.path.join(out, name), "w") as g:
            g.write(f.read())
    plan = subprocess.run([RUNNER, "--matrix", os.path.join(out, "run.matrix"), "--print-axis", "plan"],
                          check=True, capture_output=True, text=True).stdout.splitlines()
    phead = plan[0].split(",")
    plan = [dict(zip(phead, p.split(","))) for p in plan[1:]][:cells]
    with open(os.path.join(TEMPLATE, "raw.csv")) as f:
        head = f.readline().rstrip("\n").split(",")
        tmpl = dict(zip(head, f.readline().rstrip("\n").split(",")))
    rng = random.Random(1)
    with open(os.path.join(out, "raw.csv"), "w") as f:
        f.write(",".join(head) + "\n")
        i = 0
        for rep in range(boots):
            for p in plan:
                r = dict(tmpl)
                r.update({a: p[a] for a in phead if a in r and a not in ("cell", "reps")})
                r.update(boot_id=f"c{p['cell']}-r{rep}", run_index=str(i), cell=p["cell"], rep=str(rep),
                         urandom_digest=f"{rng.getrandbits(64):016x}")
                ready = int(1e9 * (rng.uniform(0.7, 1.3) if mode == "spread" else rng.choice((0.1, 2.0))))
                r.update(crng_ready_kmsg_ns=str(ready), crng_ready_ns=str(ready), crng_ready_poll_ns=str(ready + 4000),
                         first_urandom_end_ns=str(ready + 50000), first_urandom_dur_ns=str(ready - 231000000),
                         host_exit_ns=str(rng.randrange(2_000_000_000, 4_000_000_000)))
                f.write(",".join(r[c] for c in head) + "\n")
                i += 1


main()
