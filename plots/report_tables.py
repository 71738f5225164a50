#!/usr/bin/env python3
"""Generate REPORT.md's tables from a run's summary.csv (make report).

    plots/report_tables.py RUN_DIR REPORT.md|- [--hz HZ_RUN_DIR] [--guest GUEST_RUN_DIR]
                           [--sources SOURCES_RUN_DIR] [--longwait LONGWAIT_RUN_DIR] [--fix FIX_RUN_DIR]
                           [--arches ARCHES_RUN_DIR] [--entropy ENTROPY_RUN_DIR]
                           [--bases BASES_RUN_DIR] [--answer RUNS] [--runs RUNS] [--quoted RUNS]

Replaces the text between "<!-- tables:begin -->" and "<!-- tables:end -->"
in REPORT.md, so the numbers can never drift from the data. With "-" as the
report, prints the tables to stdout instead. Every number comes from
summary.csv, which the runner computed from raw.csv. A run's text (cell
names, meta.json, the guest's words) is text, never Markdown or HTML: md()
escapes it wherever it enters REPORT.md, and a table cell's '|' is escaped
('\\|'); a code span is fenced so that it holds any backquote.
"""
import argparse
import os
import re
import sys

from runlib import (CLOCK_WORDS, JITTER_TICKS, condition, die, fact_table, headline_accel, jitter_rows, jitter_ticks_ms,
                    kernel_base, measured, pick, read_meta, read_table, run_main, run_variants, value, variants, varying)
from runlib import summary_rows as _summary_rows

import bases
import entropy
import fix
import quoted


MD_ESCAPES = {"\\": "\\\\", "`": "\\`", "[": "\\[", "]": "\\]", "&": "&amp;", "<": "&lt;", ">": "&gt;",
              "*": "\\*", "~": "\\~"}
# '_' opens or closes emphasis only at a word's edge: escaped there alone
# (x86_64 stays as it is, _x_ does not turn italic)
EDGE_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")


def md(text):
    """A run's text as Markdown that shows it as it is: no HTML (<, >, &
    as entities), no link or image ([, ] escaped), no code span, no
    emphasis or strike-through (*, _, ~ escaped); a backslash stays a
    backslash. Free text of a run (host_cpu, qemu) goes in code() instead:
    a bare URL in it would still become a link here."""
    return EDGE_UNDERSCORE.sub(r"\\_", "".join(MD_ESCAPES.get(ch, ch) for ch in str(text)))


def row(*cells):
    """A Markdown table row; a '|' in a cell is escaped, so it stays one cell."""
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"


