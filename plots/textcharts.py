#!/usr/bin/env python3
"""The charts as plain text for an 80-column mail, from the same data
tables the gnuplot charts draw (plots/prepare.py's DATA_DIR):

    plots/textcharts.py DATA_DIR OUT_DIR   -> OUT_DIR/<chart>.txt

Every row is labelled with its variant, reference lines are columns of ':'
that a point always covers, named once below the axis, and every chart
ends with its legend. Numbers are the data tables' (the runner's), never
computed here, except the marks' positions on the axis.
"""
import math
import os
import shlex
import sys
import textwrap

from cells import BEFORE_CLOCK
from runlib import CHARTS, JITTER_TICKS, accel_title, die, jitter_ticks_ms, open_new, refuse_link, run_main, variants

WIDTH = 80
LABEL = 22  # row label column
PLOT = WIDTH - LABEL - 2  # plot columns between the label and the margin


def rows_of(path):
    """A data table's rows, split as gnuplot reads them (quoted labels)."""
    with open(path) as f:
        return [shlex.split(l) for l in f if l.strip() and not l.startswith("#")]


def vname(data, vi):
    """The name of the variant of index vi in a chart's data (prepare.py's
    vars.gp: variant_<i>)."""
    name = var(data, f"variant_{int(float(vi))}")
    if not name:
        die(f"{data}/vars.gp names no variant_{vi}: prepare.py writes every variant a data file indexes")
    return name


def fixname(vi):
    """Chart 10's variant of index vi (kernel/variants' order)."""
    return variants()[int(vi)]


class LogAxis:
    """A decade axis over [lo, hi] ms mapped onto PLOT columns."""

    def __init__(self, values, refs=()):
        vals = [v for v in list(values) + [r for r, _ in refs] if v and v > 0]
        self.lo = 10 ** math.floor(math.log10(min(vals))) if vals else 1
        self.hi = 10 ** math.ceil(math.log10(max(vals))) if vals else 10
        if self.hi <= self.lo:
            self.hi = self.lo * 10
        self.refs = refs

    def col(self, v):
        f = (math.log10(max(v, self.lo)) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo))
        return min(PLOT - 1, max(0, round(f * (PLOT - 1))))

    def blank(self):
        line = [" "] * PLOT
        for r, _ in self.refs:
            line[self.col(r)] = ":"
        return line

    def axis(self):
        ticks, line = [" "] * PLOT, ["-"] * PLOT
        d, free = self.lo, 0  # free: the first column no label uses yet
        while d <= self.hi * 1.0001:
            c = self.col(d)
            line[c] = "+"
            text = f"{d:g}" if d < 1000 else f"{d / 1000:g}k" if d < 1e6 else f"{d / 1e6:g}M"
            c = min(c, PLOT - len(text))  # the last label ends at the margin
            if c >= free:  # crowded decades keep every other label
                for i, ch in enumerate(text):
                    ticks[c + i] = ch
                free = c + len(text) + 1
            d *= 10
        for i, (r, _) in enumerate(self.refs):
            line[self.col(r)] = chr(ord("A") + i)
        pad = " " * (LABEL + 1)
        return [pad + "".join(line).rstrip(), pad + "".join(ticks).rstrip()]

    def legend(self):
        return [f"{chr(ord('A') + i)}: {text}" for i, (_, text) in enumerate(self.refs)]


def labelled(label, width, line):
    """A chart row: label in a column of width, then line; a label longer
    than the column on a line of its own above (whole, never cut: two
    variants alike in their first letters stay apart), so no row's marks
    shift."""
    if len(label) > width:
        return [label, f"{'':<{width}} {line}"]
    return [f"{label:<{width}} {line}"]


def strip_chart(title, unit, groups, refs, symbols):
    """groups: [(condition, [(variant, [(value, symbol)])])] on a log axis."""
    axis = LogAxis([v for _, rows in groups for _, pts in rows for v, _ in pts], refs)
    out = [title, f"{unit}, log scale", ""]
    for cond, rows in groups:
        out.append(cond)
        for v, pts in rows:
            line = axis.blank()
            for val, sym in pts:
                line[axis.col(val)] = sym
            out += labelled(f"  {v}", LABEL, "".join(line).rstrip())
    out += axis.axis() + [""] + axis.legend() + [symbols]
    return out


