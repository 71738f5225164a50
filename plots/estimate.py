#!/usr/bin/env python3
"""A run's plan and its estimated host time, before the boots start
(make plan; make run prints it first).

    plots/estimate.py --matrix FILE [--set AXIS=V]... [--shard K/N]
                      [--jobs N] [--parallel-jobs N] [--kvm-canary S]
                      [--from DIR]... [--json] [-- RUNNER-FLAGS...]

The plan is the runner's (crngbench-run --print-axis plan: a line per
planned cell with its boots, every axis as raw.csv records it, the cell's
timeout and whether its boots run several at once). A boot's host time is
the median host time (raw.csv's host_exit_ns: QEMU's spawn to its exit) of
the reference boots of the most alike cell (MATCH_ORDER below); the
reference runs are the --from directories, by default the committed runs
(studies/<name>/run/) and the fixture runs. A cell
no reference boot comes near is estimated at its timeout: the most a boot
of it may take.

KVM cells: where /dev/kvm cannot be opened they cost nothing (the runner
skips them). Where it opens, the runner first boots a KVM canary (at most
--kvm-canary seconds, the runner's default from --describe) and skips every
KVM cell when the canary shows no progress; when no reference run has a
measured KVM boot but one has KVM boots skipped after such a canary, the
KVM cells count as that one canary boot and nothing more (said so: where
KVM works they take longer). Otherwise they are estimated as any cell.
CRNGBENCH_ESTIMATE_KVM_DEVICE names another device to open instead of
/dev/kvm (tests; the runner never reads it).
The runner boots the parallel-safe cells (icount) first, --parallel-jobs
at once, then the others, --jobs at once; the total adds the two.

After "--", the flags the run will be given (make's RUNFLAGS): --jobs,
--parallel-jobs, --shard and --kvm-canary are taken from them, the others
ignored.
"""
import argparse
import csv
import io
import json
import os
import signal
import statistics
import sys

from runlib import RUNNER, ROOT, _output, committed_runs, describe, die, read_table

# The match, most alike first: every axis, then the axes dropped one at a
# time, in this order (KEEP_LONGEST's), down to the accelerator alone.
# First the axes named nowhere here (rtc, trace, and an axis newer than
# this list), then what changes a boot's cost by little (the probe's
# reads, who makes them and who waits beside them, vCPUs, the kernel
# base, HZ), then the entropy sources a few cells add (virtio_rng,
# bootseed, a saved seed, trust_cpu). Kept longest is
# what decides it: the tick (the LAPIC timer's calibration costs ~16 s per
# icount boot); whether the guest waits for entropy, and how long (the CPU
# model's RDRAND, the variant blocks or not, a cycle counter or not); the
# guest CPU's speed (shift: a guest second costs fewer instructions at a
# larger shift); the machine (malta's calibration alone is ~60 s of host
# time under icount); and last the accelerator, what emulates it.
KEEP_LONGEST = ("reads", "early", "waiters", "smp", "base", "hz", "virtio_rng", "bootseed", "seed", "trust_cpu",
                "timer", "cpu", "variant", "nocounter", "shift", "arch", "accel")


def match_levels(axes):
    """The keys tried, most alike first: (name, axes) pairs, from every
    axis ("exact") down to the accelerator alone ("accel")."""
    keep = [a for a in axes if a not in KEEP_LONGEST] + [a for a in KEEP_LONGEST if a in axes]
    levels = []
    for i in range(len(keep)):
        key = tuple(a for a in axes if a in keep[i:])
        levels.append(("exact" if i == 0 else "accel" if len(key) == 1 else "partial", key))
    return levels


def read_plan(args):
    """The runner's plan: [{cell, reps, axes..., timeout, parallel}]."""
    cmd = [RUNNER, "--matrix", args.matrix]
    for s in args.set:
        cmd += ["--set", s]
    if args.shard:
        cmd += ["--shard", args.shard]
    text = _output(cmd + ["--print-axis", "plan"])
    axes = [a["name"] for a in describe()["axes"]]
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or rows[0] != ["cell", "reps"] + axes + ["timeout", "parallel", "kvm"]:
        die(f"{RUNNER} --print-axis plan printed no plan of this runner's axes (an older build? make runner)")
    plan = []
    for r in rows[1:]:
        cell = dict(zip(rows[0], r))
        cell["reps"], cell["timeout"] = int(cell["reps"]), int(cell["timeout"])
        cell["parallel"], cell["kvm"] = cell["parallel"] == "1", cell["kvm"] == "1"
        plan.append(cell)
    return plan, axes


