"""The entropy study's chart 8 (plots/8-trial-margin.gp): chart(run,
dir) writes its data files and vars.gp, series.gp, distinct.gp into dir,
called by plots/prepare.py for a run of the entropy matrix
(runlib.run_kind: "entropy", the study's `charts` field:
runlib.study_charts). Selects and lays out; the samples per bit are
raw.csv's, the distinct outputs summary.csv's."""
import os

from gpquote import gp_str
from runfiles import summary_rows
from runlib import caption, kernel_base, measured, open_new, read_meta, read_table, value

import entropy


# Chart 8: a point shape per HZ (open: the first trial gave up; filled:
# it passed), gnuplot's point types in pairs (open, filled).
HZ_POINTS = [(6, 7), (4, 5), (8, 9), (10, 11), (12, 13), (14, 15)]


def chart(run, out):
    """Chart 8's files of the run into the directory out."""
    meta, summary = read_meta(run), summary_rows(run)
    margin_main(run, caption(meta, summary), kernel_base(meta), summary, measured(read_table(run, "raw.csv")),
                lambda name: os.path.join(out, name))


def margin_main(run, cap, base, summary, boots, d):
    """A run of the entropy matrix: chart 8, the first jitter trial's
    samples per bit of every icount boot that logged one (raw.csv), against
    the emulated CPU's speed, one colour per machine, a shape per HZ, with
    the cap HZ/15 that each HZ's boots logged (raw.csv) as a line. A
    machine's points sit a little apart on the x axis so that machines of
    one sample per bit stay visible, and within it each HZ's (the samples
    per bit are the same at every HZ, the outcome is not)."""
    pts = entropy.chart_boots(boots, run)
    names = entropy.machines([b for b, _ in pts])
    hzs = sorted({int(b["hz"]) for b, _ in pts})
    caps = sorted({(int(b["hz"]), int(b["jitter_max_per_bit"])) for b, _ in pts})
    speeds = sorted({m for m in (entropy.cpu_mhz(b, run) for b in boots) if m is not None}, reverse=True)
    with open_new(d("margin.dat")) as f:
        f.write("# x mhz per_bit machine_index hz passed\n")
        for b, mhz in pts:
            mi, hi = names.index(value(b, "arch")), hzs.index(int(b["hz"]))
            x = mhz * 1.18 ** (mi - (len(names) - 1) / 2) * 1.07 ** (hi - (len(hzs) - 1) / 2)
            f.write(f"{x:.4f} {mhz:g} {b['jitter_per_bit']} {mi} {b['hz']} "
                    f"{1 if entropy.trial(b) == entropy.PASSED else 0}\n")
    ys = [int(b["jitter_per_bit"]) for b, _ in pts] + [c for _, c in caps]
    with open_new(d("vars.gp")) as f:
        f.write(f"caption = {gp_str(cap)}\nkernel_base = {gp_str(base)}\n")
        f.write(f"npoints = {len(pts)}\nnmachines = {len(names)}\nncaps = {len(caps)}\nnmhz = {len(speeds)}\n")
        f.write(f"xmin = {min(speeds or [10]) / 2:g}\nxmax = {max(speeds or [1000]) * 2:g}\n")
        f.write(f"ymin = 0.5\nymax = {max(ys or [10]) * 4:g}\n")
        for i, m in enumerate(names):
            f.write(f"machine_{i} = {gp_str(m)}\n")
        for i, mhz in enumerate(speeds):
            f.write(f"mhz_{i} = {mhz:g}\n")
        for i, (hz, cap) in enumerate(caps):
            f.write(f"cap_{i} = {cap}\ncaplabel_{i} = {gp_str(f'HZ={hz}: at most {cap} per bit (HZ/15)')}\n")
    # The plot's fragments: column numbers, numbers, colours and the names
    # of vars.gp's variables, never a run's text (a machine's name is a
    # variable: title machine_0).
    parts = []
    for mi in range(len(names)):
        for hi, hz in enumerate(hzs):
            for passed in (1, 0):
                if any(names.index(value(b, "arch")) == mi and int(b["hz"]) == hz
                       and (entropy.trial(b) == entropy.PASSED) == passed for b, _ in pts):
                    parts.append(f"dat using ($4=={mi} && $5=={hz} && $6=={passed} ? $1 : NaN):3 with points "
                                 f"pt {HZ_POINTS[hi % len(HZ_POINTS)][passed]} ps 1.4 "
                                 f"lc rgb '{entropy.machine_colour(mi)}' notitle")
    parts += [f"keyentry with points pt 7 ps 1.4 lc rgb '{entropy.machine_colour(mi)}' title machine_{mi}"
              for mi in range(len(names))]
    parts += [f"keyentry with points pt {HZ_POINTS[hi % len(HZ_POINTS)][1]} ps 1.4 lc rgb '#000000' "
              f"title 'HZ={hz}'" for hi, hz in enumerate(hzs)]
    if pts:
        parts.append("keyentry with points pt 6 ps 1.4 lc rgb '#000000' title 'open: the trial gave up'")
    parts += [f"cap_{i} with lines dt 2 lc rgb '#555555' notitle" for i in range(len(caps))]
    with open_new(d("series.gp")) as f:
        f.write(f"margin_series = {gp_str(', '.join(parts) or 'NaN notitle')}\n")
    distinct_panel(run, summary, boots, d)


def distinct_panel(run, summary, boots, d):
    """Chart 8's lower panel: what ready holds. Per cell whose boots
    recorded digests of the first /dev/urandom read (summary.csv's
    digests_distinct of digests_n, counted by the runner), the share of
    distinct outputs: 1/n is every boot the same, 1 every boot different.
    Cells grouped by machine, in the tables' order; a colour per
    accelerator, filled for rtc=fixed, open for rtc=host."""
    cells = {}
    for r in summary:
        if r.get("digests_n"):
            cells.setdefault(entropy.cell_key(r), r)
    names = entropy.machines(list(cells.values()))
    order = sorted(cells.values(), key=lambda r: (names.index(value(r, "arch")), entropy.condition_rank(r),
                                                   r["accel"], -(entropy.cpu_mhz(r, run) or 0),
                                                   int(r["hz"]), value(r, "rtc")))
    x, centers, last = 0, {}, None
    with open_new(d("distinct.dat")) as f:
        f.write("# x share accel(0 icount, 1 other) rtc(0 host, 1 fixed) k n\n")
        for r in order:
            m = value(r, "arch")
            x += 2 if last is not None and m != last else 1
            last = m
            centers.setdefault(m, []).append(x)
            k, n = int(r["digests_distinct"]), int(r["digests_n"])
            f.write(f"{x} {k / n:.4f} {0 if r['accel'] == 'icount' else 1} "
                    f"{1 if value(r, 'rtc') == 'fixed' else 0} {k} {n}\n")
    with open_new(d("distinct.gp")) as f:
        f.write(f"ndcells = {len(order)}\nndmachines = {len(names)}\nxdmax = {x + 1}\n")
        for i, m in enumerate(names):
            c = centers.get(m, [0])
            f.write(f"dmachine_{i} = {gp_str(m)}\ndcenter_{i} = {sum(c) / len(c):g}\n")
