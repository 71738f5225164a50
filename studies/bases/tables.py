"""The bases study's block: the kernel bases side by side (per cell,
each base's first /dev/urandom read's return and duration, CRNG ready,
the ratio of the read's medians; summary.csv's), and the probe's vDSO
getrandom() read per base (reads.csv: counts and a range). plots/bases.py
names cells and bases, as chart 9 does."""
from cells import fmt, run_name, span
from markup import md, row
from runlib import die, read_table, summary_rows, value

import bases


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


def tables(run):
    """The kernel bases side by side (the bases matrix): per cell, each
    base's first /dev/urandom read's return and CRNG ready, and the ratio
    of the first read's medians. plots/bases.py names cells and bases, as
    chart 9 does."""
    rows = summary_rows(run)
    olds = bases.bases(rows)
    if len(olds) != 2:
        die(f"{run}: --bases takes a run of two kernel bases (studies/bases/bases.matrix); this one has "
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
           "median ms (under 1 ms: us, from raw.csv's ns) from kernel start [95% bootstrap CI of the median], each base's own boots "
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
                f"{span(durs[0], durs[-1])}")
    for c in cells:
        out.append(row(md(c[1]), md(c[2]), md(c[3]), md(c[4]), *(cnt(by.get((c, b), [])) for b in olds)))
    return "\n".join(out) + "\n"
