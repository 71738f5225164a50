"""The arches study's block: chart 7's table, the revert's architectures
(per machine, condition and variant, CRNG ready and the first urandom
read's wait under each clock; summary.csv's medians [CI]), and what each
machine's clock was (raw.csv, in the guest's words: no statistic)."""
from cells import fmt, run_name
from markup import md, row
from runlib import condition, kernel_base, measured, pick, read_meta, read_table, summary_rows, value, variant_order, varying


def tables(run):
    """The revert's architectures (the arches matrix): per machine, condition
    and variant, CRNG ready and the first urandom read's wait under each
    clock; then what each machine's random_get_entropy() read."""
    rows = summary_rows(run)
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
    cells.sort(key=lambda c: (c[0], c[1], variant_order(c[2])))
    head = []
    for a in accels:
        head += [f"CRNG ready, {a}", f"first read waited, {a}"]
    out = [f"### Chart 7: the revert's architectures on {md(kernel_base(read_meta(run)))} (run {name})\n",
           "median ms (under 1 ms: us, from raw.csv's ns) from kernel start (CRNG ready) and of the first /dev/urandom read itself, "
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
