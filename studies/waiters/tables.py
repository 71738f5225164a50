"""The waiters study's block, "Several waiters", from a run of
studies/waiters/waiters.matrix: per machine and base, when the CRNG
was ready with 1, 2, 4 and 8 tasks waiting in getrandom(0) at once (PID 1
and the probe's `waiters` more), on the kernel as shipped (stock) and with
the candidate patch 0009 that counts a tick once however many wait
(stock-once).

Each task that waits runs try_to_generate_entropy() with a timer of its
own, and each timer credits a bit every samples_per_bit ticks, so the
credits a tick are what the boots show, not what is typed here: the
"ticks" row divides the time from the first read to ready by the tick.
Values are raw.csv's boots as they are (the median, and "k identical"
where every boot logged the same nanosecond)."""
import math
import re
import statistics

from cells import run_name
from entropy import cpu_mhz
from markup import titled
from runlib import MEASURED, die, read_table, value

VARIANTS = ("stock", "stock-once")


# the waiters axis's values as the runner takes them (crb_waiters(),
# guest-image/record.c): one digit, 0 to CRB_MAX_WAITERS
WAITERS = re.compile(r"[0-7]\Z")


def _cells(run, rows):
    """Boots by (arch, shift, hz, base, variant, waiters), measured only."""
    out = {}
    for r in rows:
        if r["status"] not in MEASURED:
            continue
        w = value(r, "waiters")
        if not WAITERS.match(w):
            die(f"{run}/raw.csv: boot {r['boot_id']}: waiters {w[:40]!r} is not one digit from 0 to 7, "
                "as the runner's waiters axis takes it: not a row the runner wrote")
        key = (value(r, "arch"), value(r, "shift"), r["hz"], value(r, "base"), r["variant"], w)
        out.setdefault(key, []).append(r)
    return out


def ready_ms(boots):
    """CRNG ready in ms from kernel start: 'x ms (k identical)', 'x ms (k
    boots within N us)' where they differ below the ms, or the median with
    the range; '>x ms' where every boot was censored."""
    if not boots:
        return "not run"
    cens = all(b.get("crng_ready_censored") == "1" for b in boots)
    col = "crng_ready_bound_ns" if cens else "crng_ready_ns"
    vals = [int(b[col]) for b in boots if b.get(col) not in (None, "")]
    if not vals:
        return "-"
    mark, k = (">" if cens else ""), len(vals)
    lo, hi = min(vals) / 1e6, max(vals) / 1e6
    if k == 1:
        return f"{mark}{lo:.0f} ms (1 boot)"
    if lo == hi:
        return f"{mark}{lo:.0f} ms ({k} identical)"
    if f"{lo:.0f}" == f"{hi:.0f}":
        return f"{mark}{lo:.0f} ms ({k} boots within {max(1, math.ceil((max(vals) - min(vals)) / 1e3))} us)"
    return f"{mark}{statistics.median(vals) / 1e6:.0f} ms ({lo:.0f}-{hi:.0f}, {k} boots)"


def waiters_table(run, rows):
    """One row per machine, base and variant; a column per number of
    concurrent waiters (1 + the axis' value) that the run booted."""
    cells = _cells(run, rows)
    if not cells:
        die(f"{run}: no measured boot (a run of studies/waiters/waiters.matrix?)")
    counts = sorted({int(k[5]) for k in cells})
    keys = sorted({k[:5] for k in cells},
                  key=lambda k: (k[0] != "x86_64", k[0], k[1], k[2], k[3], VARIANTS.index(k[4]) if k[4] in VARIANTS else 9, k[4]))
    out = [["machine", "MHz", "HZ", "base", "variant"] + [f"{n + 1} waiting" for n in counts]]
    for arch, shift, hz, base, variant in keys:
        any_boot = next(b for k, bs in cells.items() if k[:5] == (arch, shift, hz, base, variant) for b in bs)
        mhz = cpu_mhz(any_boot, run)
        out.append([arch, f"{mhz:g}" if mhz is not None else "host", hz, base, variant] +
                   [ready_ms(cells.get((arch, shift, hz, base, variant, str(n)), [])) for n in counts])
    return out


def tables(run):
    """Several waiters (the waiters matrix): CRNG ready against the number
    of tasks waiting at once, without and with patch 0009."""
    t = waiters_table(run, read_table(run, "raw.csv"))
    return titled(t, [
        f"### CRNG ready with 1, 2, 4 and 8 tasks waiting at once (run {run_name(run)})\n",
        "Milliseconds from kernel start under icount, each cell's boots as raw.csv has them: the median, with the "
        "range (\"k identical\": every boot the same nanosecond, \"within N us\": their spread; '>': not ready at the run's bound); "
        "\"n waiting\": PID 1 in getrandom(0) and n - 1 more processes blocked in getrandom(0) beside it "
        "(the `waiters` axis); stock-once: stock with the candidate patch 0009, which counts a tick once "
        "however many tasks wait.\n"])
