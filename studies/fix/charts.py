"""The fix study's chart 10 (plots/10-fix-mixes.gp): chart(run, dir)
writes its data files and fix.gp into dir, called by plots/prepare.py
for a run with a variant and its -fix form (runlib.is_fix, the study's
`charts` field: runlib.study_charts). Selects and lays out; the marks
are fix.curve()'s, raw.csv's columns as they are."""
import os

from gpquote import gp_str
from runfiles import summary_rows
from runlib import caption, colours, measured, open_new, read_meta, read_table, variants, vindex

import bases
import fix


# Chart 10's left edge, seconds: kernel start (0) is drawn here on the log
# axis, below the first mix of any boot measured (13 ms).
FIX_FLOOR_S = 0.001
# gnuplot point types of chart 10's marks (fix.curve's)
FIX_POINTS = {fix.FIRST: 6, fix.READY: 7, fix.BOUND: 9}


def chart(run, out):
    """Chart 10's files of the run into the directory out."""
    fix_main(run, caption(read_meta(run), summary_rows(run)), measured(read_table(run, "raw.csv")),
             lambda name: os.path.join(out, name))


def fix_main(run, cap, boots, d):
    """Chart 10 (a run of studies/fix/fix.matrix): a panel per machine, speed, HZ
    and counter (a row) and kernel base (a column): per boot of a variant
    and its -fix form, the bits fast pool mixes credited against guest
    time (fix.curve: raw.csv's mix_* columns) as steps, dashed with the fix;
    the CRNG's ready moment as a filled circle at 256 bits (the input
    pool's, all sources), the report's bound as a black triangle where a
    boot was not ready. Its own files (fix_<p>.dat, fixmarks_<p>.dat,
    fix.gp), so that it is drawn beside the charts of the run's kind."""
    mine = [r for r in boots if r["variant"] in variants()
            and (r["variant"] + "-fix" in variants() or r["variant"].endswith("-fix"))]
    cells = fix.cells_of(mine)
    keys = fix.panel_keys(cells)
    conds = list(dict.fromkeys(k[:4] for k in keys))
    names = bases.bases([{"base": k[4]} for k in keys]) if keys else []
    out = [f"fix_caption = {gp_str(cap)}\n", f"fixcols = {max(len(names), 1)}\nfixrows = {max(len(conds), 1)}\nfix_floor = {FIX_FLOOR_S:g}\n"
           f"fix_ready_bits = {fix.READY_BITS}\nnfixpanels = {len(conds) * len(names)}\n"]
    series, titled = [], set()
    for p, (cond, base) in enumerate((c, b) for c in conds for b in names):
        key = cond + (base,)
        here = [(v, cells.get(key + (v,), [])) for v in variants()]
        any_boot = next((b for _, bs in here for b in bs), None)
        title = (fix.condition_words(run, key, any_boot) + f", Linux {base}") if any_boot else f"Linux {base}: not run"
        out.append(f"fixtitle_{p} = {gp_str(title)}\n")
        parts, block = [], 0
        with open_new(d(f"fix_{p}.dat")) as f, open_new(d(f"fixmarks_{p}.dat")) as m:
            f.write("# a block per boot: guest s from kernel start, bits credited by fast pool mixes (at least)\n")
            m.write("# s bits variant_index mark(0 first mix, 1-3 reached 64/128/192, 4 ready, 5 bound)\n")
            for v, bs in here:
                vi = vindex(v)
                for i, b in enumerate(bs):
                    pts = fix.curve(b)
                    f.write(f"# {v} boot {b['boot_id']}\n{FIX_FLOOR_S:g} 0\n")
                    for t, bits, _ in pts:
                        f.write(f"{max(t / 1e9, FIX_FLOOR_S):.6f} {bits}\n")
                    f.write("\n\n")
                    reached = 0
                    for t, bits, mark in pts:
                        code = {fix.FIRST: 0, fix.READY: 4, fix.BOUND: 5}.get(mark)
                        if mark == fix.REACHED:
                            reached += 1
                            code = reached
                        m.write(f"{max(t / 1e9, FIX_FLOOR_S):.6f} {fix.READY_BITS if mark == fix.READY else bits} "
                                f"{vi} {code}\n")
                    # a pair in one colour, the unfixed variant's; dashed with the fix
                    dash, ci = (2, vindex(v[:-4])) if v.endswith("-fix") else (1, vi)
                    parts.append(f"dat index {block} using 1:2 with steps lw 2 dt {dash} lc rgb '{colours()[ci]}' "
                                 + ("notitle" if v in titled else f"title '{v}'"))
                    titled.add(v)
                    block += 1
        marks = [l.split() for l in open(d(f"fixmarks_{p}.dat")) if not l.startswith("#")]
        for vi, v in enumerate(variants()):
            for code, mark in ((0, fix.FIRST), (4, fix.READY)):
                if any(r[2] == str(vi) and r[3] == str(code) for r in marks):
                    ci = vindex(v[:-4]) if v.endswith("-fix") else vi
                    parts.append(f"marks using ($3=={vi} && $4=={code} ? $1 : NaN):2 with points "
                                 f"pt {FIX_POINTS[mark]} ps 1.0 lc rgb '{colours()[ci]}' notitle")
        if any(r[3] == "5" for r in marks):
            parts.append(f"marks using ($4==5 ? $1 : NaN):2 with points pt {FIX_POINTS[fix.BOUND]} ps 1.2 "
                         "lc rgb '#000000' notitle")
        if p == 0:
            parts += [f"keyentry with points pt {FIX_POINTS[fix.FIRST]} lc rgb '#000000' title 'the first mix'",
                      f"keyentry with points pt {FIX_POINTS[fix.READY]} lc rgb '#000000' "
                      f"title 'CRNG ready ({fix.READY_BITS} bits, all sources)'",
                      f"keyentry with points pt {FIX_POINTS[fix.BOUND]} lc rgb '#000000' title 'not ready at the bound'"]
        series.append(f"fix_{p} = {gp_str(', '.join(parts) or 'NaN notitle')}\n")
    with open_new(d("fix.gp")) as f:
        f.write("".join(out + series))
