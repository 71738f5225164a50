#!/usr/bin/env python3
"""Turn a crngbench results directory into gnuplot data files.

    plots/prepare.py RUN_DIR DATA_DIR

Selects and lays out; computes no statistic. The headline clock is
instruction time (icount) where the run measured it, else TCG (runlib's
headline_accel); chart 1 shows TCG beside it. Per-boot points (charts 1, 2,
4, 6) come from raw.csv's columns as the runner derived them (crng_ready_ns:
the kernel log's time, else the watcher's); every median (charts 3 and 5)
and every n comes from summary.csv, so a chart and REPORT.md's table beside
it always show the same number. Writes one small table per chart into
DATA_DIR, vars.gp with captions and labels, series.gp with the plot
commands for the series that exist.

Nothing read from the run reaches gnuplot as code: vars.gp holds its text
as single-quoted gnuplot strings (which gnuplot never expands), a tick
label's '%' doubled (gnuplot formats those), the data files hold labels as
data, and series.gp (eval'd) holds only what this file writes: colours,
column numbers, numbers, and the names of vars.gp's variables (a variant's
name is one: title variant_0).

Charts 1, 2, 5, 6 and 7 show every variant of the run under its name, one
kernel/variants does not define too (runlib.run_variants: its slots and
their order); a chart with nothing to show is left out of DATA_DIR/charts.
"""
import math
import os
import shlex
import sys

from runlib import (CLOCK_WORDS, JITTER_TICKS, accel_title, caption, charts_for, check_path, condition, die,
                    headline_accel, is_arches, jitter_rows, kernel_base, measured, open_new, pick, pick_index,
                    read_meta, read_table, refuse_link, run_kind, run_main, run_variants, study_charts, value,
                    variant_colour, variant_order, varying)
# summary.csv checked, without runlib's "_ns" (raw.csv read again and every
# boot's values per row: the tables' sub-millisecond figures, no chart's)
from runfiles import summary_rows

import bases
from cells import BEFORE_CLOCK, before_clock
from gpquote import gp_str, label, tic_str  # noqa: F401 (the chart strings' one definition)

MS = 1e-6


def num(row, key):
    v = row.get(key, "")
    return float(v) if v not in ("", None) else None


def group_by(rows, key):
    """rows by key(row), each group in the rows' order: one pass, where a
    filter per group was groups x rows."""
    out = {}
    for r in rows:
        out.setdefault(key(r), []).append(r)
    return out


_REPS = {}


def spread(r, rows):
    """A boot's small, deterministic x offset within its cell, so boots do
    not sit on each other: one step per rep, over +-0.25 of a slot, for as
    many reps as the run has (each of n=10 boots its own x, not rep % 5).
    The run's largest rep is found once per list of rows, not once per row
    (that was quadratic: hours for a large run)."""
    key = (id(rows), len(rows))
    if key not in _REPS:
        _REPS[key] = (rows, max((int(x["rep"]) for x in rows), default=0) + 1)
    reps = _REPS[key][1]
    return (int(r["rep"]) / max(reps - 1, 1) - 0.5) * 0.5 if reps > 1 else 0.0


def slot_x(group, slot, slots):
    """A cell's x in charts 1, 6 and 7: its condition's group, a slot per
    variant of the run (slots: run_variants()) and a free slot between
    groups."""
    return group * (len(slots) + 1) + slots.index(slot)


def group_tic(group, slots):
    """The x of a group's tick: the middle of its variants' slots."""
    return group * (len(slots) + 1) + (len(slots) - 1) / 2


def first_urandom_table(rows, path, slots):
    """Charts 1 and 6: every boot's first urandom read, grouped by condition:
    when it returned (from kernel start) and how long the read itself took;
    its variant_index is the variant's place in slots."""
    groups = sorted({r["_cond"] for r in rows})
    with open_new(path) as f:
        f.write("# x variant_index guest_ms guest_censored host_ms group dur_ms\n")
        by = group_by(rows, lambda r: r["_cond"])
        for gi, g in enumerate(groups):
            for r in by[g]:
                e = num(r, "first_urandom_end_ns")
                if e is None:
                    continue
                vi = slots.index(r["variant"])
                # a small, deterministic spread so boots do not overlap
                x = slot_x(gi, r["variant"], slots) + spread(r, rows)
                h = num(r, "host_urandom_ns")
                dur = num(r, "first_urandom_dur_ns")
                f.write(f"{x:.2f} {vi} {e * MS:.3f} {r['first_urandom_censored'] or 0} "
                        f"{(h * MS) if h is not None else 'NaN'} {label(g)} "
                        f"{f'{dur * MS:.4f}' if dur is not None else 'NaN'}\n")
    return groups