# The reason the runner gives a KVM boot it skipped after a failed canary
# (bench/boot/sched.c: "KVM unusable: " and bench/rows/classify.c canary_reason()).
CANARY_SKIPPED = "KVM unusable: KVM canary boot "


def reference_runs(dirs):
    """Every boot with a host time of the runs in dirs: [(axes dict, s)],
    and whether any KVM boot of them was skipped after a failed canary.
    The runs are read by the runner's row rules (runlib.read_table): a bad
    row stops the estimate with the file and line, never a traceback."""
    boots, canary_failed = [], False
    for d in dirs:
        for r in read_table(d, "raw.csv"):
            v = r.get("host_exit_ns", "")
            if v and int(v) >= 0:  # none: a skipped boot, or a host time left out
                boots.append((r, int(v) / 1e9))
            elif r["accel"] == "kvm" and r["status"] == "skipped" and r.get("reason", "").startswith(CANARY_SKIPPED):
                canary_failed = True
    return boots, canary_failed


def default_runs():
    """The committed runs of studies/ (runlib.committed_runs) and
    the fixture runs."""
    return committed_runs() + [os.path.join(ROOT, "tests", "fixtures", d) for d in ("run", "arches")]


def kvm_unusable():
    """Why the runner will skip KVM cells here (its first check, bench/boot/qemu.c
    kvm_device_check(): /dev/kvm opens for reading and writing), or None.
    CRNGBENCH_ESTIMATE_KVM_DEVICE: another path to open (tests)."""
    dev = os.environ.get("CRNGBENCH_ESTIMATE_KVM_DEVICE") or "/dev/kvm"
    try:
        os.close(os.open(dev, os.O_RDWR | os.O_CLOEXEC))
    except OSError as e:
        return f"{dev}: {e.strerror}"
    return None


def kvm_mode(boots, canary_failed, no_kvm):
    """How KVM cells are estimated: "skipped" (/dev/kvm does not open: the
    runner skips them without a canary), "canary" (it opens, and the
    reference runs measured no KVM boot but skipped some after a failed
    canary: one canary boot, then nothing) or "estimated" (as any cell)."""
    if no_kvm:
        return "skipped"
    if canary_failed and not any(r["accel"] == "kvm" for r, _ in boots):
        return "canary"
    return "estimated"


def estimate(plan, axes, boots, kvm):
    """Each planned cell's estimate of one boot: (seconds, match, axes
    matched, reference boots matched)."""
    levels = match_levels(axes)
    index = []  # per level: key -> the indexes of its reference boots
    for _, key in levels:
        idx = {}
        for i, (r, _) in enumerate(boots):
            idx.setdefault(tuple(r[a] for a in key), []).append(i)
        index.append(idx)
    used = set()
    for cell in plan:
        if cell["kvm"] and kvm != "estimated":
            cell["est"], cell["match"], cell["keys"], cell["n_ref"] = 0.0, kvm, 0, 0
            continue
        for (kind, key), idx in zip(levels, index):
            hits = idx.get(tuple(cell[a] for a in key))
            if hits:
                used.update(hits)
                cell["est"] = statistics.median(boots[i][1] for i in hits)
                cell["match"], cell["keys"], cell["n_ref"] = kind, len(key), len(hits)
                break
        else:
            cell["est"], cell["match"], cell["keys"], cell["n_ref"] = float(cell["timeout"]), "bound", 0, 0
    return len(used)


def span(cells, at_once):
    """Host time of these boots run at_once at a time: their sum shared
    out, but never less than the longest boot."""
    total = sum(c["est"] * c["reps"] for c in cells)
    longest = max((c["est"] for c in cells), default=0.0)
    return max(total / at_once, longest)


