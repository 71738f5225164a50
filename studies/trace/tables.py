"""The trace study's block: in each traced boot, the kernel's read entry
points called before the probe's first read (traces.csv, ftrace's
function_graph: pid, command, function, start and duration), so who asks
the RNG before PID 1's probe does is read from the boots, not said."""
from cells import run_name
from markup import code, md, row
from runlib import die, read_table, value


def took(ns):
    """A call's duration: us under a millisecond, else ms."""
    return f"{ns / 1e3:.1f} us" if ns < 1_000_000 else f"{ns / 1e6:.1f} ms"


def tables(run):
    raw, reads, traces = (read_table(run, n) for n in ("raw.csv", "reads.csv", "traces.csv"))
    boots = [b for b in raw if b["status"] == "ok"]
    if not boots:
        die(f"{run}: no traced boot that ran to its report (a run of studies/trace/trace.matrix?)")
    out = [f"### Read calls before the probe's first read, traced boots (run {run_name(run)})\n",
           "Diagnostic boots (ftrace function_graph on every read entry point of the RNG: slower than "
           "the untraced runs, so no time here is compared with theirs), icount, x86_64 -cpu qemu64; "
           "ms from kernel start. ftrace names a task by its command when the call returns: PID 1's "
           "calls before the exec are the probe's binary, then systemd's.\n",
           row("boot", "variant", "probe's first read at", "pid", "command", "function", "start", "took"),
           "|---|---|---|---|---|---|---|---|"]
    for b in sorted(boots, key=lambda b: (b["variant"], b["boot_id"])):
        first = [r for r in reads if r["boot_id"] == b["boot_id"]]
        if not first:
            die(f"{run}: boot {b['boot_id']} made no probe read (reads.csv)")
        t0 = min(int(r["start_ns"]) for r in first)
        # ftrace stamps in whole us: a call stamped in the us the probe's
        # read began is that read
        calls = [t for t in traces if t["boot_id"] == b["boot_id"] and int(t["start_ns"]) < t0 // 1000 * 1000]
        for t in sorted(calls, key=lambda t: int(t["start_ns"])) or [None]:
            # what the run wrote: code spans for names, md() for the rest;
            # never decided by what a cell's text starts with
            cells = [code(b["boot_id"]), md(value(b, "variant")), f"{t0 / 1e6:.3f}"]
            cells += ([md(t["pid"]), code(t["comm"]), code(t["func"]), f"{int(t['start_ns']) / 1e6:.3f}",
                       took(int(t["dur_ns"]))] if t else ["-", "none", "-", "-", "-"])
            out.append(row(*cells))
    return "\n".join(out) + "\n"
