"""REPORT.md's table "A fix for 32-bit kernels" (plots/report_tables.py
--fix) from a run of bench/fix.matrix: per machine, clock, counter and
base, when the CRNG was ready without and with patch 0008 (block against
block-fix, stock against stock-fix), and the first fast pool mix of each
(patch 0007's log: when, and whether 1024 interrupts or a second since the
last mix made it), which is the mechanism the fix changes.

Values are raw.csv's boots as they are: the median of a cell's boots, and
"identical" where every boot of the cell logged the same nanosecond (the
icount trajectory repeated), else the range. Nothing here is typed in."""
import statistics

from entropy import cpu_mhz
from runlib import MEASURED, die, value

PAIRS = (("block", "block-fix"), ("stock", "stock-fix"))


def _cells(rows):
    """Boots by (arch, shift, hz, nocounter, base, variant), measured only."""
    out = {}
    for r in rows:
        if r["status"] not in MEASURED:
            continue
        key = (value(r, "arch"), value(r, "shift"), r["hz"], value(r, "nocounter"), value(r, "base"), r["variant"])
        out.setdefault(key, []).append(r)
    return out


def seconds(boots, col, censored_col=None):
    """A cell's column in seconds: 'x.x s (k identical)' or 'a-b s (k)',
    '>x s' where every boot was censored, '-' where no boot has it."""
    if not boots:
        return "not run"
    cens = censored_col and all(b.get(censored_col) == "1" for b in boots)
    col = "crng_ready_bound_ns" if cens else col
    vals = [int(b[col]) for b in boots if b.get(col) not in (None, "")]
    if not vals:
        return "-"
    k = len(vals)
    lo, hi = min(vals) / 1e9, max(vals) / 1e9
    mark = ">" if cens else ""
    if min(vals) == max(vals):
        return f"{mark}{lo:.1f} s ({k} identical)" if k > 1 else f"{mark}{lo:.1f} s (1 boot)"
    return f"{mark}{statistics.median(vals) / 1e9:.1f} s ({lo:.1f}-{hi:.1f}, {k} boots)"


def first_mix(boots):
    """The first mix of a cell's boots: 'T s, by count|time' (the first
    boot's; the others' said only where they differ), '-' where no mix
    was logged before the CRNG was ready."""
    words = []
    for b in boots:
        t, by = b.get("mix_first_ns") or "", b.get("mix_first_by_time") or ""
        if not t:
            w = "none logged"
        else:
            s = int(t) / 1e9
            w = (f"{s:.1f} s" if s >= 1 else f"{s * 1e3:.0f} ms") + f", by {'time' if by == '1' else 'count'}"
        if w not in words:
            words.append(w)
    return "; ".join(words) if words else "-"


def fix_table(run, rows):
    """The table: one row per machine, clock, counter and base of the run,
    with each before/after pair of PAIRS that the run booted."""
    cells = _cells(rows)
    if not cells:
        die(f"{run}: no measured boot (a run of bench/fix.matrix?)")
    keys = sorted({k[:5] for k in cells}, key=lambda k: (k[0] != "x86_64", k[0], k[1], k[2], k[3], k[4]))
    pairs = [p for p in PAIRS if any(k[5] in p for k in cells)]
    head = ["machine", "MHz", "HZ", "counter", "base"]
    for before, after in pairs:
        head += [f"{before}: ready", f"{after}: ready", f"{before}: first mix", f"{after}: first mix"]
    out = [head]
    for arch, shift, hz, nocounter, base in keys:
        any_boot = next(b for k, bs in cells.items() if k[:5] == (arch, shift, hz, nocounter, base) for b in bs)
        mhz = cpu_mhz(any_boot, run)
        line = [arch, f"{mhz:g}" if mhz is not None else "host", hz,
                "none (knob)" if nocounter == "on" else "as shipped", base]
        for before, after in pairs:
            b = cells.get((arch, shift, hz, nocounter, base, before), [])
            a = cells.get((arch, shift, hz, nocounter, base, after), [])
            line += [seconds(b, "crng_ready_ns", "crng_ready_censored"),
                     seconds(a, "crng_ready_ns", "crng_ready_censored"), first_mix(b), first_mix(a)]
        out.append(line)
    return out
