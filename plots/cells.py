"""The cells of REPORT.md's tables: a summary row's median [CI] (fmt, ms),
a table of one measure per condition and variant (table), a run's
summary.csv labelled with its conditions (summary_rows), a run's name
(run_name). Every number comes from summary.csv, which the runner computed
from raw.csv."""
import statistics

from markup import code, md, row
from runlib import condition, pick, run_label, run_variants, varying
from runlib import summary_rows as _summary_rows


def fmt(r):
    """median [CI] as the runner computed them, censoring shown as '>';
    "identical in k boots" where summary.csv's stop says so (a run older
    than the stop column has none: its cells as before). Under a
    millisecond, in microseconds from raw.csv's ns (micro())."""
    if r["n"] == "0" or r["median_ms"] == "":
        return "not measured" if "not measured" in r["note"] else "no data"
    cens = ">" if r["median_censored"] == "1" else ""
    small = None if cens else micro(r)
    if r.get("stop") == "identical" and r["min_ms"] == r["max_ms"]:  # the stop rule's: no CI to give
        return f"{cens}{small[0] if small else ms(r['median_ms'])} (identical in {r['boots']} boots)"
    if small:
        return "{} [{}, {}]".format(*small)  # the CI in the median's unit
    return f"{cens}{ms(r['median_ms'])} [{ms(r['ci95_lo_ms'])}, {ms(r['ci95_hi_ms'])}]"


US_BELOW_MS = 1  # a time under this many ms is shown in microseconds


def us(ns, sep=" "):
    """A time in microseconds, to 0.1 us, its unit marked: "3.5 us" (the
    tables), "3.5us" (the mail's answer table, sep=""). The one definition
    of how a sub-millisecond time is shown."""
    return f"{ns / 1e3:.1f}{sep}us"


def span(lo_ns, hi_ns):
    """A range of times from raw ns, "a-b ms", or "a-b us" where both are
    under US_BELOW_MS."""
    if hi_ns < US_BELOW_MS * 1e6:
        return f"{us(lo_ns)[:-3]}-{us(hi_ns)}"
    return f"{ms(f'{lo_ns / 1e6:.6f}')}-{ms(f'{hi_ns / 1e6:.6f}')} ms"


def micro(r):
    """A summary row's median as a us() text and its CI bounds as numbers
    of us (shown after it, in its unit), from the cell's
    boots in raw.csv (runlib.summary_rows' "_ns"), where its median is under
    US_BELOW_MS and every boot of n has the value uncensored; else None.
    summary.csv rounds to the microsecond (0.003 against 0.004 ms for reads
    3499 and 3514 ns long): the median is raw.csv's, and must round to
    summary.csv's; a CI bound is the value of the boots (one, or the mean
    of two: what a bootstrap median can be) that rounds to summary.csv's
    bound, where all such values read alike at 0.1 us, else summary.csv's
    bound at its own precision."""
    vals = r.get("_ns") or []
    if float(r["median_ms"]) >= US_BELOW_MS or len(vals) != int(r["n"]):
        return None
    med = statistics.median(vals)
    if f"{med / 1e6:.3f}" != f"{float(r['median_ms']):.3f}":
        return None  # not the runner's median of these boots: summary.csv's figures stand

    def bound(text):
        cands = set(vals) | {(a + b) / 2 for a in vals for b in vals}
        shown = {us(c) for c in cands if f"{c / 1e6:.3f}" == f"{float(text):.3f}"}
        return shown.pop()[:-3] if len(shown) == 1 else f"{float(text) * 1e3:.0f}"
    return us(med), bound(r["ci95_lo_ms"]), bound(r["ci95_hi_ms"])


def ms(text):
    """Milliseconds at a precision that shows sub-millisecond reads."""
    v = float(text)
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}" if v >= 1 else f"{v:.3f}"


def table(rows, measure, title, where=lambda r: True, accel="tcg"):
    sel = [r for r in rows if r["measure"] == measure and r["accel"] == accel and where(r)]
    conds = sorted({r["_cond"] for r in sel})
    if not sel:
        return f"### {title}\n\nNot measured in this run.\n"
    out = [f"### {title}\n",
           "median ms (under 1 ms: us, from raw.csv's ns) [95% bootstrap CI of the median]; n boots (censored)\n",
           row("condition", *(md(v) for v in run_variants(rows))),
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
    return code(run_label(run))
