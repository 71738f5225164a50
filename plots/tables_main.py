"""REPORT.md's tables of the x86_64 guest's runs: the main run's (block
tables:main), chart 5's HZ table (hz), the guest's own costs (guest),
seeds and virtio-rng (sources), minutes without a counter (longwait), and
the guest's interrupts they share."""
from cells import fmt, run_name, summary_rows, table
from markup import code, md, row
from runlib import (CLOCK_WORDS, JITTER_TICKS, condition, headline_accel, jitter_rows, jitter_ticks_ms, measured,
                    pick, read_meta, read_table, run_variants, variant_order, varying)


def hz_table(run):
    """The jitter loop's duration per CONFIG_HZ (the hz matrix)."""
    rows = jitter_rows(summary_rows(run))
    hzs = sorted({int(r["hz"]) for r in rows})
    out = [f"### Chart 5: the jitter loop's cost against CONFIG_HZ (run {run_name(run)})\n",
           f"first blocking urandom read's duration, median ms (under 1 ms: us, from raw.csv's ns) [95% CI]; {JITTER_TICKS}/HZ s for comparison\n",
           row("CONFIG_HZ", f"{JITTER_TICKS}/HZ", *(md(v) for v in run_variants(rows))),
           "|---|---|" + "---|" * len(run_variants(rows))]
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
           "median ms (under 1 ms: us, from raw.csv's ns) [95% bootstrap CI of the median]; n boots. icount: guest time counts "
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
    cells = sorted({(condition(r, axes), r["variant"]) for r in raw}, key=lambda c: (c[0], variant_order(c[1])))
    for c, v in cells:
        sel = [r for r in raw if condition(r, axes) == c and r["variant"] == v]
        col = lambda k: [int(r[k]) for r in sel if r[k]]
        out.append(row(md(c), md(v), len(sel), span(col('irq_timer')), span(col('irq_local_timer')),
                       span(col('irq_devices')), span(col('report_ns'), 1e9)))
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