def time_axis(values):
    """(lo, hi, tics) of charts 1 and 6's log axis of ms holding values
    (and their reference lines): from the decade below the least to the
    first tick above the most, each with room; a tick at each decade of ms
    up to 10 s, then at 1, 10, 100, ... minutes, read as they are ('0.1
    ms', '1 s', '10 min'); tics a gnuplot tic list (numbers and units)."""
    vals = [v for v in values if v > 0] or [1.0]
    lo = 10 ** math.floor(math.log10(min(vals) / ROOM))
    hi = max(vals) * ROOM
    marks, t = [], lo
    while not marks or marks[-1][0] < hi:
        marks.append((t, f"{t:g} ms" if t < 1000 else f"{t / 1000:g} s" if t < 60000 else f"{t / 60000:g} min"))
        t = t * 10 if t < 1e4 or t >= 6e4 else 6e4
    return lo, marks[-1][0], "(" + ", ".join(f'"{text}" {v:g}' for v, text in marks) + ")"


ROOM = 1.5  # a point no nearer than this factor to the time axis' ends


FLOOR_MS = 0.001  # chart 7's log axis: "ready before PID 1" (0) drawn here


def arches_table(rows, path, slots):
    """Chart 7: every boot of the revert's architectures: when the CRNG was
    ready (from kernel start; censored at the report's bound) and how long
    the first urandom read waited (censored at its budget), grouped by
    machine and condition; variant_index as first_urandom_table's."""
    groups = list(dict.fromkeys(sorted((value(r, "arch"), r["_cond"]) for r in rows)))
    with open_new(path) as f:
        f.write("# x variant_index ready_ms ready_censored wait_ms wait_censored group\n")
        by = group_by(rows, lambda r: (value(r, "arch"), r["_cond"]))
        for gi, g in enumerate(groups):
            for r in by[g]:
                vi = slots.index(r["variant"])
                x = slot_x(gi, r["variant"], slots) + spread(r, rows)
                cens = r["crng_ready_censored"] == "1"
                ready = num(r, "crng_ready_bound_ns" if cens else "crng_ready_ns")
                wait = num(r, "first_urandom_dur_ns")
                f.write(" ".join([
                    f"{x:.2f}", str(vi),
                    "NaN" if ready is None else f"{max(ready * MS, FLOOR_MS):.4f}", "1" if cens else "0",
                    "NaN" if wait is None else f"{max(wait * MS, FLOOR_MS):.4f}",
                    r["first_urandom_censored"] or "0", label(g[1])]) + "\n")
    return [g[1] for g in groups]


def series_arches(path, slots):
    """Chart 7's series: filled = CRNG ready, open = the read's wait, per
    variant (titled by vars.gp's variant_<i> and its words); black = still
    waiting at the bound."""
    ready, waited, cens = set(), set(), set()
    for r in dat_rows(path):
        if r[3] == "0" and r[2] != "NaN":
            ready.add(r[1])
        if r[5] == "0" and r[4] != "NaN":
            waited.add(r[1])
        cens |= {c for c in (3, 5) if r[c] == "1"}
    parts = []
    for vi, v in enumerate(slots):
        if str(vi) in ready:
            parts.append(f"dat using ($2=={vi} && $4==0 ? $1 : NaN):3 with points pt 7 ps 0.8 "
                         f"lc rgb '{variant_colour(v, slots)}' title variant_{vi}.': CRNG ready'")
        if str(vi) in waited:
            parts.append(f"dat using ($2=={vi} && $6==0 ? $1 : NaN):5 with points pt 6 ps 0.8 "
                         f"lc rgb '{variant_colour(v, slots)}' title variant_{vi}.': the first urandom read waited'")
    if 3 in cens:
        parts.append("dat using ($4==1 ? $1 : NaN):3 with points pt 9 ps 1.2 lc rgb '#000000' "
                     "title 'not ready at the report (its bound)'")
    if 5 in cens:
        parts.append("dat using ($6==1 ? $1 : NaN):5 with points pt 8 ps 1.0 lc rgb '#000000' "
                     "title 'read still waiting at its budget'")
    return ", ".join(parts) if parts else "dat using (NaN):(NaN) notitle"


