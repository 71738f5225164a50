#!/usr/bin/env python3
"""Generate REPORT.md's tables from a run's summary.csv (make report).

    plots/report_tables.py RUN_DIR REPORT.md|- [--hz HZ_RUN_DIR] [--guest GUEST_RUN_DIR]
                           [--sources SOURCES_RUN_DIR] [--longwait LONGWAIT_RUN_DIR] [--fix FIX_RUN_DIR]
                           [--arches ARCHES_RUN_DIR] [--entropy ENTROPY_RUN_DIR]
                           [--bases BASES_RUN_DIR] [--answer RUNS] [--runs RUNS] [--quoted RUNS]

Replaces the text between "<!-- tables:begin -->" and "<!-- tables:end -->"
in REPORT.md, so the numbers can never drift from the data. With "-" as the
report, prints the tables to stdout instead. Every number comes from
summary.csv, which the runner computed from raw.csv. This is the command
line alone: the Markdown primitives are markup.py's, a cell's figures
cells.py's, the tables tables_*.py's (one module per group of blocks).
"""
import argparse
import os
import sys

from runlib import die, fact_rows, replacing, run_main
from tables_arches import arches_tables, entropy_tables
from tables_bases import bases_tables, fix_tables, systemd_tables, waiters_tables
from tables_main import guest_table, hz_table, longwait_tables, sources_tables, tables
from tables_runs import answer_table, runs_table

import quoted


# Each report kind and its builder, with the help its option shows. The
# kinds themselves are bench/report-runs' (the one registry of report
# blocks: its report column): a kind it names without a builder here is an
# error, and only its kinds become options. A new kind is one row there
# plus one entry here (and its tables:<kind> markers in REPORT.md).
BUILDERS = {
    "hz": (hz_table, "an hz-matrix run: chart 5's table"),
    "sources": (sources_tables, "a sources-matrix run: seeds and virtio-rng"),
    "guest": (guest_table, "a guest-matrix run: the guest's own costs"),
    "longwait": (longwait_tables, "a longwait-matrix run: minutes without a counter, icount"),
    "arches": (arches_tables, "an arches-matrix run: the revert's architectures"),
    "entropy": (entropy_tables, "an entropy-matrix run: what \"ready\" holds"),
    "bases": (bases_tables, "a bases-matrix run: the kernel bases side by side"),
    "systemd": (systemd_tables, "a systemd-matrix run: systemd with PID 1's reads or a child's"),
    "fix": (fix_tables, "a fix-matrix run: 32-bit kernels without and with patch 0008"),
    "waiters": (waiters_tables, "a waiters-matrix run: several tasks waiting at once, without and with patch 0009"),
}
# REPORT.md's block markers begin so: "<!-- tables:NAME:begin -->" ... "end -->"
MARKER = "<!-- tables:"
# The blocks of the committed runs' directory, not of one run.
RUNS_BLOCKS = (("answer", answer_table, "the first screen's answer"),
               ("runs", runs_table, "the table of the runs themselves"),
               ("quoted", quoted.table, "the figures the prose quotes (plots/quoted)"))


def kinds():
    """bench/report-runs' report kinds in its order (main and '-' aside),
    each with a builder."""
    out = []
    for line, r in fact_rows("bench/report-runs"):
        k = r.get("report", "")
        if k in ("", "main") or k in out:
            continue
        if k not in BUILDERS:
            die(f"bench/report-runs line {line}: report '{k}' has no builder in plots/report_tables.py's BUILDERS "
                f"({', '.join(BUILDERS)}); a new kind is a row there and a builder here")
        out.append(k)
    return out


def main():
    ap = argparse.ArgumentParser(description="Regenerate REPORT.md's tables from runs.")
    ap.add_argument("run", help="the main run (results/<run>), or - to keep REPORT.md's main tables as they are")
    ap.add_argument("report", help="REPORT.md, or - for stdout")
    for k in kinds():
        ap.add_argument(f"--{k}", help=BUILDERS[k][1])
    for k, _, what in RUNS_BLOCKS:
        ap.add_argument(f"--{k}", help=f"the committed runs' directory (studies): {what}")
    args = vars(ap.parse_args())
    for d in [args["run"] if args["run"] != "-" else None] + [args[k] for k in kinds()]:
        if d and not os.path.exists(os.path.join(d, "summary.csv")):
            die(f"{d}/summary.csv not found (a results/<run> directory?)")
    # Each run's tables live in a block of their own, so a report can be
    # regenerated from the runs at hand and keep the others' tables.
    blocks = [("main", tables(args["run"]))] if args["run"] != "-" else []
    for name, run, fn in ([(k, args[k], BUILDERS[k][0]) for k in kinds()]
                          + [(k, args[k], fn) for k, fn, _ in RUNS_BLOCKS]):
        if run:
            blocks.append((name, fn(run)))
    if args["report"] == "-":
        print("\n".join(text for _, text in blocks))
        return
    with open(args["report"], encoding="utf-8") as f:
        doc = f.read()
    for name, text in blocks:
        # a run's text shown as it is (a code span: host_cpu, a run's path)
        # can hold the markers' own words: the block would end there, and
        # the next make report keep the rest as REPORT.md's text
        if MARKER in text:
            die(f"the tables:{name} block holds '{MARKER}', the text of REPORT.md's block markers "
                f"(from a run's text: {text[max(0, text.index(MARKER) - 40):text.index(MARKER) + 40]!r}): "
                f"refused, {args['report']} unchanged")
    for name, text in blocks:
        begin, end = f"{MARKER}{name}:begin -->", f"{MARKER}{name}:end -->"
        if begin not in doc or end not in doc:
            sys.exit(f"report_tables.py: error: {args['report']} has no {begin} ... {end} markers")
        head, rest = doc.split(begin, 1)
        _, tail = rest.split(end, 1)
        doc = head + begin + "\n" + text + "\n" + end + tail
    # a fresh file beside it, renamed over it: never REPORT.md.tmp, which
    # a checkout could carry as a link to a file elsewhere
    with replacing(args["report"]) as tmp, open(tmp, "w", encoding="utf-8") as f:
        f.write(doc)
    print(f"[report] tables in {args['report']} regenerated: " + ", ".join(n for n, _ in blocks))


if __name__ == "__main__":
    run_main(main)