def var(data, name, path="vars.gp"):
    """A variable of prepare.py's vars.gp (or path: chart 10's fix.gp; ""
    if absent): a number as it is written, a string as gnuplot reads its
    single-quoted literal."""
    for line in open(os.path.join(data, path)):
        if line.startswith(name + " = "):
            v = line.split(" = ", 1)[1].rstrip("\n")
            return v[1:-1].replace("''", "'") if v.startswith("'") else v
    return ""


def first_read(data, name, title):
    """Every boot's first urandom read: 'o' when it returned, '.' the read's
    own wait (drawn first, so a return at the same place covers it)."""
    rows = rows_of(os.path.join(data, name))
    groups = []
    for g in dict.fromkeys(r[5] for r in rows):
        per = []
        for vi in sorted({int(r[1]) for r in rows if r[5] == g}):
            mine = [r for r in rows if r[5] == g and int(r[1]) == vi]
            pts = [(float(r[6]), ".") for r in mine if r[6] != "NaN" and r[3] != "1"]
            pts += [(float(r[2]), ">" if r[3] == "1" else "o") for r in mine]
            per.append((vname(data, vi), pts))
        groups.append((g, per))
    refs = [(50, "50 ms, the NetHack boot"), (750, "750 ms, the complaint")]
    return strip_chart(title, "guest ms from kernel start", groups, refs,
                       "o: returned   .: the read itself   >: still waiting at the read budget")


def cdf(data):
    """Chart 2: per condition (vars.gp's cond_<i>), a row per variant: each
    boot's CRNG ready; a data set's head names both by number (the words
    after them are a reader's, never parsed: a run's text)."""
    path, groups, cur = os.path.join(data, "cdf.dat"), [], None
    with open(path) as f:
        for line in f:
            if line.startswith("# condition "):
                w = line.split()
                cond, v = var(data, f"cond_{int(w[2])}"), vname(data, w[4].rstrip(":"))
                if not groups or groups[-1][0] != cond:
                    groups.append((cond, []))
                cur = []
                groups[-1][1].append((v, cur))
            elif line.strip() and cur is not None:
                t, q = line.split()
                cur.append((float(t), "o"))
    return strip_chart(f"CRNG ready across boots, per condition: {var(data, 'clock')}", "guest ms from kernel start",
                       groups, [], "o: one boot whose CRNG became ready (boots never ready are not drawn)")


def bars(title, unit, items, note, log=False):
    """items: [(label, value or None, text)] as bars on a linear (or, with
    log, a decade: one bar length per factor of ten) scale."""
    vals = [v for _, v, _ in items if v is not None and v > 0]
    top = max(vals or [1])
    lo = 10 ** math.floor(math.log10(min(vals))) / 10 if vals else 0.1
    w = PLOT - 24

    def length(v):
        if log:
            return round(math.log10(max(v, lo) / lo) / math.log10(top / lo) * w)
        return round(v / top * w)

    out = [title, unit, ""]
    for label, v, text in items:
        if v is None and not text:
            out.append(label)  # a group's heading, whole
            continue
        bar = "#" * max(1, length(v)) if v is not None else ""
        out += labelled(label, LABEL, f"{bar} {text}".rstrip())
    return out + ["", note]


def accel(data):
    items, rows = [], rows_of(os.path.join(data, "accel.dat"))
    for r in rows:
        items.append((f"{r[8]} {r[9]}", None, ""))  # variant, condition
        for col, cens, name in ((1, 6, "tcg"), (2, 7, "icount"), (3, None, "kvm")):
            val = None if r[col] == "NaN" else float(r[col])
            if cens is not None and len(r) > cens + 4 and r[cens + 4] == "1":
                val, text = None, BEFORE_CLOCK  # a clamped 0: no bar, its words
            elif val is not None:
                text = (">" if cens is not None and r[cens] == "1" else "") + f"{r[col]} ms"
            elif name == "kvm":
                text = "not measured (KVM unusable here)" if r[4] == "not_measured" else "not in this run"
            else:
                text = "not in this run"
            items.append((f"  {name}", val, text))
    return bars(accel_title(rows),
                "median ms from kernel start (summary.csv), decade scale", items,
                "#: median, one bar length per factor of 10; '>': still not ready at the bound", log=True)