def cdf_table(rows, path, slots):
    """Chart 2: each boot's CRNG-ready time, as a step per boot, a set per
    condition and variant of slots."""
    conds = sorted({r["_cond"] for r in rows})
    index = {}  # (condition, variant) -> gnuplot index, non-empty sets only
    spans = {}  # condition -> (first, last) ready time, ms
    by = group_by(rows, lambda r: (r["_cond"], r["variant"]))  # one pass, not one per set
    with open_new(path) as f:
        for ci, c in enumerate(conds):
            for v in slots:
                sel = by.get((c, v), [])
                ready = sorted(num(r, "crng_ready_ns") for r in sel
                               if r["crng_ready_censored"] != "1" and num(r, "crng_ready_ns") is not None)
                if not ready:
                    continue  # gnuplot warns on an empty data set: write none
                index[(ci, v)] = len(index)
                lo, hi = spans.get(ci, (ready[0] * MS, ready[-1] * MS))
                spans[ci] = (min(lo, ready[0] * MS), max(hi, ready[-1] * MS))
                # textcharts.py reads the two numbers; the words are for a reader
                f.write(f"# condition {ci} variant {slots.index(v)}: {c}; {v}\n")
                for i, t in enumerate(ready):
                    f.write(f"{t * MS:.3f} {(i + 1) / len(sel):.4f}\n")
                f.write("\n\n")
    return conds, index, spans


def ms_words(v):
    """A time in ms as the axes read it: '0.5 ms', '1.22 s', '4.3 min'."""
    return f"{v:.3g} ms" if v < 1000 else f"{v / 1000:.3g} s" if v < 60000 else f"{v / 60000:.3g} min"


def cdf_tics(span):
    """A chart 2 panel's x tics, read as ms, s and min: at 1, 2 and 5 of
    each decade its boots span; one tick at the moment itself where they
    were all ready at once (cdf_xrange's narrow range holds no other)."""
    if not span:
        return "()"
    if cdf_xrange(span):
        marks = [(span[0] + span[1]) / 2]
    else:
        # 1, 2, 5 of each decade of ms up to 50 s, then of minutes
        nice, k = [], math.floor(math.log10(max(span[0], 1e-3)))
        while 10 ** k < 60000:
            nice += [m * 10 ** k for m in (1, 2, 5) if m * 10 ** k < 60000]
            k += 1
        nice += [m * 10 ** j * 60000 for j in range(4) for m in (1, 2, 5)]
        marks = [v for v in nice if span[0] / 2 <= v <= span[1] * 2]
    return "(" + ", ".join(f'"{ms_words(v)}" {v:.6g}' for v in marks) + ")"


def cdf_xrange(span):
    """A panel's x range where gnuplot's autoscale would be empty: every
    boot of the condition ready at nearly the same moment (icount repeats
    a cell to within 0.01 %: gnuplot calls a range that narrow empty), 2 %
    either side on the log scale; else none."""
    if not span or span[1] - span[0] > span[1] * 1e-3:
        return ""
    return f"[{span[0] / 1.02:.6g}:{span[1] * 1.02:.6g}]"


