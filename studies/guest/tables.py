"""The guest study's block: what the guest itself costs (the probe's
overhead, kernel start to PID 1, systemd's boot, the host's wall time),
stock boots per accelerator and trace, summary.csv's medians [CI]."""
from cells import fmt, run_name, summary_rows
from markup import md, row
from runlib import condition, pick, varying


def tables(run):
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
