"""REPORT.md's tables of the probe-only machines: the revert's
architectures and what each machine's clock was (block tables:arches), and
what "ready" holds (tables:entropy; plots/entropy.py names its cells, as
chart 8 does)."""
from cells import fmt, run_name
from markup import md, row
from runlib import condition, kernel_base, measured, pick, read_meta, read_table, value, variant_order, varying
from runlib import summary_rows as _summary_rows

import entropy


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
           "its boots recorded, of the boots that recorded one; CRNG ready and the read's return: median ms (under 1 ms: us, from raw.csv's ns) from "
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
            "later), skipped (the knob makes it give up unrun); CRNG ready: median ms (under 1 ms: us, from raw.csv's ns) [95% CI], or the bound "
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