def hz(data):
    items = []
    for r in rows_of(os.path.join(data, "hz.dat")):
        items.append((f"CONFIG_HZ={r[0]}", None, f"{JITTER_TICKS} ticks = {jitter_ticks_ms(int(r[0])):g} ms"))
        for vi, val in enumerate(r[1:]):
            if val != "NaN":
                items.append((f"  {vname(data, vi)}", float(val), f"{val} ms"))
    note = var(data, "hz_note")
    return bars("The jitter loop's cost against CONFIG_HZ (cpu=qemu64)",
                f"{var(data, 'hz_clock')}: first blocking urandom read, median ms (summary.csv)", items,
                f"#: median; the loop credits one bit per tick, so it should take {JITTER_TICKS}/HZ s") \
        + ([note] if note else [])


def timeline(data):
    rows = rows_of(os.path.join(data, "timeline.dat"))
    if not rows:
        return ["One boot's timeline", "", "no boot in this run"]
    end = max(float(r[1]) + float(r[2]) for r in rows) or 1
    lab = 34
    w = WIDTH - lab - 1 - 7  # room for " <start>" after the bar
    # the boot, as the PNG's title names it (prepare.py's boot_label)
    out = textwrap.wrap(f"One boot's timeline: {var(data, 'boot_label')}", WIDTH) + textwrap.wrap(
        f"guest ms from kernel start, {var(data, 'clock')}; the slowest to ready", WIDTH) + [""]
    for r in rows:
        start, dur = float(r[1]), float(r[2])
        a = round(start / end * (w - 1))
        b = max(a + 1, round((start + dur) / end * (w - 1)))
        line = [" "] * w
        for i in range(a, min(b, w)):
            line[i] = "=" if r[4] != "0" else "|"
        line[a] = "|" if r[4] == "0" else "["
        label = r[3].replace("pid 1 (probe, then systemd)", "pid 1")  # said below
        out += labelled(label, lab, "".join(line).rstrip() + f" {start:.0f}")
    return out + ["", f"scale: one column = {end / w:.1f} ms; |: an event; [===: a read, its length",
                  "the number after a row: its start, ms; pid 1: the probe, then systemd"]


def arches(data):
    """Chart 7: per machine and condition, 'o' CRNG ready, '.' the first
    urandom read's wait, '>' still waiting at the bound; a block per clock."""
    out = []
    for p in range(int(var(data, "npanels") or 0)):
        rows = rows_of(os.path.join(data, f"arches_{p}.dat"))
        groups = []
        for g in dict.fromkeys(r[6] for r in rows):
            per = []
            for vi in sorted({int(r[1]) for r in rows if r[6] == g}):
                mine = [r for r in rows if r[6] == g and int(r[1]) == vi]
                pts = [(float(r[4]), ">" if r[5] == "1" else ".") for r in mine if r[4] != "NaN"]
                pts += [(float(r[2]), ">" if r[3] == "1" else "o") for r in mine if r[2] != "NaN"]
                per.append((vname(data, vi), pts))
            groups.append((g, per))
        out += ([""] if out else []) + strip_chart(
            f"The revert's architectures on {var(data, 'kernel_base')}: {var(data, f'panel_{p}')}",
            "guest ms from kernel start", groups, [(750, "750 ms, the complaint")],
            f"o: CRNG ready (floor: {BEFORE_CLOCK})  .: the read's wait  >: at its bound")
    return out


def margin(data):
    """Chart 8: per machine, a row per CPU speed and HZ: each boot's first
    jitter trial's samples per bit, 'o' passed, 'x' gave up; the caps
    HZ/15 as reference columns."""
    rows = rows_of(os.path.join(data, "margin.dat"))
    names = [var(data, f"machine_{i}") for i in range(int(var(data, "nmachines") or 0))]
    refs = [(float(var(data, f"cap_{i}")), var(data, f"caplabel_{i}")) for i in range(int(var(data, "ncaps") or 0))]
    groups = []
    for mi, name in enumerate(names):
        mine = [r for r in rows if int(r[3]) == mi]
        keys = sorted({(float(r[1]), int(r[4])) for r in mine}, key=lambda k: (-k[0], k[1]))
        groups.append((name, [(f"{mhz:g} MHz, HZ={hz}",
                               [(float(r[2]), "o" if r[5] == "1" else "x") for r in mine
                                if (float(r[1]), int(r[4])) == (mhz, hz)]) for mhz, hz in keys]))
    if not rows:
        return ["The jitter trial's margin", "", "no jitter trial logged under icount in this run"]
    return strip_chart(f"The jitter trial's margin on {var(data, 'kernel_base')}: samples per bit, icount",
                       "the first trial's samples per bit per boot", groups, refs,
                       "o: the trial passed (at most the cap)   x: it gave up")


