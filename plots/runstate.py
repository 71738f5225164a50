#!/usr/bin/env python3
"""How far a results directory's run got (make reproduce: skip, resume or
start it).

    plots/runstate.py DIR

Prints one line:
    none                    DIR does not exist or is empty: a run to start
    partial DONE PLANNED    a run of crngbench-run holding DONE of its
                            PLANNED boots (or all of them but no
                            summary.csv yet): --resume finishes it
    complete N              every planned boot has its row, or every cell
                            stopped by the stop rule (summary.csv's stop
                            column, bench/summary/stop.h), and summary.csv: N boots
A run's plan is the runner's (crngbench-run --matrix DIR/run.matrix
--shard K/N --print-axis plan, K/N from DIR/run.args): each planned cell
and its number of boots (in a shard, some of the cell's reps). A row is a
boot of raw.csv (read by the runner's row rules, runlib.read_table),
whatever its status; the runner refuses a row its plan does not have, so
a cell with as many rows as its planned boots is done. A directory that holds
files but no run.matrix is not a run: an error, as the runner says.
"""
import csv
import io
import os
import sys

from runlib import INTEGER, RUNNER, _output, check_path, die, open_run_file, read_table


def shard(run):
    """K/N of DIR/run.args ("shard = K/N"); 1/1 without the line."""
    f = open_run_file(os.path.join(run, "run.args"), missing_ok=True)
    if f is None:
        return "1/1"
    with f:
        for line in f.read().splitlines():
            if line.startswith("shard = "):
                v = line[len("shard = "):]
                k, _, n = v.partition("/")
                # the one integer rule: ASCII digits ('²'.isdigit(), and int() refuses it)
                if not (INTEGER.match(k) and INTEGER.match(n) and 1 <= int(k) <= int(n)):
                    die(f"{run}/run.args: shard '{v}' is not K/N")
                return v
    return "1/1"


def planned(run):
    """{cell: reps} of the run's plan (of its shard: a shard boots some of
    a cell's reps, which the plan counts but does not name)."""
    text = _output([RUNNER, "--matrix", os.path.join(run, "run.matrix"), "--shard", shard(run),
                    "--print-axis", "plan"])
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or rows[0][:2] != ["cell", "reps"]:
        die(f"{RUNNER} --print-axis plan printed no plan (an older build? make runner)")
    return {r[0]: int(r[1]) for r in rows[1:]}


def stopped(run, plan, done):
    """Has every planned cell its boots and a verdict of the stop rule
    (summary.csv's stop: empty for a cell the rule would go on with)?"""
    rows = read_table(run, "summary.csv")
    return all(c in done for c in plan) and bool(rows) and all(r.get("stop") for r in rows)


def state(run):
    check_path(run)
    if not os.path.lexists(run) or (os.path.isdir(run) and not os.listdir(run)):
        return "none"
    if not os.path.isdir(run) or os.path.islink(run):
        die(f"{run} is not a directory")
    if not os.path.lexists(os.path.join(run, "run.matrix")):
        die(f"{run} holds files but no run (no run.matrix written by crngbench-run): move it aside")
    plan = planned(run)
    done = {}
    for r in read_table(run, "raw.csv", missing_ok=True) or []:
        done[r["cell"]] = done.get(r["cell"], 0) + 1
    over = [c for c, n in done.items() if n > plan.get(c, 0)]
    if over:
        die(f"{run}/raw.csv holds more boots of cell {over[0]} than its plan ({done[over[0]]} against "
            f"{plan.get(over[0], 0)}): not a run of its run.matrix")
    ndone, nplan = sum(done.values()), sum(plan.values())
    if os.path.isfile(os.path.join(run, "summary.csv")) and (ndone == nplan or stopped(run, plan, done)):
        return f"complete {ndone}"
    return f"partial {ndone} {nplan}"


def main():
    if len(sys.argv) != 2:
        die("usage: plots/runstate.py DIR")
    print(state(sys.argv[1]))


if __name__ == "__main__":
    main()
