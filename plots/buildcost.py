#!/usr/bin/env python3
"""The kernel builds of some matrices and their estimated wall time, from
the cache as it is (make reproduce's plan).

    plots/buildcost.py --matrix FILE [--matrix FILE]... [--table FILE] [--json]

The kernels are the runner's (crngbench-run --print-axis kernels: a line
per base, kernel/arches row and HZ with the planned cells' variants, what
make kernels builds), each counted once over all the matrices. Whether one
is built is kernel/build.sh's own decision (--status: its image is in the
cache with the key of its inputs now; a stale one is built again), and so
is whether its build directory has been built in (the cache's layout is
build.sh's alone; scripts/cache-dir.sh names the cache). Per build
directory with something to build: a cold one costs the table's cold_s
for the first variant and variant_s for each further one; a warm one
variant_s per variant. The table is kernel/build-cost (--table: another
file of its form).
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys

from runlib import RUNNER, ROOT, _output, die, fact_rows, fact_table

BUILD_SH = os.path.join(ROOT, "kernel", "build.sh")
SECONDS = re.compile(r"[0-9]+(\.[0-9]+)?\Z")
COLUMNS = ("base", "arch", "cold_s", "variant_s", "source")
SOURCES = ("check-cold", "reproduce-cold", "bench-build", "derived")


def read_costs(name):
    """{(base, arch): (cold_s, variant_s)} of the table, every row checked:
    a known base and kernel/arches row, once; seconds as decimal numbers; a
    known source. A bad row is an error naming the file and line."""
    rows = fact_rows(name)
    shown = name if "/" in name else os.path.join("kernel", name)
    head = list(rows[0][1]) if rows else []
    missing = [c for c in COLUMNS if c not in head]
    if not rows or missing:
        die(f"{shown} has no row or no column {', '.join(missing) or '(none)'}: "
            f"its columns must include {' '.join(COLUMNS)}")
    bases, arches = fact_table("bases"), fact_table("arches")
    costs = {}
    for lineno, r in rows:
        where = f"{shown} line {lineno}"
        if r["base"] not in bases:
            die(f"{where}: base '{r['base']}' is not a row of kernel/bases ({', '.join(bases)})")
        if r["arch"] not in arches:
            die(f"{where}: arch '{r['arch']}' is not a row of kernel/arches ({', '.join(arches)})")
        for c in ("cold_s", "variant_s"):
            if not SECONDS.match(r[c]) or float(r[c]) <= 0:
                die(f"{where}, column {c}: '{r[c]}' is not a number of seconds above 0 (e.g. 245.2)")
        if r["source"] not in SOURCES:
            die(f"{where}, column source: '{r['source']}' is neither {' nor '.join(SOURCES)}")
        key = (r["base"], r["arch"])
        if key in costs:
            die(f"{where}: a second row for base {key[0]}, arch {key[1]}")
        costs[key] = (float(r["cold_s"]), float(r["variant_s"]))
    return costs


def planned_kernels(matrices):
    """[(base, arch, hz, [variants])] of the matrices' planned cells, each
    build directory once, its variants in first-seen order."""
    groups = {}
    for m in matrices:
        for line in _output([RUNNER, "--matrix", m, "--print-axis", "kernels"]).splitlines():
            f = line.split()
            if len(f) != 4 or not f[2].isdigit():
                die(f"{RUNNER} --matrix {m} --print-axis kernels printed '{line}', not 'BASE ARCH HZ VARIANTS' "
                    "(an older build? make runner)")
            vs = groups.setdefault(tuple(f[:3]), [])
            vs += [v for v in f[3].split(",") if v not in vs]
    return [(b, a, h, vs) for (b, a, h), vs in groups.items()]


def status(base, arch, hz, variants):
    """kernel/build.sh --status of one build directory: ({variant: state},
    warm, its path)."""
    env = dict(os.environ, KERNEL_BASE=base, KERNEL_ARCH=arch, KERNEL_HZ=hz)
    cmd = [BUILD_SH, "--status", ",".join(variants)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    except OSError as e:
        die(f"cannot run {BUILD_SH}: {e.strerror}")
    if p.returncode != 0:
        why = (p.stderr.strip().splitlines() or ["no message"])[-1]
        die(f"KERNEL_BASE={base} KERNEL_ARCH={arch} KERNEL_HZ={hz} kernel/build.sh --status failed: {why}")
    states, warm, dirs = {}, set(), set()
    for line in p.stdout.splitlines():
        f = line.split(None, 4)
        if len(f) != 5 or f[0] not in variants or f[1] not in ("built", "stale", "absent") or \
                f[2] not in ("warm", "cold"):
            die(f"kernel/build.sh --status printed '{line}', not 'VARIANT built|stale|absent warm|cold KEY DIR'")
        states[f[0]] = f[1]
        warm.add(f[2])
        dirs.add(f[4])
    if set(states) != set(variants) or len(warm) != 1 or len(dirs) != 1:
        die(f"kernel/build.sh --status {','.join(variants)} did not print one line per variant, of one build directory")
    return states, warm == {"warm"}, dirs.pop()


def plan(matrices, table):
    costs = read_costs(table)  # checked before anything runs
    dirs = []
    for base, arch, hz, variants in planned_kernels(matrices):
        states, warm, where = status(base, arch, hz, variants)
        todo = [v for v in variants if states[v] != "built"]
        if (base, arch) not in costs:
            die(f"{table} has no row for base {base}, arch {arch}: measure one "
                f"(make bench-build KERNEL_BASE={base} KERNEL_ARCH={arch}) and add it")
        cold_s, variant_s = costs[(base, arch)]
        secs = 0.0 if not todo else variant_s * len(todo) + (0.0 if warm else cold_s - variant_s)
        dirs.append({"base": base, "arch": arch, "hz": int(hz), "variants": variants, "to_build": todo,
                     "stale": [v for v in todo if states[v] == "stale"], "warm": warm, "build_dir": where, "est_s": secs})
    busy = [d for d in dirs if d["to_build"]]
    return {"kernels": sum(len(d["variants"]) for d in dirs), "to_build": sum(len(d["to_build"]) for d in dirs),
            "stale": sum(len(d["stale"]) for d in dirs), "build_dirs": len(busy),
            "cold": sum(1 for d in busy if not d["warm"]), "total_s": sum(d["est_s"] for d in dirs),
            "table": table, "dirs": dirs}


def duration(s):
    m, s = divmod(int(round(s)), 60)
    h, m = divmod(m, 60)
    return f"{h} h {m} min" if h else f"{m} min {s} s" if m else f"{s} s"


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matrix", action="append", required=True, help="a matrix file (repeatable)")
    p.add_argument("--table", default="kernel/build-cost", help="the cost table (default kernel/build-cost)")
    p.add_argument("--json", action="store_true", help="the estimate as JSON")
    args = p.parse_args()
    # a file given is the caller's path; the default is the checkout's
    s = plan(args.matrix, args.table if args.table == "kernel/build-cost" else os.path.abspath(args.table))
    if args.json:
        json.dump(s, sys.stdout, indent=1)
        print()
        return
    for d in s["dirs"]:
        what = "built" if not d["to_build"] else \
            f"{','.join(d['to_build'])} to build{' (stale: ' + ','.join(d['stale']) + ')' if d['stale'] else ''}, " \
            f"{'warm' if d['warm'] else 'cold'} build directory, ~{duration(d['est_s'])}"
        print(f"  {d['base']} {d['arch']} HZ={d['hz']} {','.join(d['variants'])}: {what}")
    dirs = "directory" if s["build_dirs"] == 1 else "directories"
    print(f"kernels: {s['to_build']} to build in {s['build_dirs']} build {dirs} ({s['cold']} from cold), "
          f"~{duration(s['total_s'])} ({s['table']})")


if __name__ == "__main__":
    main()