def bases_chart(data):
    """Chart 9: per cell, a row per kernel base: each boot's first urandom
    read's return, 'o', '>' still waiting at the budget; a block per clock."""
    out = []
    names = [var(data, f"base_{i}") for i in range(int(var(data, "nbases") or 0))]
    for p in range(int(var(data, "npanels") or 0)):
        rows = rows_of(os.path.join(data, f"bases_{p}.dat"))
        groups = []
        for g in dict.fromkeys(r[4] for r in rows):
            per = []
            for bi in sorted({int(r[1]) for r in rows if r[4] == g}):
                per.append((f"Linux {names[bi] if bi < len(names) else bi}",
                            [(float(r[2]), ">" if r[3] == "1" else "o") for r in rows if r[4] == g and int(r[1]) == bi]))
            groups.append((g, per))
        out += ([""] if out else []) + strip_chart(
            f"Linux {var(data, 'bases_title')}: {var(data, f'panel_{p}')}",
            "the first urandom read returned, guest ms from kernel start", groups, [(750, "750 ms, the complaint")],
            "o: returned   >: still waiting at the read budget")
    return out


def fix_chart(data):
    """Chart 10: per panel (machine, speed, HZ, counter, base), a row per
    variant: its boots' marks on the log time axis: 'f' the first mix,
    '1' '2' '3' the mixes' credit reached 64, 128, 192 bits, 'R' CRNG
    ready, '>' not ready at the bound."""
    sym = {"0": "f", "1": "1", "2": "2", "3": "3", "4": "R", "5": ">"}
    groups = []
    for p in range(int(var(data, "nfixpanels", "fix.gp") or 0)):
        rows = rows_of(os.path.join(data, f"fixmarks_{p}.dat"))
        per = [(fixname(vi), [(float(r[0]) * 1000, sym.get(r[3], "?")) for r in rows if int(r[2]) == vi])
               for vi in sorted({int(r[2]) for r in rows})]
        groups.append((var(data, f"fixtitle_{p}", "fix.gp"), per))
    if not any(per for _, per in groups):
        return ["Bits credited by fast pool mixes", "", "no boot of a variant and its -fix form in this run"]
    return strip_chart("Fast pool mixes without and with patch 0008 (-fix)", "guest ms from kernel start", groups, [],
                       "f: first mix  1/2/3: 64/128/192 bits credited  R: CRNG ready  >: at the bound")


def main():
    if len(sys.argv) != 3:
        die("usage: plots/textcharts.py DATA_DIR OUT_DIR")
    data, out = sys.argv[1], refuse_link(sys.argv[2])
    charts = {  # a text version of every chart of runlib.CHARTS
        "1-nethack": lambda: first_read(data, "nethack.dat", "When the first /dev/urandom read returns: "
                                        + var(data, "clock"))
        + ([""] + first_read(data, "nethack_tcg.dat", "The same in emulation time (TCG)")
           if rows_of(os.path.join(data, "nethack_tcg.dat")) else []),
        "2-crng-ready-cdf": lambda: cdf(data),
        "3-tcg-vs-kvm": lambda: accel(data),
        "4-timeline": lambda: timeline(data),
        "5-jitter-vs-hz": lambda: hz(data),
        "6-nocounter": lambda: first_read(data, "nocounter.dat",
                                          "No counter: the first urandom read (qemu64), " + var(data, "clock")),
        "7-arches": lambda: arches(data),
        "8-trial-margin": lambda: margin(data),
        "9-bases": lambda: bases_chart(data),
        "10-fix-mixes": lambda: fix_chart(data),
    }
    if set(charts) != set(CHARTS):
        die(f"textcharts.py draws {sorted(charts)} but runlib.CHARTS lists {sorted(CHARTS)}")
    # the charts prepare.py found fit for the run
    for name in open(os.path.join(data, "charts")).read().split():
        if name not in charts:
            die(f"{os.path.join(data, 'charts')}: no chart {name!r} (prepare.py writes that list)")
        with open_new(os.path.join(out, name + ".txt")) as f:
            f.write("\n".join(l.rstrip() for l in charts[name]()) + "\n")


if __name__ == "__main__":
    run_main(main)
