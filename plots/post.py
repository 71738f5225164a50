#!/usr/bin/env python3
"""Write a run's results as plain text for a kernel list: the report's
companion, studies/<study>/run/post.txt (make report FROM=committed,
scripts/regen-report.sh). The mail make post writes is plots/runmail.py's.

    plots/post.py RUN_DIR [--hz HZ_RUN_DIR] [--arches DIR] [--answer RUNS]

Writes RUN_DIR/post.txt (Documentation/process/email-clients.rst: plain
text, lines of at most 80 columns, no trailing white space, no HTML or
Markdown tables, no attachment). Every figure comes from summary.csv and
meta.json as the runner wrote them; the text charts are
RUN_DIR/plots/<chart>.txt (plots/render.sh draws them first). Nothing
measured is typed in. Only the charts that fit the run (runlib.CHARTS)
are read, never another file of its plots/, and a text chart holding a
control character is refused. Nothing is read or written through a
symbolic link (a post.txt linked elsewhere would be overwritten).
"""
import argparse
import os
import textwrap

from cells import BEFORE_CLOCK, before_clock, micro, ms, summary_rows
from runlib import (ACCEL_WORDS, CHARTS, CLOCK_WORDS, CONTROL, JITTER_TICKS, charts_for, check_path, die, headline_accel,
                    jitter_rows, jitter_ticks_ms, kernel_base, open_new, open_run_file, pick, read_meta, read_table,
                    refuse_link, release, run_label, run_main, run_variants)
from runmail import reproduce
from tables_runs import ANSWER_FLOOR_MS, ANSWER_NO_STOCK, answer_rows


def wrap(text, indent=""):
    return textwrap.wrap(text, 78 - len(indent), initial_indent=indent, subsequent_indent=indent,
                         break_long_words=True, break_on_hyphens=False)


def med(r):
    """A summary row's median as the tables print it ('>' when censored;
    under a millisecond in us, cells.micro; a clamped CRNG ready in
    words, cells.BEFORE_CLOCK)."""
    if r is None or not r["median_ms"]:
        return None
    if before_clock(r):
        return BEFORE_CLOCK
    small = None if r["median_censored"] == "1" else micro(r)
    return small[0] if small else (">" if r["median_censored"] == "1" else "") + ms(r["median_ms"])


def timed(r):
    """med(r) with its unit: "12.5 ms", or "3.5 us" as med() gives it."""
    m = med(r)
    return m if m.endswith(" us") or m == BEFORE_CLOCK else f"{m} ms"


def ci(r):
    """A summary row's CI "lo - hi" (us as med() gives them; a clamped
    CRNG ready bound in words)."""
    small = None if r["median_censored"] == "1" or before_clock(r, "ci95_lo_ms") else micro(r)
    if small:
        return f"{small[1]} - {small[2]} us"
    lo, hi = ((BEFORE_CLOCK if before_clock(r, k) else ms(r[k])) for k in ("ci95_lo_ms", "ci95_hi_ms"))
    return lo if lo == hi == BEFORE_CLOCK else f"{lo} - {hi}"


def columns(head, rows):
    """A fixed-width table of the mail: head [(title, width, '<' or '>',
    spaces before)], rows of cells. The first column keeps its width: a
    cell longer goes whole on a line of its own (wrapped to the table's
    width) above its rows, which leave it blank, once per run of rows
    with that cell. Every other column is as wide as its widest cell or
    its title (a run's names whole, never cut): no column shifts, no row
    is wider than the head (the last column right-aligned: its title
    ends where its cells do). A row of fewer cells ends in a note, which
    takes the rest of the line (cut to it)."""
    full = [r for r in rows if len(r) == len(head)]
    widths = [head[0][1]] + [max([w, len(t)] + [len(r[i]) for r in full])
                             for i, (t, w, _, _) in enumerate(head) if i]
    total = sum(widths) + sum(g for _, _, _, g in head)

    def line(cells):
        out = ""
        for i, (c, (_, _, a, g), w) in enumerate(zip(cells, head, widths)):
            out += " " * g
            out += c[:total - len(out)] if len(cells) < len(head) and i == len(cells) - 1 else f"{c:{a}{w}}"
        return out.rstrip()
    out, last = [line([t for t, _, _, _ in head])], None
    for r in rows:
        if len(r[0]) > widths[0]:
            if r[0] != last:
                g = " " * head[0][3]
                out += textwrap.wrap(r[0], total, initial_indent=g, subsequent_indent=g, break_on_hyphens=False)
            last, r = r[0], [""] + r[1:]
        else:
            last = None
        out.append(line(r))
    return out