def code(text):
    """A Markdown code span holding text as it is, backquotes included."""
    ticks = "`" * (max((len(t) for t in re.findall("`+", text)), default=0) + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fmt(r):
    """median [CI] as the runner computed them, censoring shown as '>'."""
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


def hz_table(run):
    """The jitter loop's duration per CONFIG_HZ (the hz matrix)."""
    rows = jitter_rows(summary_rows(run))
    hzs = sorted({int(r["hz"]) for r in rows})
    out = [f"### Chart 5: the jitter loop's cost against CONFIG_HZ (run {run_name(run)})\n",
           f"first blocking urandom read's duration, median ms [95% CI]; {JITTER_TICKS}/HZ s for comparison\n",
           row("CONFIG_HZ", f"{JITTER_TICKS}/HZ", *run_variants(rows)), "|---|---|" + "---|" * len(run_variants(rows))]
    for hz in hzs:
        cells = []
        for v in run_variants(rows):
            r = pick(rows, hz=str(hz), variant=v)
            cells.append(f"{fmt(r)}; n={r['n']}" if r else "")
        out.append(row(hz, f"{jitter_ticks_ms(hz):.0f}", *cells))
    return "\n".join(out) + "\n"


def guest_table(run):
    """What the guest itself costs (the guest matrix): per accel and trace."""
    rows = [r for r in summary_rows(run) if r["variant"] == "stock"]
    axes = [a for a in varying(rows) if a != "trace"]  # trace is a column of its own
    for r in rows:
        r["_cond"] = condition(r, axes)
    cols = sorted({(r["accel"], r["trace"], r["_cond"]) for r in rows},
                  key=lambda c: (c[0] != "tcg", c[1] != "off", c[2]))
    several = len({c[2] for c in cols}) > 1
    measures = [("probe_overhead", "probe overhead: PID 1 entry to exec of systemd, less its reads"),
                ("kernel_to_init", "kernel start to PID 1"),
                ("userspace_finished", "systemd: boot finished"),
                ("host_wall", "host wall, QEMU spawn to exit (host clock; meaningless under icount)")]
    out = [f"### The guest itself (run {run_name(run)}, stock"
           + ("" if several else f", {md(cols[0][2])}" if cols else "") + ")\n",
           "median ms [95% bootstrap CI of the median]; n boots. icount: guest time counts "
           "instructions (1 per ns), so TCG's translation of first-run code costs nothing\n",
           row("measure", *(md(f"{a}, trace {t}" + (f", {c}" if several else "")) for a, t, c in cols)),
           "|---|" + "---|" * len(cols)]
    for m, title in measures:
        cells = []
        for a, t, c in cols:
            r = pick(rows, measure=m, accel=a, trace=t, _cond=c)
            cells.append(f"{fmt(r)}; n={r['n']}" if r else "")
        out.append(row(title, *cells))
    return "\n".join(out) + "\n"


def sources_tables(run):
    """Other early entropy sources without RDRAND (the sources matrix)."""
    rows = summary_rows(run)
    name = run_name(run)
    return "\n".join([
        table(rows, "first_urandom_latency",
              f"Seeds and virtio-rng: the first blocking urandom read's duration (run {name})"),
        table(rows, "crng_ready",
              f"Seeds and virtio-rng: CRNG ready, from kernel start (run {name})"),
        table(rows, "userspace_finished",
              f"Seeds and virtio-rng: systemd's boot finished (run {name})"),
    ])


def longwait_tables(run):
    """Minutes without a counter, under icount, by guest tick (the longwait matrix)."""
    rows = summary_rows(run)
    name = run_name(run)
    return "\n".join([
        table(rows, "crng_ready",
              f"Without a counter or RDRAND, under icount: CRNG ready, from kernel start (run {name})",
              accel="icount"),
        table(rows, "first_urandom_latency",
              f"Without a counter or RDRAND, under icount: the first blocking urandom read (run {name})",
              accel="icount"),
        interrupts_table(run, "icount"),
    ])


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
    cells = sorted({(condition(r, axes), r["variant"]) for r in raw}, key=lambda c: (c[0], variants().index(c[1])
                                                                                  if c[1] in variants() else 99))
    for c, v in cells:
        sel = [r for r in raw if condition(r, axes) == c and r["variant"] == v]
        col = lambda k: [int(r[k]) for r in sel if r[k]]
        out.append(row(md(c), md(v), len(sel), span(col('irq_timer')), span(col('irq_local_timer')),
                       span(col('irq_devices')), span(col('report_ns'), 1e9)))
    return "\n".join(out) + "\n"


def arches_tables(run):
    """The revert's architectures (the arches matrix): per machine, condition
    and variant, CRNG ready and the first urandom read's wait under each
    clock; then what each machine's random_get_entropy() read."""
    rows = _summary_rows(run)
    axes = [a for a in varying(rows) if a != "arch"]  # the machine is a column of its own
    for r in rows:
        r["_cond"] = condition(r, axes) or "no boot-loader seed"
    name = run_name(run)
    # A cell whose every boot ended at the host's timeout (QEMU killed: the
    # reason says "of host time") measured nothing: its '>' would be the
    # last guest time the boot reported, not a bound on readiness.
    hung = {}
    for r in read_table(run, "raw.csv"):
        k = (value(r, "arch"), condition(r, axes) or "no boot-loader seed", r["variant"], r["accel"])
        hung[k] = hung.get(k, True) and r["status"] == "censored" and "s of host time" in r["reason"]
    accels = [a for a in ("icount", "tcg") if any(r["accel"] == a for r in rows)]
    cells = list(dict.fromkeys((value(r, "arch"), r["_cond"], r["variant"]) for r in rows))
    cells.sort(key=lambda c: (c[0], c[1], variants().index(c[2]) if c[2] in variants() else 99))
    head = []
    for a in accels:
        head += [f"CRNG ready, {a}", f"first read waited, {a}"]
    out = [f"### Chart 7: the revert's architectures on {md(kernel_base(read_meta(run)))} (run {name})\n",
           "median ms from kernel start (CRNG ready) and of the first /dev/urandom read itself, "
           "[95% bootstrap CI]; n boots; '>': still waiting at the bound (the report's, the read's budget) "
           "in at least half the boots\n",
           row("machine", "condition", "variant", *head),
           "|---|---|---|" + "---|" * len(head)]
    for m, c, v in cells:
        vals = []
        for a in accels:
            for meas in ("crng_ready", "first_urandom_latency"):
                r = pick(rows, arch=m, _cond=c, variant=v, accel=a, measure=meas)
                if r is not None and meas == "crng_ready" and hung.get((m, c, v, a)):
                    vals.append(f"not measured: all {r['n']} boots hit the host timeout")
                    continue
                vals.append("" if r is None else f"{fmt(r)}; n={r['n']}"
                            + (f" ({r['censored']} censored)" if r["censored"] not in ("0", "") else ""))
        if any(vals):
            out.append(row(md(m), md(c), md(v), *vals))
    return "\n".join(out) + "\n\n" + arches_sources_table(run)


def rate_text(hz):
    hz = float(f"{hz:.3g}")  # three digits: the formula's own precision
    for unit, div in (("GHz", 1e9), ("MHz", 1e6), ("kHz", 1e3)):
        if hz >= div:
            return f"{hz / div:.3g} {unit}"
    return f"{hz:.3g} Hz"


def jitter_text(sel):
    """The first jitter trial of these boots in the kernel's words (raw.csv's
    jitter_* columns; the range over boots, no statistic)."""
    if "jitter_per_bit" not in sel[0] or "jitter_max_per_bit" not in sel[0]:
        return "not recorded (a run before patch 0005)"
    per_bit = [int(r["jitter_per_bit"]) for r in sel if r.get("jitter_per_bit")]
    bound = sorted({int(r["jitter_max_per_bit"]) for r in sel if r.get("jitter_max_per_bit")})
    skipped = sum(1 for r in sel if r.get("jitter_skipped") == "1")
    parts = []
    if per_bit:
        lo, hi = min(per_bit), max(per_bit)
        ran = sum(1 for r in sel if r.get("jitter_per_bit") and r.get("jitter_max_per_bit")
                  and int(r["jitter_per_bit"]) <= int(r["jitter_max_per_bit"]))
        outcome = ("runs" if ran == len(per_bit) else "gives up" if ran == 0
                   else f"runs in {ran} of {len(per_bit)}")
        parts.append(f"{lo if lo == hi else f'{lo}-{hi}'} per bit (at most {'/'.join(map(str, bound))}): {outcome}")
    if skipped:
        parts.append(f"skipped by the knob in {skipped}")
    if len(per_bit) + skipped < len(sel):
        parts.append(f"none logged in {len(sel) - len(per_bit) - skipped}" if parts else "none logged")
    return "; ".join(parts)


def arches_sources_table(run):
    """What each machine's random_get_entropy() read, in the guest's words:
    its current clocksource at the report (sysfs), that clocksource's rate
    (its registration line in the kernel log), the jitter trial, its
    interrupts (raw.csv, the range over boots; no statistic)."""
    raw = measured(read_table(run, "raw.csv"))
    out = ["### What each machine's clock was (the guest's own report)\n",
           "clocksource: `/sys/devices/system/clocksource/clocksource0/current_clocksource` when the "
           "report ran; its rate: from its registration line in the boot's kernel log, read by the probe from "
           "`/dev/kmsg` (\"clocksource: NAME: mask: ... max_cycles: C, max_idle_ns: N\", rate = C / 2N x 0.89, "
           "raw.csv's clocksource_hz); "
           "numbered IRQs: the sum of `/proc/interrupts`' numbered lines then (range over boots); "
           "jitter trial: the first trial of `try_to_generate_entropy()` as the kernel logged it (patch 0005): "
           "samples per bit (8192 over the reads that differed from the one before, plus one) against its "
           "bound HZ/15, and whether the jitter loop then ran; \"none logged\": no trial ran before the "
           "report; loop ran at: when a trial first passed; "
           "boots without a seed and with the counter, block\n",
           "| machine | clock | clocksource | its rate | jitter trial | loop ran at (s) | numbered IRQs | "
           "report at (s) | boots |",
           "|---|---|---|---|---|---|---|---|---|"]
    for m in sorted({value(r, "arch") for r in raw}):
        for a in ("icount", "tcg"):
            sel = [r for r in raw if value(r, "arch") == m and r["accel"] == a and r["variant"] == "block"
                   and value(r, "bootseed") == "off" and r["nocounter"] == "off"]
            if not sel:
                continue
            names = sorted({r["clocksource"] for r in sel if r.get("clocksource")})
            cs = ", ".join(names) or "not reported"
            rates = sorted({rate_text(int(r["clocksource_hz"])) for r in sel if r.get("clocksource_hz")})
            irq = [int(r["irq_devices"]) for r in sel if r.get("irq_devices")]
            rep = [int(r["report_ns"]) / 1e9 for r in sel if r.get("report_ns")]
            span = lambda xs, f: (f.format(min(xs)) if f.format(min(xs)) == f.format(max(xs))  # noqa: E731
                                  else f.format(min(xs)) + "-" + f.format(max(xs))) if xs else ""
            run_at = [int(r["jitter_run_ns"]) / 1e9 for r in sel if r.get("jitter_run_ns")]
            out.append(row(md(m), a, md(cs), ', '.join(rates), jitter_text(sel), span(run_at, '{:.2f}'), span(irq, '{:d}'),
                           span(rep, '{:.1f}'), len(sel)))
    return "\n".join(out) + "\n"


def entropy_tables(run):
    """Is "ready" ready? (the entropy matrix): per cell, whether the first
    /dev/urandom read's bytes differed between boots (summary.csv's
    distinct digests) and when the CRNG was ready; then per cell whose
    boots logged a jitter trial, its samples per bit against the cap
    HZ/15 (raw.csv, as the kernel logged them: the range over boots, no
    statistic). plots/entropy.py names conditions, CPU speeds and trial
    outcomes, as chart 8 does."""
    rows = _summary_rows(run)
    cells = [r for r in rows if r["measure"] == "crng_ready"]
    boots = {}
    for b in measured(read_table(run, "raw.csv")):
        boots.setdefault(entropy.cell_key(b), []).append(b)
    cells.sort(key=entropy.cell_order(cells, run))
    extra = entropy.extra_axes(cells)
    name = run_name(run)

    def axes(r):
        return {a: r[a] for a in entropy.axis_names()}

    def said(r):
        mine = boots.get(entropy.cell_key(r), [])
        return (md(value(r, "arch")), md(entropy.condition_words(r, mine, extra)), md(r["accel"]),
                entropy.mhz_text(entropy.cpu_mhz(r, run), md(r["accel"])), md(value(r, "hz")), md(value(r, "rtc")))

    out = [f"### What ready holds: the first /dev/urandom read's bytes (run {name})\n",
           "one row per cell; CPU MHz: the emulated CPU under icount (1000 >> shift), TCG's follows the host; "
           "own clock: `random_get_entropy()` as the machine has it (a cycle counter, or the clocksource it falls "
           "back to), named by the clocksource the guest reported; n: boots that measured (failed ones apart); "
           "distinct first outputs: how many different BLAKE2s digests of the first /dev/urandom read's bytes "
           "its boots recorded, of the boots that recorded one; CRNG ready and the read's return: median ms from "
           "kernel start [95% bootstrap CI], '>' still waiting at the bound in at least half the boots\n",
           row("machine", "condition", "clock", "CPU MHz", "HZ", "rtc", "n", "distinct first outputs",
               "CRNG ready", "first urandom read returned"),
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in cells:
        ret = pick(rows, measure="first_urandom_return", **axes(r))
        n = r["n"] + (f" ({r['failed']} failed)" if r.get("failed") not in (None, "", "0") else "")
        k = (f"{r['digests_distinct']} of {r['digests_n']}" if r.get("digests_n") not in (None, "")
             else "none recorded")
        out.append(row(*said(r), n, k, fmt(r), fmt(ret) if ret else ""))

    out += ["", f"### The jitter trial's margin (run {name})\n",
            "the first trial of `try_to_generate_entropy()` as the kernel logged it (patch 0005), per cell whose "
            "boots logged one: samples per bit (8192 over the reads of `random_get_entropy()` that differed "
            "from the one before, plus one; the range over its boots) against the cap HZ/15 the trial passes "
            "at or below; margin: cap / samples per bit (at least 1: it passes); first trial: passed, passed "
            "later (the first over the cap, a later one within), gave up (over the cap and none passed "
            "later), skipped (the knob makes it give up unrun); CRNG ready: median ms [95% CI], or the bound "
            "it was still not ready at in at least half the boots\n",
            row("machine", "condition", "clock", "CPU MHz", "HZ", "rtc", "samples per bit", "cap HZ/15",
                "margin", "first trial", "CRNG ready", "boots"),
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    quiet = []
    for r in cells:
        mine = boots.get(entropy.cell_key(r), [])
        seen = [entropy.trial(b) for b in mine]
        if not any(seen):
            if mine:
                quiet.append(r)
            continue
        per_bit = [int(b["jitter_per_bit"]) for b in mine if b.get("jitter_per_bit")]
        caps = sorted({int(b["jitter_max_per_bit"]) for b in mine if b.get("jitter_max_per_bit")})
        lo, hi = (min(per_bit), max(per_bit)) if per_bit else (None, None)
        samples = "" if lo is None else str(lo) if lo == hi else f"{lo}-{hi}"
        margin = ""
        if lo is not None and len(caps) == 1:
            a, b = f"{caps[0] / hi:.3g}", f"{caps[0] / lo:.3g}"
            margin = a if a == b else f"{a}-{b}"
        counts = {v: seen.count(v) for v in dict.fromkeys(seen)}
        if len(counts) == 1:
            verdict = next(iter(counts))
        else:
            verdict = ", ".join(f"{v or 'none logged'} in {c} of {len(seen)}" for v, c in counts.items())
        if r["median_censored"] == "1" and r["median_ms"]:
            ready = f"not ready at {entropy.seconds(r['median_ms'])} s ({r['censored']} of {r['n']} boots)"
        else:
            ready = fmt(r)
        out.append(row(*said(r), samples, "/".join(map(str, caps)) or "not logged", margin, verdict, ready,
                       len(mine)))
    if quiet:
        groups = {}
        for r in quiet:
            groups.setdefault(said(r)[:2], []).append(r)
        out += ["", "No jitter trial logged (the CRNG was ready before one ran) in: "
                + "; ".join(f"{m}, {c} ({len(g)} cell{'s' if len(g) > 1 else ''}: "
                            + ", ".join(dict.fromkeys(md(r["accel"]) for r in g)) + ")" for (m, c), g in groups.items())
                + "."]
    return "\n".join(out) + "\n"


def ratio_text(old, new):
    """The newer base's median over the older's, or why there is none:
    both measured and neither median censored (a bound is no time)."""
    for r in (old, new):
        if r is None or r["n"] == "0" or r["median_ms"] == "":
            return "not measured on both"
    if "1" in (old["median_censored"], new["median_censored"]):
        return "censored"
    if min(float(old["median_ms"]), float(new["median_ms"])) < RATIO_FLOOR_MS:
        # summary.csv keeps medians to the microsecond: 0.003 against
        # 0.004 ms would print 1.333 for reads 3499 and 3514 ns long
        return f"under {RATIO_FLOOR_MS:g} ms"
    return f"{float(new['median_ms']) / float(old['median_ms']):.3f}"


RATIO_FLOOR_MS = 0.1  # no ratio of medians shorter than this (1 us steps)


def bases_tables(run):
    """The kernel bases side by side (the bases matrix): per cell, each
    base's first /dev/urandom read's return and CRNG ready, and the ratio
    of the first read's medians. plots/bases.py names cells and bases, as
    chart 9 does."""
    rows = _summary_rows(run)
    olds = bases.bases(rows)
    if len(olds) != 2:
        die(f"{run}: --bases takes a run of two kernel bases (bench/bases.matrix); this one has "
            f"{', '.join(olds) or 'none'}")
    old, new = olds
    extra = bases.extra_axes(rows)
    by = {}
    for r in rows:
        if r["measure"] in ("first_urandom_return", "first_urandom_latency", "crng_ready"):
            key = (bases.cell(r, extra), value(r, "base"), r["measure"])
            if key in by:
                die(f"{run}/summary.csv: two rows for {key}: cells would merge")
            by[key] = r
    cells = sorted({k[0] for k in by}, key=bases.cell_order({k[0] for k in by}))
    head = [f"first read returned, {md(old)}", f"first read returned, {md(new)}",
            f"the read's own duration, {md(old)}", f"the read's own duration, {md(new)}",
            f"CRNG ready, {md(old)}", f"CRNG ready, {md(new)}", f"duration {md(new)} / {md(old)}"]
    out = [f"### {md(old)} against {md(new)} (run {run_name(run)})\n",
           "median ms from kernel start [95% bootstrap CI of the median], each base's own boots "
           "(summary.csv); '>': still waiting at the bound in at least half the boots; the read's own "
           "duration is what it waited (the cost of blocking, where the variant blocks); "
           f"duration {md(new)} / {md(old)}: the ratio of those medians, where both are measured, "
           f"neither is censored and both are at least {RATIO_FLOOR_MS:g} ms\n",
           row("machine", "variant", "condition", "accel", "vCPUs", *head),
           "|---|---|---|---|---|" + "---|" * len(head)]
    cellfmt = lambda r: "" if r is None else f"{fmt(r)}; n={r['n']}" + (  # noqa: E731
        f" ({r['censored']} censored)" if r["censored"] not in ("0", "") else "")
    for c in cells:
        got = {(b, m): by.get((c, b, m)) for b in olds
               for m in ("first_urandom_return", "first_urandom_latency", "crng_ready")}
        out.append(row(md(c[0]), md(c[1]), md(c[2]), md(c[3]), md(c[4]),
                       cellfmt(got[(old, "first_urandom_return")]), cellfmt(got[(new, "first_urandom_return")]),
                       cellfmt(got[(old, "first_urandom_latency")]), cellfmt(got[(new, "first_urandom_latency")]),
                       cellfmt(got[(old, "crng_ready")]), cellfmt(got[(new, "crng_ready")]),
                       ratio_text(got[(old, "first_urandom_latency")], got[(new, "first_urandom_latency")])))
    vdso = vdso_table(run)
    return "\n".join(out) + "\n" + ("\n" + vdso if vdso else "")


def systemd_tables(run):
    """systemd measured for itself (bench/systemd.matrix): per accelerator,
    condition and variant, with the early reads made by PID 1 before it
    execs systemd (early=pid1, the quick run's setup) and by a child of
    PID 1 while systemd starts (early=child): CRNG ready, systemd's boot
    finished, the game stand-in's seed and the first blocking urandom
    read's return, each summary.csv's median [CI] (the runner's)."""
    rows = _summary_rows(run)
    if not any(value(r, "early") == "child" for r in rows):
        die(f"{run}: --systemd takes a run of bench/systemd.matrix (early=pid1 and early=child); this one has no "
            "early=child cell")
    measures = (("crng_ready", "CRNG ready"), ("userspace_finished", "systemd finished"),
                ("game_seeded", "game seeded"), ("first_urandom_return", "first urandom read returned"))
    by = {}
    for r in rows:
        if r["measure"] in dict(measures):
            key = (r["accel"], bases.condition_words(r), r["variant"], value(r, "early"), r["measure"])
            if key in by:
                die(f"{run}/summary.csv: two rows for {key}: cells would merge")
            by[key] = r
    out = []
    for accel in sorted({k[0] for k in by}, key=lambda a: entropy.ACCEL_ORDER.get(a, 9)):
        out += [f"### systemd for itself: {md(CLOCK_WORDS.get(accel, accel))} (run {run_name(run)})\n",
                "median ms from kernel start [95% bootstrap CI of the median]; n boots (censored); "
                "reads in: who makes the early reads (PID 1 before it execs systemd, or a child of PID 1 "
                "while systemd starts)\n",
                row("condition", "variant", "reads in", *(t for _, t in measures)),
                "|---|---|---|" + "---|" * len(measures)]
        conds = sorted({k[1] for k in by if k[0] == accel})
        for c in conds:
            for v in variants():
                for e in ("pid1", "child"):
                    got = [by.get((accel, c, v, e, m)) for m, _ in measures]
                    if not any(got):
                        continue
                    out.append(row(md(c), md(v), "PID 1" if e == "pid1" else "a child",
                                   *("" if g is None else f"{fmt(g)}; n={g['n']}" + (
                                       f" ({g['censored']} censored)" if g["censored"] not in ("0", "") else "")
                                     for g in got)))
        out.append("")
    return "\n".join(out)


# The answer on REPORT.md's first screen: per class of machine (the issue's
# classes), the cells that show it, each from one committed run
# (plots/runs/<run>/summary.csv), selected by axis values that must match
# exactly one cell per variant. The one definition of which cell answers
# which class; tests/answer.sh works the figures out again from the CSVs.
ANSWER = (
    ("RDRAND, a seed or virtio-rng", "x86_64, RDRAND trusted (-cpu max)", "quick",
     {"arch": "x86_64", "accel": "icount", "cpu": "max", "nocounter": "off"}),
    ("RDRAND, a seed or virtio-rng", "x86_64, virtio-rng, no RDRAND", "sources",
     {"accel": "tcg", "virtio_rng": "on", "seed": "none", "nocounter": "off"}),
    ("RDRAND, a seed or virtio-rng", "armv7-virt, QEMU's boot-loader seed credited", "arches",
     {"arch": "armv7-virt", "accel": "icount", "bootseed": "on", "nocounter": "off"}),
    ("x86 without RDRAND", "x86_64, -cpu qemu64, TSC", "quick",
     {"arch": "x86_64", "accel": "icount", "cpu": "qemu64", "nocounter": "off"}),
    ("a fallback clocksource that passes the jitter trial", "m68k-virt, goldfish timer", "arches",
     {"arch": "m68k-virt", "accel": "icount", "nocounter": "off"}),
    # the same board as the 1 GHz row below, at an ARM926 board's speed:
    # the trial counts clock steps per CPU speed (What "ready" holds)
    ("a fallback clocksource that passes the jitter trial",
     "armv5-versatilepb emulated at 125 MHz (icount shift 3), SP804", "entropy",
     {"arch": "armv5-versatilepb", "accel": "icount", "shift": "3", "hz": "100", "nocounter": "off"}),
    ("one that fails it", "armv5-versatilepb emulated at 1 GHz (icount shift 0), SP804", "bases",
     {"arch": "armv5-versatilepb", "accel": "icount", "base": "6.1"}),
    ("one that fails it", "m68k-q800 emulated at 31.25 MHz (icount shift 5), VIA", "entropy",
     {"arch": "m68k-q800", "accel": "icount", "shift": "5", "hz": "100", "nocounter": "off", "rtc": "host"}),
    ("one that fails it", "x86_64 without a counter (knob: trial skipped), PIT tick", "quick",
     {"arch": "x86_64", "accel": "icount", "cpu": "qemu64", "nocounter": "on", "timer": "pit"}),
    ("almost no interrupt that credits entropy", "x86_64 without a counter (knob), LAPIC tick", "longwait",
     {"accel": "icount", "nocounter": "on", "timer": "lapic"}),
)


ANSWER_FLOOR_MS = 0.1  # a smaller difference of medians is "~0" (summary.csv: 1 us steps)
# A row whose run booted block alone: its stock column, and its "added".
ANSWER_NO_STOCK = "not run"
ANSWER_NO_ADDED = "not measured"


def answer_cell(rows, want, variant, measure):
    """The one summary row of want for variant and measure; None if the run
    has no such cell; two are an error naming the filter."""
    hits = [r for r in rows if r["variant"] == variant and r["measure"] == measure
            and all(value(r, a) == v for a, v in want.items())]
    if len(hits) > 1:
        die(f"the answer's cell {want} {variant} {measure} matches {len(hits)} summary rows: "
            "name more axes in report_tables.ANSWER")
    return hits[0] if hits else None


def answer_rows(runs_dir):
    """The answer's rows, one per ANSWER cell: (class, cell words, block's
    first read, stock's, added by block, block's CRNG ready, run), each
    figure as the tables print it (fmt: median [CI]; the mail takes the
    median alone). A run not committed gives a row saying so."""
    out, cache = [], {}
    for cls, words, run, want in ANSWER:
        d = os.path.join(runs_dir, run)
        if run not in cache:
            cache[run] = _summary_rows(d) if os.path.isfile(os.path.join(d, "summary.csv")) else None
        rows = cache[run]
        if rows is None:
            out.append((cls, words, None, None, "(run not committed)", None, run))
            continue
        b, st = (answer_cell(rows, want, v, "first_urandom_latency") for v in ("block", "stock"))
        ready = answer_cell(rows, want, "block", "crng_ready")
        if b is None:
            die(f"{d}: no block cell for the answer's {want}")
        added = ANSWER_NO_ADDED if st is None else ""
        if st is not None and st["median_censored"] != "1":
            # a censored block median is a lower bound, and so is the difference
            diff = max(0.0, float(b["median_ms"]) - float(st["median_ms"]))
            added = "~0" if diff < ANSWER_FLOOR_MS else (
                (">" if b["median_censored"] == "1" else "") + ms(f"{diff:.3f}"))
        # the trial's cap is HZ/15 samples per bit: whether it passes depends on HZ
        out.append((cls, f"{words}, HZ={b['hz']}", b, st, added, ready, run))
    return out


ANSWER_NOTE = ("Linux 6.1; ms, median [95% CI]; n boots; instruction time (icount) except the virtio-rng "
               "row (TCG); '>': still waiting at the bound; added by block: block's median minus stock's "
               f"(~0: under {ANSWER_FLOOR_MS:g} ms, where stock waits as long or neither waits); "
               f"'{ANSWER_NO_STOCK}': the run booted block alone. Each row is "
               "a cell of the committed run named (`plots/runs/<run>/summary.csv`), chosen in "
               "`plots/report_tables.py` (ANSWER).")


def answer_table(runs_dir):
    """REPORT.md's first screen: per class, what the first /dev/urandom
    read waited on block and on stock (6.1), block's extra wait (block's
    median minus stock's), when the CRNG was ready, and the run."""
    out = ["| machines | the cell | block's first urandom read waited | stock's | added by block "
           "| CRNG ready (block) | run |", "|---|---|---|---|---|---|---|"]
    last = None
    for cls, words, b, st, added, ready, run in answer_rows(runs_dir):
        if b is None:
            cells = [added] * 4
        else:
            cells = [fmt(b) + f"; n={b['n']}", ANSWER_NO_STOCK if st is None else fmt(st) + f"; n={st['n']}", added,
                     "" if ready is None else fmt(ready)]
        out.append(row("" if cls == last else f"**{md(cls)}**", md(words), *cells, code(run)))
        last = cls
    return ANSWER_NOTE + "\n\n" + "\n".join(out) + "\n"


def vdso_table(run):
    """The probe's vDSO getrandom() read (guest-image/vdso.c; x86_64) per
    base and cell, from reads.csv: how many boots' reads returned their 32
    bytes, how many found the CRNG ready before they began (ready_before),
    ran out of the probe's shared read budget (timed_out) or found no vDSO
    getrandom() (status "unavailable"), and the shortest and longest
    duration. Counts and a range, nothing estimated."""
    raw = {r["boot_id"]: r for r in read_table(run, "raw.csv")}
    rows = [r for r in read_table(run, "reads.csv") if r["iface"] == "getrandom-vdso"]
    if not rows:
        return ""
    extra = bases.extra_axes(list(raw.values()))
    by = {}
    for r in rows:
        b = raw.get(r["boot_id"])
        if b is None:
            die(f"{run}/reads.csv: boot {r['boot_id']!r} is not in raw.csv")
        by.setdefault((bases.cell(b, extra), value(b, "base")), []).append(r)
    cells = sorted({k[0] for k in by}, key=bases.cell_order({k[0] for k in by}))
    olds = sorted({k[1] for k in by}, key=bases.version)
    out = [f"### The vDSO getrandom() read (x86_64; run {run_name(run)})\n",
           "per base: boots whose read returned 32 bytes / found the CRNG ready when it began / "
           "ran out of the probe's read budget / found no vDSO getrandom() (unavailable), of n; "
           "its duration, shortest-longest (reads.csv)\n",
           row("variant", "condition", "accel", "vCPUs", *(md(b) for b in olds)),
           "|---|---|---|---|" + "---|" * len(olds)]

    def cnt(rs):
        if not rs:
            return ""
        n = len(rs)
        full = sum(1 for r in rs if r["bytes"] == "32")
        ready = sum(1 for r in rs if r["ready_before"] == "1")
        late = sum(1 for r in rs if r["timed_out"] == "1")
        gone = sum(1 for r in rs if r["status"] == "unavailable")
        if gone == n:
            return f"unavailable; n={n}"
        durs = sorted(int(r["dur_ns"]) for r in rs)
        return (f"{full}/{ready}/{late}/{gone} of {n}; "
                f"{ms(f'{durs[0] / 1e6:.6f}')}-{ms(f'{durs[-1] / 1e6:.6f}')} ms")
    for c in cells:
        out.append(row(md(c[1]), md(c[2]), md(c[3]), md(c[4]), *(cnt(by.get((c, b), [])) for b in olds)))
    return "\n".join(out) + "\n"


def tables(run):
    rows = summary_rows(run)
    meta = read_meta(run)
    head = headline_accel(rows)
    clock = CLOCK_WORDS[head]
    counter = lambda r: r["nocounter"] == "off"
    nocounter = lambda r: r["nocounter"] == "on"
    parts = [
        f"Generated by {code(f'make report RUN={run}')} from `summary.csv` "
        f"(matrix {code(str(meta.get('matrix', '?')))}, seed {md(meta.get('seed', '?'))}, "
        f"{md(meta.get('boots_planned', '?'))} boots planned, host {code(str(meta.get('host_cpu', '?')))}, "
        f"{code(str(meta.get('qemu', '?')))}, kernel package {code(str(meta.get('kernel_package', '?')))}).\n",
        table(rows, "first_urandom_return",
              f"Chart 1: first blocking /dev/urandom read returned, from kernel start ({clock})",
              accel=head),
        table(rows, "first_urandom_latency",
              f"The first blocking /dev/urandom read's own duration ({clock})", accel=head),
    ]
    if head != "tcg":
        parts += [
            table(rows, "first_urandom_return",
                  "Chart 1, second panel: the same in emulation time (TCG)", counter),
            table(rows, "first_urandom_latency", "The read's own duration in emulation time (TCG)",
                  counter),
        ]
    parts += [
        table(rows, "host_first_urandom",
              "The same moment from QEMU start (host clock, TCG)", counter),
        table(rows, "crng_ready",
              f"Chart 2: CRNG ready, from kernel start (kernel log, else the watcher; {clock})", accel=head),
        table(rows, "crng_ready", "Chart 3: CRNG ready in emulation time (TCG, same cells)")
        if head != "tcg" else "",
        table(rows, "crng_ready", "Chart 3: CRNG ready under KVM (same cells)", accel="kvm"),
        table(rows, "first_urandom_return",
              f"Chart 6: without a usable cycle counter (random.no_cycle_counter=1; {clock})", nocounter,
              accel=head),
        interrupts_table(run, head),
        table(rows, "userspace_finished", f"systemd: boot finished ({clock})", accel=head),
        table(rows, "host_wall", "Host wall time per boot, QEMU spawn to exit (TCG)"),
        table(rows, "host_wall", f"Host wall time per boot, QEMU spawn to exit ({clock})", accel=head)
        if head != "tcg" else "",
    ]
    return "\n".join(p for p in parts if p)


RUN_FIELDS = {"commit": re.compile(r"[0-9a-f]{40}\Z"), "seed": re.compile(r"[0-9]{1,20}\Z")}


def _run_fact(d, name):
    """A committed run's one-line file (commit, seed), checked: what is
    not a commit id or a seed stops the report, naming the file."""
    path = os.path.join(d, name)
    try:
        with open(path) as f:
            v = f.read().strip()
    except OSError:
        return None
    if not RUN_FIELDS[name].match(v):
        die(f"{path}: not a {name} ({'40 hex digits' if name == 'commit' else 'a whole number'})")
    return v


def _host_times(d):
    """host_time.csv's rows (accel, boots, skipped, host_s), checked."""
    path = os.path.join(d, "host_time.csv")
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or lines[0] != "accel,boots,skipped,host_s":
        die(f"{path}: not the runner's host_time.csv (header accel,boots,skipped,host_s)")
    out = []
    for i, line in enumerate(lines[1:], 2):
        m = re.fullmatch(r"([a-z]+),([0-9]+),([0-9]+),([0-9]+(?:\.[0-9]+)?)", line)
        if not m:
            die(f"{path} line {i}: not 'accel,boots,skipped,seconds'")
        out.append((m.group(1), int(m.group(2)), int(m.group(3)), float(m.group(4))))
    return out


def runs_table(runs_dir):
    """The committed runs themselves, one row per run of bench/report-runs
    (bench-parallel's two runs each): the commit it was made from, its
    seed, n per cell (run.matrix's reps), its boots and host time per
    accelerator (host_time.csv). The figures "How to reproduce" quotes."""
    out = ["Each run as committed in `plots/runs/<run>/`: the crngbench commit it was made from (`commit`), its "
           "seed (`seed`), n per cell (`run.matrix`'s reps), boots measured (and skipped: KVM where it cannot run) "
           "and host time per accelerator (`host_time.csv`: the wall time its boots took; icount's run two at a "
           "time, so theirs is their span, not their sum).\n",
           row("run", "matrix", "commit", "seed", "n", "boots", "host time"),
           "|---|---|---|---|---|---|---|"]
    total_boots, total_s = 0, 0.0
    for name, r in fact_table("bench/report-runs").items():
        d = os.path.join(runs_dir, name)
        if os.path.isfile(os.path.join(d, "raw.csv")):
            dirs = [d]
        else:
            dirs = sorted(os.path.join(d, s) for s in (os.listdir(d) if os.path.isdir(d) else [])
                          if os.path.isfile(os.path.join(d, s, "raw.csv")))
        if not dirs:
            out.append(row(md(name), md(r["matrix"]), "not committed", "", "", "", ""))
            continue
        for sub in dirs:
            commit = _run_fact(sub, "commit") or _run_fact(d, "commit")
            seed = _run_fact(sub, "seed")
            with open(os.path.join(sub, "run.matrix")) as f:
                m = re.search(r"^reps\s*=\s*([0-9]+)\s*$", f.read(), re.M)
            times = _host_times(sub)
            boots = sum(t[1] for t in times)
            skipped = sum(t[2] for t in times)
            secs = sum(t[3] for t in times)
            total_boots, total_s = total_boots + boots, total_s + secs
            per = ", ".join(f"{a} {s:.1f} s" for a, b, _, s in times if b)
            out.append(row(md(name if sub == d else f"{name}/{os.path.basename(sub)}"), md(r["matrix"]),
                           commit[:12] if commit else "none", seed or "none", m.group(1) if m else "?",
                           f"{boots}" + (f" ({skipped} skipped)" if skipped else ""),
                           f"{secs:.1f} s ({per})" if per else "0 s"))
    out.append(row("all", "", "", "", "", f"{total_boots}", f"{total_s:.1f} s ({total_s / 60:.1f} min)"))
    return "\n".join(out) + "\n"


def fix_tables(run):
    """A fix for 32-bit kernels (the fix matrix): CRNG ready and the first
    fast pool mix, without and with patch 0008 (plots/fix.py)."""
    t = fix.fix_table(run, read_table(run, "raw.csv"))
    return "\n".join([
        f"### Without and with patch 0008: CRNG ready and the first fast pool mix (run {run_name(run)})\n",
        "Seconds from kernel start under icount, each cell's boots as raw.csv has them: the median, with the range "
        "(\"k identical\": every boot the same nanosecond; '>': not ready at the run's bound); counter \"none (knob)\": `random.no_cycle_counter`, the jitter trial skipped, "
        "so interrupts alone credit; first mix: patch 0007's log of the first mix of a fast pool before the CRNG "
        "was ready, made by 1024 interrupts (count) or by a second since the last mix (time).\n",
        row(*t[0]), "|" + "---|" * len(t[0])] + [row(*(md(c) for c in r)) for r in t[1:]]) + "\n"


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