def accel_table(summary, path):
    """Chart 3: the runner's median CRNG-ready time per cell under TCG,
    icount and KVM (summary.csv), with which medians are lower bounds and
    which a ready logged before timekeeping (cells.before_clock: a 0 the
    log axis would drop without a word)."""
    ready = [r for r in summary if r["measure"] == "crng_ready"]
    # timer=auto gives each accelerator its own tick (TCG and KVM the LAPIC,
    # icount the PIT): the same cell, so the tick is left out of its label
    # unless it varies under one accelerator.
    axes = varying(ready)
    if all(len({r["timer"] for r in ready if r["accel"] == a}) == 1 for a in {r["accel"] for r in ready}):
        axes = [a for a in axes if a != "timer"]
    ready = [dict(r, _cond=condition(r, axes)) for r in ready]
    keys = sorted({(r["_cond"], r["variant"]) for r in ready}, key=lambda k: (k[0], variant_order(k[1])))
    by = pick_index(ready, "_cond", "variant", "accel")  # one pass, not a pick per label
    with open_new(path) as f:
        f.write("# x tcg_ms icount_ms kvm_ms kvm_state label tcg_censored icount_censored variant condition "
                "tcg_before_clock icount_before_clock\n")
        for i, (c, v) in enumerate(keys):
            t, ic, k = (by.get((c, v, a)) or {} for a in ("tcg", "icount", "kvm"))
            state = "measured" if k.get("median_ms") else (
                "not_measured" if "not measured" in k.get("note", "") else "none")
            # two lines (gnuplot's "\n" between the quoted halves), each
            # half the run's text as it is (an '@' or '\n' in it stays so)
            text = label(v)[:-1] + "\\n" + label(c)[1:]
            f.write(f"{i} {t.get('median_ms') or 'NaN'} {ic.get('median_ms') or 'NaN'} "
                    f"{k.get('median_ms') or 'NaN'} {state} {text} "
                    f"{t.get('median_censored') or 0} {ic.get('median_censored') or 0} {label(v)} {label(c)} "
                    f"{int(bool(t) and before_clock(t))} {int(bool(ic) and before_clock(ic))}\n")
    return len(keys)


def read_outcome(rd):
    """How a probe read ended, for its label: its errno, or that the
    guest has no such interface (reads.csv status; older runs have none)."""
    return " (unavailable)" if rd.get("status") == "unavailable" else f" (errno {rd['errno']})"


def timeline_table(raw, reads, traces, path, accel):
    """Chart 4: one boot's timeline: the slowest to ready of qemu64 with a counter."""
    tcg = [r for r in measured(raw) if r["accel"] == accel]
    cand = [r for r in tcg if r["status"] == "ok" and r["crng_ready_censored"] == "0"
            and r["cpu"] == "qemu64" and r["nocounter"] == "off"] or \
        [r for r in raw if r["status"] == "ok"]
    boot = max(cand, key=lambda r: (r["variant"] == "block", num(r, "crng_ready_ns") or 0)) if cand else None
    y = 0
    with open_new(path) as f:
        f.write("# y start_ms dur_ms label kind(0 event,1 probe read,2 traced read)\n")
        if boot:
            for name, key in (("kernel start", None), ("init (probe)", "init_ns"),
                              ("systemd userspace", "userspace_ns"), ("game seeded", "game_seeded_ns"),
                              ("systemd finished", "finish_ns")):
                t = 0 if key is None else num(boot, key)
                if t is not None:
                    f.write(f"{y} {t * MS:.3f} 0 {label(name)} 0\n")
                    y += 1
            for rd in (x for x in reads if x["boot_id"] == boot["boot_id"]):
                f.write(f"{y} {float(rd['start_ns']) * MS:.3f} {float(rd['dur_ns']) * MS:.3f} "
                        f"{label('probe: ' + rd['iface'] + read_outcome(rd))} 1\n")
                y += 1
            fast = 0
            for tr in (x for x in traces if x["boot_id"] == boot["boot_id"]):
                if float(tr["dur_ns"]) < 1e6:
                    fast += 1
                    if fast > 6:
                        continue  # readable: every slow call, the first fast ones
                # ftrace names a pid by its command at print time: PID 1's
                # reads before the exec are the probe's.
                who = "pid 1 (probe, then systemd)" if tr["pid"] == "1" else f"{tr['comm']}[{tr['pid']}]"
                f.write(f"{y} {float(tr['start_ns']) * MS:.3f} {float(tr['dur_ns']) * MS:.3f} "
                        f"{label(who + ' ' + tr['func'])} 2\n")
                y += 1
    return boot, max(y, 1)


def hz_table(summary, path, slots):
    """Chart 5: the runner's median jitter-loop duration per CONFIG_HZ, a
    column per variant of slots (named in vars.gp: variant_<i>)."""
    rows = jitter_rows(summary)
    hzs = sorted({int(r["hz"]) for r in rows})
    with open_new(path) as f:
        f.write("# hz " + " ".join(slots) + "\n")
        for hz in hzs:
            meds = [(pick(rows, hz=str(hz), variant=v) or {}).get("median_ms") or "NaN" for v in slots]
            f.write(" ".join([str(hz)] + meds) + "\n")
    return len(hzs)