def table(rows, measure, title, accel="tcg"):
    """Rows: condition, variant, median, 95% CI, n (censored); every
    variant of the run (run_variants), each condition and variant whole."""
    sel = [r for r in rows if r["measure"] == measure and r["accel"] == accel]
    body = []
    for c in sorted({r["_cond"] for r in sel}):
        for v in run_variants(sel):
            r = pick(sel, _cond=c, variant=v)
            if r is None:
                continue
            if med(r) is None:
                body.append([c, v, "-", r["note"]])
                continue
            n = r["n"] + (f" ({r['censored']} >)" if r["censored"] not in ("0", "") else "")
            body.append([c, v, med(r), ci(r), n])
    head = [("condition", 24, "<", 2), ("variant", 9, "<", 1), ("median", 9, ">", 1),
            ("95% CI of the median", 22, "<", 2), ("n (>)", 0, ">", 1)]
    return [title, ""] + columns(head, body) + [""]


def hz_table(run):
    rows = jitter_rows(summary_rows(run))
    body = []
    for hz in sorted({int(r["hz"]) for r in rows}):
        for v in run_variants(rows):
            r = pick(rows, hz=str(hz), variant=v)
            if r is not None and med(r) is not None:
                body.append([str(hz), f"{jitter_ticks_ms(hz):.0f}", v, med(r), ci(r), r["n"]])
    head = [("CONFIG_HZ", 10, "<", 2), (f"{JITTER_TICKS}/HZ ms", 9, ">", 1), ("variant", 9, "<", 2),
            ("median", 9, ">", 1), ("95% CI", 18, "<", 2), ("n", 0, ">", 1)]
    return ["The jitter loop's cost against CONFIG_HZ (first blocking urandom read,",
            f"cpu=qemu64, {ACCEL_WORDS[headline_accel(rows)]}; the loop needs {JITTER_TICKS} timer ticks)", ""] \
        + columns(head, body) + [""]


def answer(runs_dir):
    """The mail's first screen, as REPORT.md's: per class of machine, what
    the first /dev/urandom read waited on block and on stock, and block's
    extra wait (tables_runs.answer_rows, from the committed runs)."""
    out = ["What making /dev/urandom block costs at boot (Linux 6.1; median ms,",
           "us where marked; instruction time unless marked; '>': still waiting at",
           f"the bound; added: block minus stock, ~0 under {ANSWER_FLOOR_MS:g} ms; run: studies/<run>/run):", ""]
    last = None
    for cls, words, b, st, added, ready, run in answer_rows(runs_dir):
        if cls != last:
            out.append(f"  {cls}")
            last = cls
        tcg = " (TCG)" if b is not None and b["accel"] == "tcg" else ""
        out.append(f"    {words}{tcg}")
        figs = (added if b is None else
                f"block {med(b)}, stock {ANSWER_NO_STOCK if st is None else (med(st) or '-')}, added {added or '-'}")
        out.append(f"      {figs}  [{run}]")
    return out + [""]