def summary(plan, axes, boots, used, jobs, par_jobs, no_kvm, canary_s):
    nkeys = len(axes)
    groups = {}
    for c in plan:
        groups.setdefault((c["arch"], c["accel"]), []).append(c)
    out = []
    for (arch, accel), cells in groups.items():
        at_once = par_jobs if cells[0]["parallel"] else jobs
        per_boot = statistics.median(c["est"] for c in cells for _ in range(c["reps"]))
        kinds = {}
        for c in cells:
            k = kinds.setdefault(c["match"], {"boots": 0, "keys": []})
            k["boots"] += c["reps"]
            k["keys"].append(c["keys"])
        out.append({"arch": arch, "accel": accel, "boots": sum(c["reps"] for c in cells),
                    "parallel": cells[0]["parallel"], "at_once": at_once, "per_boot_s": per_boot,
                    "subtotal_s": canary_s if all(c["match"] == "canary" for c in cells) else span(cells, at_once),
                    "all_bound": all(c["match"] == "bound" for c in cells),
                    "match": {k: {"boots": v["boots"], "fewest_keys": min(v["keys"]), "most_keys": max(v["keys"])}
                              for k, v in kinds.items()}})
    par = [c for c in plan if c["parallel"]]
    ser = [c for c in plan if not c["parallel"]]
    canary_boots = sum(c["reps"] for c in plan if c["match"] == "canary")
    # the canary boots once, before the sweep, when a KVM cell is planned
    total = (span(par, par_jobs) if par else 0.0) + (span(ser, jobs) if ser else 0.0) + \
        (canary_s if canary_boots else 0.0)
    return {
        "boots": sum(c["reps"] for c in plan), "cells": len(plan), "jobs": jobs, "parallel_jobs": par_jobs,
        "total_s": total, "reference_boots": len(boots), "reference_boots_used": used,
        "bound_boots": sum(c["reps"] for c in plan if c["match"] == "bound"), "axes": nkeys,
        "skipped_boots": sum(c["reps"] for c in plan if c["match"] == "skipped"), "kvm_unusable": no_kvm,
        "canary_boots": canary_boots, "kvm_canary_s": canary_s,
        "groups": out,
        "plan": [{"cell": int(c["cell"]), "reps": c["reps"], "arch": c["arch"], "accel": c["accel"],
                  "est_s": c["est"], "match": c["match"], "keys": c["keys"], "reference_boots": c["n_ref"]}
                 for c in plan],
    }


def duration(s, hours=False):
    m, s = divmod(int(round(s)), 60)
    return (f"{m} min {s} s" if m else f"{s} s") + (f" ({m / 60:.1f} h)" if hours and m >= 60 else "")


def match_words(g, nkeys):
    words = {"exact": lambda v: "exact", "accel": lambda v: "fallback: accel only",
             "partial": lambda v: f"partial: {v['fewest_keys']}" +
             (f"-{v['most_keys']}" if v["most_keys"] != v["fewest_keys"] else "") + f" of {nkeys} axes",
             "bound": lambda v: "bound: timeout", "skipped": lambda v: "skipped: no KVM",
             "canary": lambda v: "canary only"}
    order = ("exact", "partial", "accel", "bound", "skipped", "canary")
    kinds = [k for k in order if k in g["match"]]
    if len(kinds) == 1:
        return words[kinds[0]](g["match"][kinds[0]])
    return ", ".join(f"{g['match'][k]['boots']} {words[k](g['match'][k])}" for k in kinds)


