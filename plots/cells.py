"""The cells of REPORT.md's tables: a summary row's median [CI] (fmt, ms),
a table of one measure per condition and variant (table), a run's
summary.csv labelled with its conditions (summary_rows), a run's name
(run_name). Every number comes from summary.csv, which the runner computed
from raw.csv; but the guest's interrupts (interrupts_table, the quick and
longwait studies' table), raw.csv's counts as the boots reported them."""
import statistics

from markup import code, md, row
from runlib import (CLOCK_WORDS, condition, measured, pick, read_table, run_label, run_variants, variant_order,
                    varying)
from runlib import summary_rows as _summary_rows


# A CRNG ready the kernel logged before its clock started: the probe
# clamps that time to 0 (guest-image/emit.c), no time but a bound. It is
# said in these words wherever a figure would be (tables, charts, mails),
# never as 0.000; the runner's terminal table says the same
# (bench/summary/summary.c, BEFORE_CLOCK).
BEFORE_CLOCK = "before timekeeping"
CLAMPED_MEASURES = ("crng_ready", "crng_ready_kmsg")


def before_clock(r, key="median_ms"):
    """Whether a summary row's figure (key: median_ms, ci95_lo_ms,
    ci95_hi_ms) is a clamped CRNG ready: 0 of a CRNG ready measure, not
    censored (a real ready at 0 ns of guest time cannot be)."""
    cens = {"median_ms": "median_censored", "ci95_hi_ms": "ci_censored"}.get(key)
    return (r.get("measure") in CLAMPED_MEASURES and r.get(key, "") not in ("", None) and float(r[key]) == 0
            and not (cens and r.get(cens) == "1"))


def clock_bound(r):
    """A clamped CRNG ready cell in words ("before timekeeping", with the
    CI's upper end where some boots had a time), or None."""
    if not before_clock(r, "median_ms") and not before_clock(r, "ci95_lo_ms"):
        return None
    if before_clock(r, "ci95_hi_ms"):
        return BEFORE_CLOCK
    hi = ms(r["ci95_hi_ms"])
    if before_clock(r, "median_ms"):
        return f"{BEFORE_CLOCK} [CI to {hi}]"
    return f"{ms(r['median_ms'])} [{BEFORE_CLOCK}, {hi}]"


def fmt(r):
    """median [CI] as the runner computed them, censoring shown as '>';
    "identical in k boots" where summary.csv's stop says so (a run older
    than the stop column has none: its cells as before); a clamped CRNG
    ready in words (clock_bound). Under a millisecond, in microseconds
    from raw.csv's ns (micro())."""
    if r["n"] == "0" or r["median_ms"] == "":
        return "not measured" if "not measured" in r["note"] else "no data"
    if clock_bound(r):
        return clock_bound(r)
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


def interrupts_table(run, accel):
    """The guest's interrupt counts when the report ran (raw.csv, as each
    boot reported them: the range over boots, no statistic)."""
    raw = [r for r in measured(read_table(run, "raw.csv")) if r["accel"] == accel and r.get("irq_timer", "")]
    if not raw:
        return f"### Guest interrupts ({accel})\n\nNot recorded in this run.\n"
    axes = varying(raw)
    out = [f"### Guest interrupts (`/proc/interrupts`) at the report, {CLOCK_WORDS[accel]}\n",
           "per cell, over its boots (min-max where they differ): IRQ 0 (the PIT/HPET tick, through "
           "`handle_irq_event_percpu()`), LOC (the LAPIC timer, which is not), when the report ran (s)\n",
           "| condition | variant | n | IRQ 0 | LOC | all numbered IRQs | report at (s) |",
           "|---|---|---|---|---|---|---|"]
    def span(xs, k=1):
        lo, hi = (f"{x / k:.{0 if k == 1 else 1}f}" for x in (min(xs), max(xs)))
        return lo if lo == hi else f"{lo}-{hi}"
    cells = sorted({(condition(r, axes), r["variant"]) for r in raw}, key=lambda c: (c[0], variant_order(c[1])))
    for c, v in cells:
        sel = [r for r in raw if condition(r, axes) == c and r["variant"] == v]
        col = lambda k: [int(r[k]) for r in sel if r[k]]
        out.append(row(md(c), md(v), len(sel), span(col('irq_timer')), span(col('irq_local_timer')),
                       span(col('irq_devices')), span(col('report_ns'), 1e9)))
    return "\n".join(out) + "\n"