def findings(rows, accel):
    """Two lines: where blocking costs most and least, block against legacy
    (or the slowest against the fastest variant), from the medians."""
    lat = [r for r in rows if r["measure"] == "first_urandom_latency" and r["accel"] == accel and med(r)]
    pairs = []
    for c in sorted({r["_cond"] for r in lat}):
        by = {r["variant"]: r for r in lat if r["_cond"] == c}
        if "block" in by and "legacy" in by:
            a, b = by["block"], by["legacy"]
        elif len(by) >= 2:
            a, b = max(by.values(), key=lambda r: float(r["median_ms"])), \
                min(by.values(), key=lambda r: float(r["median_ms"]))
        else:
            continue
        pairs.append((float(a["median_ms"]) / max(float(b["median_ms"]), 1e-9), c, a, b))
    if not pairs:
        return ["No condition in this run has two variants to compare."]
    pairs.sort(key=lambda p: p[0])
    out = []
    for _, c, a, b in ([pairs[-1], pairs[0]] if len(pairs) > 1 else [pairs[0]]):
        out += wrap(f"{c}: the first blocking /dev/urandom read takes {timed(a)} on "
                    f"{a['variant']} and {timed(b)} on {b['variant']} (median, {CLOCK_WORDS[accel]}).")
    return out


def setup(meta, rows, run):
    kernels = meta.get("kernels", {})
    patches = {}
    for k in kernels.values():
        for p in filter(None, str(k.get("patches", "")).split("; ")):
            name, _, sha = p.partition(" ")
            patches[name] = sha[:12]
    ns = sorted({int(r["n"]) for r in rows if r["n"] not in ("", "0")})
    accels = sorted({r["accel"] for r in rows if r["n"] not in ("", "0")})
    out = ["Setup", ""]
    out += wrap(f"kernel: Linux {release(meta)} from Debian's linux-source-{kernel_base(meta)} "
                f"{meta.get('kernel_package', '?')}, variants {', '.join(run_variants(rows))}", "  ")
    out += ["  patches (sha256, first 12 hex digits):"]
    # whole names (git format-patch's), on a line of their own if need be
    out += [f"  {sha} {name}" if len(f"  {sha} {name}") <= 80 else f"  {sha}\n    {name}"
            for name, sha in sorted(patches.items())]
    out += wrap(f"QEMU: {meta.get('qemu', '?')}", "  ")
    out += wrap(f"measured under: {', '.join(accels) or 'nothing'}"
                + ("" if "usable" in str(meta.get("kvm", "usable")) else f"; KVM not measured: {meta['kvm']}"), "  ")
    out += wrap(f"host: {meta.get('host_cpu', '?')}, {meta.get('host_cpus', '?')} CPUs", "  ")
    out += wrap(f"matrix {meta.get('matrix', '?')}, seed {meta.get('seed', '?')}, "
                f"n = {'-'.join(str(n) for n in sorted({ns[0], ns[-1]})) if ns else 0} boots per cell, "
                f"run {run_label(run)}", "  ")
    return out + [""]


CAVEATS = [
    "Times are the guest's CLOCK_BOOTTIME. Under accel=icount (instruction "
    "time, first) guest time counts instructions, one per ns, so the host's "
    "load never reaches it; under TCG it is emulation time, in which the "
    "kernel runs several times slower than on hardware. Compare variants "
    "within a condition, not against a real machine's seconds.",
    "\"no counter\" is simulated on x86 by a test-only boot parameter "
    "(random.no_cycle_counter=1) that makes the jitter loop give up at once, "
    "as it did on 5.17's counter-less machines, whose random_get_entropy() "
    "returned 0; on 6.1, m68k and ARM without a counter read the clocksource "
    "instead (random_get_entropy_fallback()), and the trial passes or gives "
    "up by that clock's rate against the CPU's and HZ.",
    "An idle guest gets few interrupts: a wait that depends on interrupt "
    "entropy is longer here than on a busy machine, and is cut at the run's "
    "bound (shown with '>').",
]