def dat_rows(path):
    """A data file's rows as lists of words, one at a time: a chart's file
    has a line per boot, and a large run's held whole took more memory than
    its raw.csv."""
    with open(path) as f:
        for line in f:
            if not line.startswith("#"):
                yield line.split()


def series_points(path, col, slots, wait=False):
    """Charts 1 and 6: one point series per variant present (titled by
    vars.gp's variant_<i>), the censored, and (wait) the read's own
    duration as open circles, titled once."""
    points, durs, censored = set(), set(), False
    for r in dat_rows(path):
        if r[3] == "0" and r[col] != "NaN":
            points.add(r[1])
        if r[-1] != "NaN":
            durs.add(r[1])
        censored = censored or r[3] == "1"
    parts = [f"dat using ($2=={vi} && $4==0 ? $1 : NaN):{col + 1} with points pt 7 ps 0.8 "
             f"lc rgb '{variant_colour(v, slots)}' title variant_{vi}"
             for vi, v in enumerate(slots) if str(vi) in points]
    if col == 2 and censored:
        parts.append("dat using ($4==1 ? $1 : NaN):3 with points pt 9 ps 1.2 lc rgb '#000000' "
                     "title 'still waiting at the read budget'")
    if wait:
        shown = [(vi, v) for vi, v in enumerate(slots) if str(vi) in durs]
        parts += [f"dat using ($2=={vi} ? $1 : NaN):7 with points pt 6 ps 0.6 lc rgb '{variant_colour(v, slots)}' "
                  + ("title 'open: the read itself'" if k == 0 else "notitle")
                  for k, (vi, v) in enumerate(shown)]
    return ", ".join(parts)


def series_hz(path, slots):
    """Chart 5: a line per variant of slots with a median (titled by
    vars.gp's variant_<i>)."""
    rows = [l.split() for l in open(path) if not l.startswith("#")]
    return ", ".join(
        # overlapping variants stay visible: wide first, narrow later
        f"dat using 1:{vi + 2} with linespoints pt {7 if vi == 0 else 6} ps {2.2 if vi == 0 else 1.2} "
        f"lw {5 if vi == 0 else 2} lc rgb '{variant_colour(v, slots)}' title variant_{vi}"
        for vi, v in enumerate(slots) if any(r[vi + 1] != "NaN" for r in rows))


def series_accel(path):
    """Chart 3's series. Its rows split as gnuplot reads them: a label of
    the run's words (a space in a condition) is one column, not several
    that shift the censored columns after it."""
    rows = [shlex.split(l) for l in open(path) if not l.startswith("#")]
    parts = []
    for col, name, colour in ((2, "TCG (emulation time)", "#4477aa"), (3, "icount (instruction time)", "#228833"),
                              (4, "KVM", "#cc6677")):
        if any(r[col - 1] != "NaN" for r in rows):
            parts.append(f"dat using {col}{':xtic(6)' if not parts else ''} "
                         f"title '{name}' lc rgb '{colour}'")
    if not parts:
        return "dat using (NaN):xtic(6) notitle"
    # a median that is only a lower bound: "still waiting at the bound"
    for col, cens, off in ((2, 7, -0.3), (3, 8, 0.0)):
        if any(r[cens - 1] == "1" for r in rows):
            parts.append(f"dat using ($1{off:+.1f}):(${col}):(strcol({cens}) eq '1' ? ' still waiting' : \"\") "
                         "with labels rotate by 90 left font ',8' notitle")
    # a ready logged before timekeeping: no bar on the log axis, its words
    # from the axis' floor instead
    for clamp, off in ((11, -0.3), (12, 0.0)):
        if any(len(r) >= clamp and r[clamp - 1] == "1" for r in rows):
            parts.append(f"dat using ($1{off:+.1f}):(1):(strcol({clamp}) eq '1' ? ' {BEFORE_CLOCK}' : \"\") "
                         "with labels rotate by 90 left font ',8' notitle")
    # KVM labels only beside KVM bars; with none anywhere, the chart says
    # so once (vars.gp's kvm_note).
    if any(r[4] == "not_measured" for r in rows) and any(r[3] != "NaN" for r in rows):
        parts.append("dat using ($1+0.3):(1):(strcol(5) eq 'not_measured' ? 'KVM: not measured' : \"\") "
                     "with labels rotate by 90 left font ',8' notitle")
    return ", ".join(parts)


