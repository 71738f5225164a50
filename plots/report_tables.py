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

from runlib import die, run_main
from tables_arches import arches_tables, entropy_tables
from tables_bases import bases_tables, fix_tables, systemd_tables
from tables_main import guest_table, hz_table, longwait_tables, sources_tables, tables
from tables_runs import answer_table, runs_table

import quoted


def main():
    ap = argparse.ArgumentParser(description="Regenerate REPORT.md's tables from runs.")
    ap.add_argument("run", help="the main run (results/<run>), or - to keep REPORT.md's main tables as they are")
    ap.add_argument("report", help="REPORT.md, or - for stdout")
    ap.add_argument("--hz", help="an hz-matrix run: chart 5's table")
    ap.add_argument("--guest", help="a guest-matrix run: the guest's own costs")
    ap.add_argument("--sources", help="a sources-matrix run: seeds and virtio-rng")
    ap.add_argument("--longwait", help="a longwait-matrix run: minutes without a counter, icount")
    ap.add_argument("--arches", help="an arches-matrix run: the revert's architectures")
    ap.add_argument("--entropy", help="an entropy-matrix run: what \"ready\" holds")
    ap.add_argument("--bases", help="a bases-matrix run: the kernel bases side by side")
    ap.add_argument("--systemd", help="a systemd-matrix run: systemd with PID 1's reads or a child's")
    ap.add_argument("--fix", help="a fix-matrix run: 32-bit kernels without and with patch 0008")
    ap.add_argument("--answer", help="the committed runs' directory (plots/runs): the first screen's answer")
    ap.add_argument("--runs", help="the committed runs' directory (plots/runs): the table of the runs themselves")
    ap.add_argument("--quoted", help="the committed runs' directory (plots/runs): the figures the prose quotes "
                    "(plots/quoted)")
    args = ap.parse_args()
    for d in (args.run if args.run != "-" else None, args.hz, args.guest, args.sources, args.longwait,
              args.arches, args.entropy, args.bases, args.systemd, args.fix):
        if d and not os.path.exists(os.path.join(d, "summary.csv")):
            die(f"{d}/summary.csv not found (a results/<run> directory?)")
    # Each run's tables live in a block of their own, so a report can be
    # regenerated from the runs at hand and keep the others' tables.
    blocks = [("main", tables(args.run))] if args.run != "-" else []
    for name, run, fn in (("hz", args.hz, hz_table), ("sources", args.sources, sources_tables),
                          ("guest", args.guest, guest_table), ("longwait", args.longwait, longwait_tables),
                          ("arches", args.arches, arches_tables), ("entropy", args.entropy, entropy_tables),
                          ("bases", args.bases, bases_tables), ("systemd", args.systemd, systemd_tables),
                          ("fix", args.fix, fix_tables),
                          ("answer", args.answer, answer_table), ("runs", args.runs, runs_table),
                          ("quoted", args.quoted, quoted.table)):
        if run:
            blocks.append((name, fn(run)))
    if args.report == "-":
        print("\n".join(text for _, text in blocks))
        return
    with open(args.report) as f:
        doc = f.read()
    for name, text in blocks:
        begin, end = f"<!-- tables:{name}:begin -->", f"<!-- tables:{name}:end -->"
        if begin not in doc or end not in doc:
            sys.exit(f"report_tables.py: error: {args.report} has no {begin} ... {end} markers")
        head, rest = doc.split(begin, 1)
        _, tail = rest.split(end, 1)
        doc = head + begin + "\n" + text + "\n" + end + tail
    with open(args.report + ".tmp", "w") as f:
        f.write(doc)
    os.replace(args.report + ".tmp", args.report)
    print(f"[report] tables in {args.report} regenerated: " + ", ".join(n for n, _ in blocks))


if __name__ == "__main__":
    run_main(main)