def text_chart(run, c):
    """RUN/plots/<c>.txt, checked (no control character), or None."""
    path = os.path.join(run, "plots", c + ".txt")
    f = open_run_file(path, missing_ok=True)
    if f is None:
        return None
    with f:
        chart = f.read().rstrip("\n")
    m = CONTROL.search(chart.replace("\n", ""))
    if m:
        die(f"{path} holds a control character (U+{ord(m.group()):04X}): a text chart from elsewhere? "
            f"plots/render.sh {run} draws the charts again")
    return chart


def body(run, hz, runs_dir=None, arches=None):
    rows = summary_rows(run)
    meta = read_meta(run)
    # the headline clock first (instruction time where measured), TCG after
    accels = [a for a in dict.fromkeys([headline_accel(rows), "tcg"])
              if any(r["accel"] == a and r["n"] not in ("", "0") for r in rows)]
    out = answer(runs_dir) if runs_dir else []
    for a in accels:
        out += findings(rows, a)
    out += [""] + setup(meta, rows, run)
    out += ["Results: median ms, 95% bootstrap CI of the median, n boots;",
            "'>': still waiting at the bound, (k >): k boots of n were", ""]
    for a in accels:
        clock = CLOCK_WORDS[a]
        out += table(rows, "first_urandom_latency", f"The first blocking /dev/urandom read's own duration ({clock})",
                     accel=a)
        out += table(rows, "first_urandom_return", f"When that read returned, from kernel start ({clock})", accel=a)
        out += table(rows, "crng_ready", f"CRNG ready, from kernel start ({clock})", accel=a)
    if hz:
        out += hz_table(hz)
    for c in sorted(run_charts(run), key=lambda c: CHARTS[c][1]):  # the mail's order
        chart = text_chart(run, c)
        if chart is not None:
            out += [chart, ""]
    if arches and ARCHES_CHART in run_charts(arches):
        # the revert's machines: chart 7 of an arches run (only of a run
        # that draws it), with its run named
        chart = text_chart(arches, ARCHES_CHART)
        if chart is not None:
            out += wrap(f"The revert's architectures (run {run_label(arches)}, "
                        "probe-only guests, 6.1):") + [""] + [chart, ""]
    out += ["Caveats", ""]
    for c in CAVEATS:
        out += wrap(c, "  ") + [""]
    out += reproduce(meta, run, "plots/post.py")
    return "\n".join(l.rstrip() for l in out).rstrip("\n") + "\n", meta


def run_charts(run):
    """The charts that fit the run (runlib.CHARTS, chosen from its raw.csv
    as prepare.py chooses): the only ones mailed, whatever else its plots/
    holds."""
    return charts_for(read_table(run, "raw.csv"))


def subject(meta):
    return f"[crngbench] Boot cost of a blocking /dev/urandom (Linux {release(meta)}, QEMU)"


ARCHES_CHART = "7-arches"


def main():
    ap = argparse.ArgumentParser(description="A run as a plain-text mail for a kernel list.")
    ap.add_argument("run")
    ap.add_argument("--hz", help="an hz-matrix run: the CONFIG_HZ table and chart 5")
    ap.add_argument("--answer", help="the committed runs (studies): the answer per class of machine first")
    ap.add_argument("--arches", help="an arches-matrix run: chart 7, the revert's architectures")
    args = ap.parse_args()
    for d in (args.run, args.hz, args.arches):
        if d and not os.path.lexists(os.path.join(check_path(d), "summary.csv")):
            die(f"{d}/summary.csv not found (a results/<run> directory?)")
    if not os.path.isdir(refuse_link(os.path.join(args.run, "plots"))):
        die(f"{args.run}/plots not found: run make plots RUN={args.run} first")
    refuse_link(os.path.join(args.run, "post.txt"))  # before any work
    text, meta = body(args.run, args.hz, args.answer, args.arches)
    with open_new(os.path.join(args.run, "post.txt")) as f:
        f.write("Subject: " + subject(meta) + "\n\n" + text)
    print(f"[post] {args.run}/post.txt")


if __name__ == "__main__":
    run_main(main)