def write_slots(f, slots):
    """vars.gp's variants: nvariants, and each one's name as variant_<i>
    (a series' title, a text chart's row)."""
    f.write(f"nvariants = {len(slots)}\n")
    for i, v in enumerate(slots):
        f.write(f"variant_{i} = {gp_str(v)}\n")


def write_groups(f, prefix, groups, slots):
    """vars.gp's tick of each group of charts 1, 6 and 7: its label
    (<prefix>_<i>) and its x (<prefix>x_<i>, group_tic)."""
    for i, g in enumerate(groups):
        f.write(f"{prefix}_{i} = {tic_str(g)}\n{prefix}x_{i} = {group_tic(i, slots):g}\n")


def arches_main(meta, summary, boots, d):
    """A run of the revert's architectures: chart 7 only, a panel per clock."""
    panels = [a for a in ("icount", "tcg") if any(r["accel"] == a for r in boots)]
    slots = run_variants(boots)
    with open_new(d("vars.gp")) as f, open_new(d("series.gp")) as sf:
        f.write(f"caption = {gp_str(caption(meta, summary))}\n")
        write_slots(f, slots)
        f.write(f"npanels = {len(panels)}\nfloor_ms = {FLOOR_MS}\n")
        f.write(f"kernel_base = {gp_str(kernel_base(meta))}\n")
        for p, acc in enumerate(panels):
            groups = arches_table([r for r in boots if r["accel"] == acc], d(f"arches_{p}.dat"), slots)
            f.write(f"panel_{p} = {gp_str(CLOCK_WORDS[acc])}\nngroups_{p} = {len(groups)}\n")
            write_groups(f, f"g{p}", groups, slots)
            sf.write(f"arches_{p} = {gp_str(series_arches(d(f'arches_{p}.dat'), slots))}\n")


# Chart 9: a colour per kernel base (the older first).
BASE_COLOURS = ["#4477aa", "#cc6677", "#228833", "#aa7733"]


def bases_main(meta, summary, boots, d):
    """A run of two or more kernel bases: chart 9 only, a panel per clock:
    per cell (machine, variant, condition, vCPUs), every boot's first
    urandom read's return from kernel start, each base beside the other;
    black: still waiting at the read's budget."""
    names = bases.bases(boots)
    extra = bases.extra_axes(boots)
    panels = [a for a in ("icount", "tcg") if any(r["accel"] == a for r in boots)]
    with open_new(d("vars.gp")) as f, open_new(d("series.gp")) as sf:
        f.write(f"caption = {gp_str(caption(meta, summary))}\nnbases = {len(names)}\n")
        f.write(f"npanels = {len(panels)}\nfloor_ms = {FLOOR_MS}\n")
        f.write(f"bases_title = {gp_str(' against '.join(names))}\n")
        for i, b in enumerate(names):
            f.write(f"base_{i} = {gp_str(b)}\n")
        for p, acc in enumerate(panels):
            mine = [r for r in boots if r["accel"] == acc]
            cells = sorted({bases.cell(r, extra) for r in mine}, key=bases.cell_order({bases.cell(r, extra) for r in mine}))
            with open_new(d(f"bases_{p}.dat")) as df:
                df.write("# x base_index first_ms censored group\n")
                for gi, c in enumerate(cells):
                    text = f"{c[0]}, {c[1]}, {c[2]}" + (f", {c[4]} vCPUs" if c[4] != "1" else "")
                    for r in (r for r in mine if bases.cell(r, extra) == c):
                        e = num(r, "first_urandom_end_ns")
                        if e is None:
                            continue
                        bi = names.index(value(r, "base"))
                        x = gi * (len(names) + 1) + bi + spread(r, mine)
                        df.write(f"{x:.2f} {bi} {max(e * MS, FLOOR_MS):.4f} "
                                 f"{1 if r['first_urandom_censored'] == '1' else 0} {label(text)}\n")
            f.write(f"panel_{p} = {gp_str(CLOCK_WORDS[acc])}\nngroups_{p} = {len(cells)}\n")
            for i, c in enumerate(cells):
                text = f"{c[0]}, {c[1]}, {c[2]}" + (f", {c[4]} vCPUs" if c[4] != "1" else "")
                # a tick label longer than the panel's margin can hold makes gnuplot warn: cut, marked
                f.write(f"g{p}_{i} = {tic_str(text if len(text) <= 60 else text[:59] + '~')}\n")
            rows = [l.split() for l in open(d(f"bases_{p}.dat")) if not l.startswith("#")]
            parts = [f"dat using ($2=={bi} && $4==0 ? $1 : NaN):3 with points pt 7 ps 0.8 "
                     f"lc rgb '{BASE_COLOURS[bi % len(BASE_COLOURS)]}' title base_{bi}"
                     for bi in range(len(names)) if any(r[1] == str(bi) and r[3] == "0" for r in rows)]
            if any(r[3] == "1" for r in rows):
                parts.append("dat using ($4==1 ? $1 : NaN):3 with points pt 9 ps 1.2 lc rgb '#000000' "
                             "title 'still waiting at the read budget'")
            sf.write(f"bases_{p} = {gp_str(', '.join(parts) or 'dat using (NaN):(NaN) notitle')}\n")


