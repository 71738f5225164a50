#!/usr/bin/env python3
"""Generate REPORT.md's tables from a run's summary.csv (make report).

    plots/report_tables.py RUN_DIR REPORT.md|- [--STUDY DIR]... [--answer STUDIES]
                           [--runs STUDIES] [--quoted STUDIES]
    plots/report_tables.py --run-report RUN_DIR CHART...

Replaces the text between "<!-- tables:NAME:begin -->" and "<!-- tables:NAME:end -->"
in the page of the report that holds them (REPORT.md, studies/README.md or
a study's studies/<name>/README.md beside it: runlib.pages()), so the
numbers can never drift from the data. With "-" as the
report, prints the tables to stdout instead. Every number comes from
summary.csv, which the runner computed from raw.csv. RUN_DIR fills the
main block ("-": kept as it is); --STUDY DIR fills the block of a study
of studies/ (its folder's tables.py, tables(run): the folder is the
registry, an unknown name is refused with the list); --answer, --runs
and --quoted take the studies folder (studies/, or a copy). This is the
command line and the block engine alone: the Markdown primitives are
markup.py's, a cell's figures cells.py's.

--run-report writes the run's own report, RUN_DIR/report.md (make report
RUN=..., through plots/report.sh --run, which checks the charts first):
the main tables of RUN_DIR and the charts named, RUN_DIR/plots/CHART.png
(names of plots/runlib.py's CHARTS); REPORT.md is not read or written.
"""
import os
import sys

from runlib import CHARTS, die, pages, replacing, run_main, studies, study_code, tracing
from tables_runs import answer_table, runs_table

import quoted


# REPORT.md's block markers begin so: "<!-- tables:NAME:begin -->" ... "end -->"
MARKER = "<!-- tables:"
# The blocks of the committed runs' directory (studies/), not of one run.
RUNS_BLOCKS = {"answer": answer_table, "runs": runs_table, "quoted": quoted.table}


def study_tables(name):
    """A study's tables(run), from its folder's tables.py."""
    mod = study_code(name)
    if mod is None:
        die(f"studies/{name}/study names a block, and studies/{name}/tables.py (its tables(run)) does not exist")
    if not callable(getattr(mod, "tables", None)):
        die(f"studies/{name}/tables.py has no tables(run)")
    return mod.tables


def block_studies():
    """The studies with a block of their own (block: its name), in order."""
    out = []
    for name, f in studies().items():
        if f.get("block") not in ("", "main", name):
            die(f"studies/{name}/study: block '{f.get('block')}' is none of main, {name}, '-'")
        if f.get("block") == name:
            out.append(name)
    return out


def parse(argv):
    """(run, report, {option: DIR}): --NAME DIR or --NAME=DIR, NAME a
    study with a block or a committed-runs block; anything else refused,
    naming what is accepted."""
    names = block_studies()
    usage = ("usage: plots/report_tables.py RUN_DIR|- REPORT.md|-" + "".join(f" [--{n} DIR]" for n in names)
             + " [--answer STUDIES] [--runs STUDIES] [--quoted STUDIES]")
    pos, opts, args = [], {}, list(argv)
    while args:
        a = args.pop(0)
        if a == "--":
            pos += args
            break
        if not a.startswith("--") or a == "--":
            pos.append(a)
            continue
        k, eq, v = a[2:].partition("=")
        if k not in names and k not in RUNS_BLOCKS:
            die(f"unknown option --{k}: a study with a block of REPORT.md is one of the folders of studies/ "
                f"({', '.join(names)}), or answer, runs, quoted; {usage}")
        if not eq:
            if not args:
                die(f"--{k} needs a directory; {usage}")
            v = args.pop(0)
        if k in opts:
            die(f"--{k} given twice")
        opts[k] = v
    if len(pos) != 2:
        die(usage)
    return pos[0], pos[1], names, opts


def main_study():
    """The study whose tables are the main run's (block main)."""
    return next((n for n, f in studies().items() if f.get("block") == "main"), None)