def print_table(s, out):
    w = max([len(g["arch"]) for g in s["groups"]] + [4])
    print(f"plan: {s['boots']} boots in {s['cells']} cells of {s['matrix']}"
          f"{' (shard ' + s['shard'] + ')' if s['shard'] else ''}; icount boots {s['parallel_jobs']} at once, "
          f"the others {s['jobs']} at once", file=out)
    print(f"  {'arch':<{w}} {'accel':<7} {'boots':>5} {'s/boot':>8} {'subtotal':>14}  match", file=out)
    for g in s["groups"]:
        per = ("<=" if g["all_bound"] else "") + f"{g['per_boot_s']:.1f}"
        print(f"  {g['arch']:<{w}} {g['accel']:<7} {g['boots']:>5} {per:>8} {duration(g['subtotal_s']):>14}  "
              f"{match_words(g, s['axes'])}", file=out)
    if s["kvm_unusable"] and s["skipped_boots"]:
        print(f"{s['skipped_boots']} KVM boots count as none: the runner will skip them ({s['kvm_unusable']})",
              file=out)
    if s["canary_boots"]:
        print(canary_words(s), file=out)
    print(f"estimated host time: ~{duration(s['total_s'], True)} (from {s['reference_boots_used']} reference boots; "
          f"{s['bound_boots']} boots estimated from the bound only)", file=out)


def canary_words(s):
    """What counting KVM cells as their canary boot means (the table's
    line; make reproduce's plan prints it too, from the JSON)."""
    return (f"{s['canary_boots']} KVM boots: one canary boot (<={s['kvm_canary_s']} s) first; in the reference runs "
            "every KVM cell was skipped after its canary made no progress, so they count as none; "
            "if KVM works here they take longer")


def runner_flags(words):
    """--jobs, --parallel-jobs, --shard and --kvm-canary of the run's own flags."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--jobs")
    p.add_argument("--parallel-jobs")
    p.add_argument("--shard")
    p.add_argument("--kvm-canary")
    known, _ = p.parse_known_args(words)
    return known


def whole(opt, v):
    try:
        n = int(v)
        if n >= 1:
            return n
    except ValueError:
        pass
    die(f"{opt} {v}: need a whole number of at least 1")


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # | head: no traceback
    argv = sys.argv[1:]
    rest = []
    if "--" in argv:
        argv, rest = argv[:argv.index("--")], argv[argv.index("--") + 1:]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matrix", required=True, help="the matrix file (bench/NAME.matrix, studies/*/NAME.matrix)")
    p.add_argument("--set", action="append", default=[], metavar="AXIS=V", help="as the runner's --set")
    p.add_argument("--shard", help="K/N: the plan of that shard")
    p.add_argument("--jobs", help="TCG/KVM boots at once (default: the runner's)")
    p.add_argument("--parallel-jobs", help="icount boots at once (default: the runner's)")
    p.add_argument("--kvm-canary", help="seconds of the KVM canary boot (default: the runner's)")
    p.add_argument("--from", dest="runs", action="append", metavar="DIR",
                   help="a reference run (repeatable; default: the committed runs of studies/ "
                        "and the fixture runs)")
    p.add_argument("--json", action="store_true", help="the estimate as JSON")
    args = p.parse_args(argv)
    flags = runner_flags(rest)
    args.shard = args.shard or flags.shard
    defaults = describe().get("default_jobs") or die(f"{RUNNER} --describe has no default_jobs (make runner)")
    jobs = whole("--jobs", args.jobs or flags.jobs or defaults["jobs"])
    par_jobs = whole("--parallel-jobs", args.parallel_jobs or flags.parallel_jobs or defaults["parallel_jobs"])
    if "kvm_canary_s" not in defaults:
        die(f"{RUNNER} --describe has no default_jobs.kvm_canary_s (make runner)")
    canary_s = whole("--kvm-canary", args.kvm_canary or flags.kvm_canary or defaults["kvm_canary_s"])

    plan, axes = read_plan(args)
    if not plan:
        die(f"the matrix {args.matrix} plans no boots" + (f" in shard {args.shard}" if args.shard else ""))
    boots, canary_failed = reference_runs(args.runs or default_runs())
    no_kvm = kvm_unusable()
    used = estimate(plan, axes, boots, kvm_mode(boots, canary_failed, no_kvm))
    s = dict(matrix=args.matrix, shard=args.shard,
             **summary(plan, axes, boots, used, jobs, par_jobs, no_kvm, canary_s))
    s["canary_note"] = canary_words(s) if s["canary_boots"] else ""
    if args.json:
        json.dump(s, sys.stdout, indent=1)
        print()
    else:
        print_table(s, sys.stdout)


if __name__ == "__main__":
    main()