def main():
    if len(sys.argv) != 3:
        die("usage: plots/prepare.py RUN_DIR DATA_DIR")
    run, out = (check_path(a) for a in sys.argv[1:])
    os.makedirs(refuse_link(out), exist_ok=True)
    raw = read_table(run, "raw.csv")
    reads, traces = (read_table(run, n, missing_ok=True) for n in ("reads.csv", "traces.csv"))
    summary = summary_rows(run)
    meta = read_meta(run)
    axes = varying(raw)
    for r in raw + summary:
        r["_cond"] = condition(r, axes)
    boots = measured(raw)

    d = lambda name: os.path.join(out, name)  # noqa: E731
    charts = charts_for(raw)
    for draw in study_charts(charts):  # a study's own chart(run, dir): the entropy study's 8, fix's 10
        draw(run, out)
    if run_kind(raw) == "bases":
        bases_main(meta, summary, boots, d)
    elif run_kind(raw) in ("systemd", "waiters"):  # tables only (REPORT.md's --systemd, --waiters), chart 10 aside
        for name in ("vars.gp", "series.gp"):  # style.gp loads them: chart 10's are in fix.gp
            open_new(d(name)).close()
    elif run_kind(raw) == "entropy":
        pass  # chart 8 alone: the entropy study's chart(run, dir), above
    elif is_arches(raw):
        arches_main(meta, summary, boots, d)
    else:
        empty = x86_main(meta, summary, raw, reads, traces, boots, d)
        charts = [c for c in charts if c not in empty]
    with open_new(d("charts")) as f:
        f.write("".join(f"{c}\n" for c in charts))


