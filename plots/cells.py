"""The cells of REPORT.md's tables: a summary row's median [CI] (fmt, ms),
a table of one measure per condition and variant (table), a run's
summary.csv labelled with its conditions (summary_rows), a run's name
(run_name). Every number comes from summary.csv, which the runner computed
from raw.csv."""
import os

from markup import code, md, row
from runlib import condition, pick, run_variants, varying
from runlib import summary_rows as _summary_rows


def fmt(r):
    """median [CI] as the runner computed them, censoring shown as '>';
    "identical in k boots" where summary.csv's stop says so (a run older
    than the stop column has none: its cells as before)."""
    if r["n"] == "0" or r["median_ms"] == "":
        return "not measured" if "not measured" in r["note"] else "no data"
    cens = ">" if r["median_censored"] == "1" else ""
    if r.get("stop") == "identical" and r["min_ms"] == r["max_ms"]:  # the stop rule's: no CI to give
        return f"{cens}{ms(r['median_ms'])} (identical in {r['boots']} boots)"
    return f"{cens}{ms(r['median_ms'])} [{ms(r['ci95_lo_ms'])}, {ms(r['ci95_hi_ms'])}]"


def ms(text):
    """Milliseconds at a precision that shows sub-millisecond reads."""
    v = float(text)
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}" if v >= 1 else f"{v:.3f}"


def table(rows, measure, title, where=lambda r: True, accel="tcg"):
    sel = [r for r in rows if r["measure"] == measure and r["accel"] == accel and where(r)]
    conds = sorted({r["_cond"] for r in sel})
    if not sel:
        return f"### {title}\n\nNot measured in this run.\n"
    out = [f"### {title}\n", "median ms [95% bootstrap CI of the median]; n boots (censored)\n",
           row("condition", *run_variants(rows)),
           "|---|" + "---|" * len(run_variants(rows))]
    for c in conds:
        cells = []
        for v in run_variants(rows):
            r = pick(sel, _cond=c, variant=v)
            if r is None:
                cells.append("")
                continue
            n = f"n={r['n']}" + (f" ({r['censored']} censored)" if r["censored"] not in ("0", "") else "")
            cells.append(f"{fmt(r)}; {n}")
        out.append(row(md(c), *cells))
    return "\n".join(out) + "\n"


def summary_rows(run):
    """A run's summary.csv, each row labelled with its condition in the
    words of the axes that vary in that run."""
    rows = _summary_rows(run)
    axes = varying(rows)
    for r in rows:
        r["_cond"] = condition(r, axes)
    return rows


def run_name(run):
    """A run's directory name as a code span."""
    return code(os.path.basename(os.path.normpath(run)))