def run_report(run, charts):
    """RUN/report.md: the run's main tables and its charts beside it."""
    bad = [c for c in charts if c not in CHARTS]
    if bad or not charts:
        die(f"--run-report RUN_DIR CHART...: {' '.join(bad) or 'no chart'} is none of the charts {', '.join(CHARTS)}")
    if not os.path.exists(os.path.join(run, "summary.csv")):
        die(f"{run}/summary.csv not found (a results/<run> directory?)")
    if main_study() is None:
        die("no study of studies/ has block main (the main run's tables)")
    text = tracing(run) + study_tables(main_study())(run)
    pics = "\n\n".join(f"![{c}](plots/{c}.png)" for c in charts)
    doc = f"# The run's report\n\n{text}\n\n## Charts\n\n{pics}\n"
    out = os.path.join(run, "report.md")
    with replacing(out) as tmp, open(tmp, "w", encoding="utf-8") as f:
        f.write(doc)
    print(f"[report] {out}: the run's tables and its charts ({', '.join(charts)})")


def main():
    if sys.argv[1:2] == ["--run-report"]:
        if len(sys.argv) < 4:
            die("usage: plots/report_tables.py --run-report RUN_DIR CHART...")
        return run_report(sys.argv[2], sys.argv[3:])
    run, report, names, opts = parse(sys.argv[1:])
    for d in [run if run != "-" else None] + [opts.get(k) for k in names]:
        if d and not os.path.exists(os.path.join(d, "summary.csv")):
            die(f"{d}/summary.csv not found (a results/<run> directory?)")
    # Each run's tables live in a block of their own, so a report can be
    # regenerated from the runs at hand and keep the others' tables.
    main_name = main_study()
    if run != "-" and main_name is None:
        die("no study of studies/ has block main (the main run's tables)")
    blocks = [("main", tracing(run) + study_tables(main_name)(run))] if run != "-" else []
    for name in names:
        if opts.get(name):
            blocks.append((name, tracing(opts[name]) + study_tables(name)(opts[name])))
    for name, fn in RUNS_BLOCKS.items():
        if opts.get(name):
            blocks.append((name, fn(opts[name])))
    if report == "-":
        print("\n".join(text for _, text in blocks))
        return
    # each block lives in the one page of the report that holds its
    # markers: REPORT.md, or a study's page (studies/<name>/README.md)
    docs = {}
    for p in pages(report):
        with open(p, encoding="utf-8") as f:
            docs[p] = f.read()
    for name, text in blocks:
        # a run's text shown as it is (a code span: host_cpu, a run's path)
        # can hold the markers' own words: the block would end there, and
        # the next make report keep the rest as the page's text
        if MARKER in text:
            die(f"the tables:{name} block holds '{MARKER}', the text of REPORT.md's block markers "
                f"(from a run's text: {text[max(0, text.index(MARKER) - 40):text.index(MARKER) + 40]!r}): "
                f"refused, {report} unchanged")
    changed = []
    for name, text in blocks:
        begin, end = f"{MARKER}{name}:begin -->", f"{MARKER}{name}:end -->"
        where = [p for p, doc in docs.items() if begin in doc and end in doc]
        if len(where) != 1:
            sys.exit(f"report_tables.py: error: {' and '.join(where) if where else 'none of ' + ', '.join(docs)} "
                     f"{'hold' if where else 'holds'} {begin} ... {end} markers: a block lives in exactly one page")
        p = where[0]
        head, rest = docs[p].split(begin, 1)
        _, tail = rest.split(end, 1)
        docs[p] = head + begin + "\n" + text + "\n" + end + tail
        changed += [p] if p not in changed else []
    # a fresh file beside it, renamed over it: never REPORT.md.tmp, which
    # a checkout could carry as a link to a file elsewhere
    for p in changed:
        with replacing(p) as tmp, open(tmp, "w", encoding="utf-8") as f:
            f.write(docs[p])
    print(f"[report] tables in {', '.join(os.path.relpath(p) for p in changed)} regenerated: "
          + ", ".join(n for n, _ in blocks))

if __name__ == "__main__":
    run_main(main)