def x86_main(meta, summary, raw, reads, traces, boots, d):
    """A run of the systemd guest: charts 1 to 6; the ones with nothing
    to show (no point, no cell), which are not drawn."""
    head = headline_accel(boots)  # icount where measured, else TCG
    tcg = [r for r in boots if r["accel"] == "tcg"]
    main_rows = [r for r in boots if r["accel"] == head]
    slots = run_variants(boots)
    # Chart 1: the headline clock, every condition; TCG beside it, labelled.
    groups1 = first_urandom_table(main_rows, d("nethack.dat"), slots)
    groups1t = first_urandom_table(tcg if head != "tcg" else [], d("nethack_tcg.dat"), slots)
    groups6 = first_urandom_table([r for r in main_rows if r["cpu"] == "qemu64"], d("nocounter.dat"), slots)
    conds, cdf_index, cdf_spans = cdf_table(main_rows, d("cdf.dat"), slots)
    ncells = accel_table(summary, d("accel.dat"))
    boot, timeline_rows = timeline_table(raw, reads, traces, d("timeline.dat"), head)
    nhz = hz_table(summary, d("hz.dat"), slots)
    series = {name: series_points(d(name), 2, slots, wait=True)
              for name in ("nethack.dat", "nethack_tcg.dat", "nocounter.dat")}

    with open_new(d("vars.gp")) as f:
        f.write(f"caption = {gp_str(caption(meta, summary))}\n")
        f.write(f"ngroups1 = {len(groups1)}\nngroups1t = {len(groups1t)}\n")
        f.write(f"ngroups6 = {len(groups6)}\nnconds = {len(conds)}\n")
        f.write(f"clock = {gp_str(CLOCK_WORDS[head])}\n")
        kvm = [l.split() for l in open(d("accel.dat")) if not l.startswith("#")]
        f.write("kvm_note = %s\n" % gp_str("KVM: not measured on this host (no usable KVM)"
                                      if kvm and all(r[3] == "NaN" for r in kvm)
                                      and any(r[4] == "not_measured" for r in kvm) else ""))
        f.write(f"accel_title = {gp_str(accel_title(kvm))}\n")
        ready_ms = (num(boot, "crng_ready_ns") or 0) * MS if boot else 0
        f.write(f"ncells = {ncells}\nnhz = {nhz}\nready_ms = {ready_ms:.3f}\n")
        # what chart 5 lacks, said in its PNG and its text alike
        f.write("hz_note = %s\n" % gp_str("only one HZ in this run: make bench MATRIX=hz" if nhz < 2 else ""))
        f.write(f"hz_clock = {gp_str(CLOCK_WORDS[headline_accel(jitter_rows(summary))])}\n")
        f.write(f"have_boot = {1 if boot else 0}\n")
        write_slots(f, slots)
        f.write(f"timeline_rows = {timeline_rows}\njitter_ticks = {JITTER_TICKS}\n")
        for prefix, names in (("g1", groups1), ("g1t", groups1t), ("g6", groups6)):
            write_groups(f, prefix, names, slots)
        # charts 1 and 6's time axis: both panels of chart 1 on one
        for suffix, files, refs in (("1", ("nethack.dat", "nethack_tcg.dat"), (50, 750)),
                                    ("6", ("nocounter.dat",), (750,))):
            lo, hi, tics = time_axis([float(r[c]) for name in files for r in dat_rows(d(name))
                                      for c in (2, -1) if r[c] != "NaN"] + list(refs))
            f.write(f"ymin{suffix} = {lo:g}\nymax{suffix} = {hi:g}\nytics{suffix} = {gp_str(tics)}\n")
        # chart 3's: its medians (TCG, icount, KVM), and 1 ms, where its
        # labels stand (before timekeeping, not measured)
        lo, hi, tics = time_axis([float(r[c]) for r in (shlex.split(l) for l in open(d("accel.dat"))
                                                        if not l.startswith("#"))
                                  for c in (1, 2, 3) if r[c] != "NaN"] + [1])
        f.write(f"ymin3 = {lo:g}\nymax3 = {hi:g}\nytics3 = {gp_str(tics)}\n")
        for i, c in enumerate(conds):  # chart 2's panel titles, drawn as they are
            f.write(f"cond_{i} = {gp_str(c)}\n")
        f.write("boot_label = %s\n" % gp_str(f"{boot['variant']}, {boot['_cond']}, boot {boot['boot_id']}"
                                        if boot else "no boot"))
        f.write(f"tcg_n = {len(tcg)}\n")
    # Which series exist: gnuplot warns on an empty data set, so the static
    # scripts plot only what this file lists (eval'd command fragments).
    with open_new(d("series.gp")) as f:
        f.write(f"nethack_guest = {gp_str(series['nethack.dat'])}\n")
        f.write(f"nethack_tcg = {gp_str(series['nethack_tcg.dat'])}\n")
        f.write(f"nocounter_guest = {gp_str(series['nocounter.dat'])}\n")
        for ci in range(len(conds)):
            parts = [f"dat index {cdf_index[(ci, v)]} using 1:2 with steps lw 2 "
                     f"lc rgb '{variant_colour(v, slots)}' title variant_{vi}"
                     for vi, v in enumerate(slots) if (ci, v) in cdf_index]
            f.write(f"cdf_{ci} = {gp_str(', '.join(parts))}\n")
            f.write(f"cdfx_{ci} = {gp_str(cdf_xrange(cdf_spans.get(ci)))}\n")
            f.write(f"cdft_{ci} = {gp_str(cdf_tics(cdf_spans.get(ci)))}\n")
        f.write(f"hz_series = {gp_str(series_hz(d('hz.dat'), slots))}\n")
        f.write(f"accel_series = {gp_str(series_accel(d('accel.dat')))}\n")
    empty = {"1-nethack": not series["nethack.dat"] and not series["nethack_tcg.dat"],
             "2-crng-ready-cdf": not conds, "3-tcg-vs-kvm": not ncells, "4-timeline": not boot,
             "5-jitter-vs-hz": not nhz, "6-nocounter": not series["nocounter.dat"]}
    return [c for c, none in empty.items() if none]


if __name__ == "__main__":
    run_main(main)
