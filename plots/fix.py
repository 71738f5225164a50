"""REPORT.md's table "A fix for 32-bit kernels" (plots/report_tables.py
--fix) from a run of studies/fix/fix.matrix: per machine, clock, counter and
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


def cells_of(rows):
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
            # printk stamps 0 before the kernel's clock has started (q800):
            # no time, only that bound (issue 47: no bare zero)
            when = "before timekeeping" if int(t) == 0 else f"{s:.1f} s" if s >= 1 else f"{s * 1e3:.0f} ms"
            w = when + f", by {'time' if by == '1' else 'count'}"
        if w not in words:
            words.append(w)
    return "; ".join(words) if words else "-"


def panel_keys(cells):
    """The run's (machine, shift, HZ, counter, base) in the table's order:
    x86_64 first, then by machine, clock, HZ, counter and base."""
    return sorted({k[:5] for k in cells}, key=lambda k: (k[0] != "x86_64", k[0], k[1], k[2], k[3], k[4]))


def condition_words(run, key, boot):
    """A row's or panel's machine, speed, HZ and counter in words."""
    arch, _, hz, nocounter, _ = key
    mhz = cpu_mhz(boot, run)
    return (f"{arch}, {f'{mhz:g} MHz' if mhz is not None else 'host speed'}, HZ={hz}, "
            + ("no counter (knob)" if nocounter == "on" else "counter as shipped"))


# Chart 10's marks on a boot's curve, raw.csv's column for each, and the
# credited bits that column's moment stands for.
FIRST, REACHED, READY, BOUND = "first", "reached", "ready", "bound"
THRESHOLDS = (("mix_64_ns", 64), ("mix_128_ns", 128), ("mix_192_ns", 192))
READY_BITS = 256  # POOL_READY_BITS: the input pool's credit at which the CRNG is ready


def curve(b):
    """One boot's credited bits from fast pool mixes against guest time, as
    raw.csv has them (patch 0007's log, folded by bench/rows/report.c): [(ns,
    bits, mark)], in time order: the first mix (at least 1 bit: every mix
    credits one or more), the moments the mixes' credit first reached 64,
    128 and 192 bits, and at the end the mixes' total (mix_bits, logged
    while the CRNG was not ready) at CRNG ready, or at the report's bound
    where the boot was not ready by then. A moment the boot never reached
    is no point. The ready mark's 256 bits are the input pool's, all
    sources (the jitter dance's too): ready() says when."""
    def ns(col):
        v = b.get(col) or ""
        return int(v) if v.isdigit() else None

    out = []
    if ns("mix_first_ns") is not None:
        out.append((ns("mix_first_ns"), 1, FIRST))
    out += [(ns(c), bits, REACHED) for c, bits in THRESHOLDS if ns(c) is not None]
    end, _ = ready(b)
    if end is not None:
        out.append((end, ns("mix_bits") or 0, READY if b.get("crng_ready_censored") != "1" else BOUND))
    return out


def ready(b):
    """(ns, censored): when the boot's CRNG was ready, or the bound it was
    still not ready at; (None, False) where raw.csv has neither."""
    cens = b.get("crng_ready_censored") == "1"
    v = b.get("crng_ready_bound_ns" if cens else "crng_ready_ns") or ""
    return (int(v), cens) if v.isdigit() else (None, cens)


def fix_table(run, rows):
    """The table: one row per machine, clock, counter and base of the run,
    with each before/after pair of PAIRS that the run booted."""
    cells = cells_of(rows)
    if not cells:
        die(f"{run}: no measured boot (a run of studies/fix/fix.matrix?)")
    keys = panel_keys(cells)
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
