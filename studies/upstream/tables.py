"""The upstream study's block: patch 0008 on kernels as shipped (stock,
stock-fix; no RFC patch), with PID 1 waiting in getrandom(0) at once, on
versatilepb at 1 GHz, HZ=100, both bases (the benefit), q800 and
m68k-virt without a counter on 6.1 (the cost). Per cell and variant: how long
that getrandom(0) call waited (reads.csv), when the CRNG was ready and the
first fast pool mix (raw.csv, patch 0007's log). Every value is the run's
boots as they are (plots/fix.py's words: "k identical", a range, '>')."""
from cells import run_name
from entropy import cpu_mhz
from fix import cells_of, first_mix, seconds
from markup import md, row
from runlib import die, read_table

VARIANTS = ("stock", "stock-fix")


def waited(boots, reads):
    """The first getrandom(0) call's wait over a cell's boots, in fix.py's
    words; '>' where it was still waiting at the probe's bound."""
    first = {}
    for r in reads:
        if r["iface"] == "getrandom" and r["boot_id"] not in first:
            first[r["boot_id"]] = r
    got = [first.get(b["boot_id"]) for b in boots]
    if not boots or None in got:
        return "not read" if boots else "not run"
    as_ready = [{"d": r["dur_ns"], "c": "1" if r["timed_out"] == "1" else "0", "crng_ready_bound_ns": r["dur_ns"]}
                for r in got]
    return seconds(as_ready, "d", "c")


def tables(run):
    raw, reads = read_table(run, "raw.csv"), read_table(run, "reads.csv")
    cells = cells_of(raw)
    if not cells:
        die(f"{run}: no measured boot (a run of studies/upstream/upstream.matrix?)")
    out = [f"### Patch 0008 on kernels as shipped: an early getrandom(0) caller (run {run_name(run)})\n",
           "Seconds of guest time from kernel start, one CPU, HZ=100, icount, untraced; jitter trial \"off (knob)\": "
           "the test-only `random.no_cycle_counter` makes it give up at once (the counter still feeds the fast pool); "
           "stock: the base with only the test-only patches 0001, 0005 and 0007 (no RFC patch); stock-fix: "
           "the same with 0008. PID 1's first call is getrandom(buf, 32, 0). Each cell's boots as they are "
           "(\"k identical\": every boot the same nanosecond; '>': still waiting, or not ready, at the "
           "run's bound); first mix: patch 0007's log of the first fast pool mix before the CRNG was "
           "ready, made by 1024 interrupts (count) or a second since the last mix (time).\n",
           row("machine", "MHz", "jitter trial", "base", "variant", "getrandom(0) waited", "CRNG ready", "first mix"),
           "|---|---|---|---|---|---|---|---|"]
    for key in sorted({k[:5] for k in cells}, key=lambda k: (not k[0].startswith("armv5"), k[0], k[4], k[1])):
        arch, shift, hz, nocounter, base = key
        for v in VARIANTS:
            boots = cells.get(key + (v,), [])
            mhz = cpu_mhz(boots[0], run) if boots else None
            out.append(row(*(md(c) for c in (
                arch, f"{mhz:g}" if mhz is not None else "host", "off (knob)" if nocounter == "on" else "as shipped",
                base, v, waited(boots, reads),
                seconds(boots, "crng_ready_ns", "crng_ready_censored"), first_mix(boots) if boots else "-"))))
    return "\n".join(out) + "\n"
