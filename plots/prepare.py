#!/usr/bin/env python3
"""Turn a crngbench results directory into gnuplot data files.

    plots/prepare.py RUN_DIR DATA_DIR

Reads raw.csv, reads.csv, traces.csv and meta.json (the runner's outputs)
and writes one small whitespace-separated table per chart into DATA_DIR,
plus vars.gp with the captions (kernel, QEMU, accelerators, n per cell).
Only rows with status ok or censored are data; censored values are written
at their bound with a flag column, so charts can draw "still waiting".
"""
import csv
import json
import os
import sys

from runlib import COLOURS, VARIANTS, condition
MS = 1e-6


def load(run):
    with open(os.path.join(run, "raw.csv")) as f:
        raw = list(csv.DictReader(f))
    reads, traces = [], []
    for name, dest in (("reads.csv", reads), ("traces.csv", traces)):
        p = os.path.join(run, name)
        if os.path.exists(p):
            with open(p) as f:
                dest.extend(csv.DictReader(f))
    meta = {}
    p = os.path.join(run, "meta.json")
    if os.path.exists(p):
        with open(p) as f:
            meta = json.load(f)
    return raw, reads, traces, meta


def num(row, key):
    v = row.get(key, "")
    return float(v) if v not in ("", None) else None


def vindex(v):
    return VARIANTS.index(v) if v in VARIANTS else len(VARIANTS)


def main():
    run, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    raw, reads, traces, meta = load(run)
    good = [r for r in raw if r["status"] in ("ok", "censored")]
    tcg = [r for r in good if r["accel"] == "tcg"]

    # 1 and 6: first urandom read, every boot, per (condition, variant).
    def first_urandom_table(rows, path):
        groups = sorted({condition(r) for r in rows})
        with open(path, "w") as f:
            f.write("# x variant_index guest_ms guest_censored host_ms group\n")
            for gi, g in enumerate(groups):
                for r in rows:
                    if condition(r) != g:
                        continue
                    vi = vindex(r["variant"])
                    e = num(r, "first_urandom_end_ns")
                    if e is None:
                        continue
                    x = gi * (len(VARIANTS) + 1) + vi
                    # a small, deterministic spread so boots do not overlap
                    x += ((int(r["rep"]) % 5) - 2) * 0.06
                    h = num(r, "host_urandom_ns")
                    f.write(f"{x:.2f} {vi} {e * MS:.3f} {r['first_urandom_censored'] or 0} "
                            f"{(h * MS) if h is not None else 'NaN'} \"{g}\"\n")
        return groups

    groups1 = first_urandom_table([r for r in tcg if r["nocounter"] == "off"],
                                  os.path.join(out, "nethack.dat"))
    groups6 = first_urandom_table([r for r in tcg if r["cpu"] == "qemu64"
                                   and r["variant"] in ("stock", "block", "block-v0", "legacy")],
                                  os.path.join(out, "nocounter.dat"))

    # 2: CDF of CRNG-ready time per condition, variants overlaid.
    conds = sorted({condition(r) for r in tcg})
    cdf_index = {}  # (condition, variant) -> gnuplot index, for non-empty sets only
    with open(os.path.join(out, "cdf.dat"), "w") as f:
        for ci, c in enumerate(conds):
            for v in VARIANTS:
                vals = []
                for r in tcg:
                    if condition(r) != c or r["variant"] != v:
                        continue
                    if r["crng_ready_censored"] == "1":
                        vals.append((num(r, "crng_ready_bound_ns") or 0, 1))
                    else:
                        t = num(r, "crng_ready_kmsg_ns")
                        t = t if t is not None else num(r, "crng_ready_poll_ns")
                        if t is not None:
                            vals.append((t, 0))
                vals.sort()
                n = len(vals)
                pts = [(t, (i + 1) / n) for i, (t, cens) in enumerate(vals) if not cens]
                if not pts:
                    continue  # gnuplot warns on an empty data set: write none
                cdf_index[(ci, v)] = len(cdf_index)
                f.write(f"# condition {ci} ({c}) variant {v}\n")
                for t, q in pts:
                    f.write(f"{t * MS:.3f} {q:.4f}\n")
                f.write("\n\n")  # one gnuplot index per data set

    # 3: TCG against KVM, medians per cell.
    cells = {}
    for r in raw:
        key = (r["variant"], condition(r))
        cells.setdefault(key, {}).setdefault(r["accel"], []).append(r)
    with open(os.path.join(out, "accel.dat"), "w") as f:
        f.write("# x tcg_median_ms kvm_median_ms kvm_state label\n")
        for i, (key, by) in enumerate(sorted(cells.items(), key=lambda kv: (kv[0][1], vindex(kv[0][0])))):
            def med(rows):
                vals = sorted(num(r, "crng_ready_kmsg_ns") or num(r, "crng_ready_poll_ns") or 0
                              for r in rows if r["status"] in ("ok", "censored")
                              and r["crng_ready_censored"] == "0")
                if not vals:
                    return None
                m = len(vals) // 2
                return (vals[m] if len(vals) % 2 else (vals[m - 1] + vals[m]) / 2) * MS
            t = med(by.get("tcg", []))
            kv = by.get("kvm", [])
            k = med(kv)
            state = "measured" if k is not None else (
                "not_measured" if kv and all(r["status"] == "skipped" for r in kv) else "none")
            f.write(f"{i} {t if t is not None else 'NaN'} {k if k is not None else 'NaN'} {state} "
                    f"\"{key[0]}\\n{key[1]}\"\n")

    # 4: one boot's timeline: the first ok boot of the slowest cell to ready.
    cand = [r for r in tcg if r["status"] == "ok" and r["crng_ready_censored"] == "0"
            and r["cpu"] == "qemu64" and r["nocounter"] == "off"] or \
        [r for r in good if r["status"] == "ok"]
    boot = None
    if cand:
        boot = max(cand, key=lambda r: (r["variant"] == "block", num(r, "crng_ready_kmsg_ns") or 0))
    with open(os.path.join(out, "timeline.dat"), "w") as f:
        f.write("# y start_ms dur_ms label kind(0 event,1 probe read,2 traced read)\n")
        if boot:
            y = 0
            for name, key in (("kernel start", None), ("init (probe)", "init_ns"),
                              ("systemd userspace", "userspace_ns"),
                              ("game seeded", "game_seeded_ns"),
                              ("systemd finished", "finish_ns")):
                t = 0 if key is None else num(boot, key)
                if t is not None:
                    f.write(f"{y} {t * MS:.3f} 0 \"{name}\" 0\n")
                    y += 1
            for rd in (x for x in reads if x["boot_id"] == boot["boot_id"]):
                f.write(f"{y} {float(rd['start_ns']) * MS:.3f} {float(rd['dur_ns']) * MS:.3f} "
                        f"\"probe: {rd['iface']} (errno {rd['errno']})\" 1\n")
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
                label = f"{who} {tr['func']}"
                f.write(f"{y} {float(tr['start_ns']) * MS:.3f} {float(tr['dur_ns']) * MS:.3f} "
                        f"\"{label}\" 2\n")
                y += 1
        timeline_rows = y if boot else 1
    ready_ms = (num(boot, "crng_ready_kmsg_ns") or 0) * MS if boot else 0

    # 5: jitter cost against HZ: the median duration of the first blocking
    # urandom read, which runs the jitter loop (qemu64, counter present).
    with open(os.path.join(out, "hz.dat"), "w") as f:
        f.write("# hz " + " ".join(VARIANTS) + "\n")
        hzs = sorted({int(r["hz"]) for r in tcg})
        for hz in hzs:
            row = [str(hz)]
            for v in VARIANTS:
                vals = sorted(num(r, "first_urandom_dur_ns") for r in tcg
                              if int(r["hz"]) == hz and r["variant"] == v and r["cpu"] == "qemu64"
                              and r["nocounter"] == "off" and r["first_urandom_censored"] == "0"
                              and r["variant"] != "legacy"
                              and num(r, "first_urandom_dur_ns") is not None)
                row.append(f"{vals[len(vals) // 2] * MS:.3f}" if vals else "NaN")
            f.write(" ".join(row) + "\n")
    nhz = len({r["hz"] for r in tcg})

    kernels = meta.get("kernels", {})
    release = next(iter(kernels.values()), {}).get("release", "?").split("-crngbench")[0]
    qemu = meta.get("qemu", "?").replace("QEMU emulator version ", "QEMU ").split(" (")[0]
    accels = sorted({r["accel"] for r in good})
    per_cell = {}
    for r in good:
        per_cell[(r["variant"], condition(r), r["accel"])] = per_cell.get(
            (r["variant"], condition(r), r["accel"]), 0) + 1
    ns = sorted(set(per_cell.values()))
    nstr = (f"n={ns[0]}" if len(ns) == 1 else f"n={ns[0]}-{ns[-1]}") + " boots per cell" if ns else "no data"
    with open(os.path.join(out, "vars.gp"), "w") as f:
        f.write(f'caption = "Linux {release} (Debian), {qemu}, {"/".join(accels)}, {nstr}"\n')
        f.write(f"ngroups1 = {len(groups1)}\nngroups6 = {len(groups6)}\nnconds = {len(conds)}\n")
        f.write(f"ncells = {len(cells)}\nnhz = {nhz}\nready_ms = {ready_ms:.3f}\n")
        f.write(f"have_boot = {1 if boot else 0}\nnvariants = {len(VARIANTS)}\n")
        f.write(f"timeline_rows = {timeline_rows}\n")
        for i, g in enumerate(groups1):
            f.write(f'g1_{i} = "{g}"\n')
        for i, g in enumerate(groups6):
            f.write(f'g6_{i} = "{g}"\n')
        for i, c in enumerate(conds):
            f.write(f'cond_{i} = "{c}"\n')
        f.write('boot_label = "%s"\n' % (
            f"{boot['variant']}, {condition(boot)}, boot {boot['boot_id']}" if boot else "no boot"))
        f.write(f'tcg_n = {len(tcg)}\n')

    # Which series exist: gnuplot warns on an empty data set, so the static
    # scripts plot only what this file lists (eval'd command fragments).
    def series_nethack(path, col):
        parts = []
        rows = [l.split() for l in open(path) if not l.startswith("#")]
        for vi, v in enumerate(VARIANTS):
            if any(r[1] == str(vi) and r[3] == "0" and r[col] != "NaN" for r in rows):
                parts.append(f"dat using ($2=={vi} && $4==0 ? $1 : NaN):{col + 1} with points pt 7 ps 0.8 "
                             f"lc rgb '{COLOURS[vi]}' title '{v}'")
        if any(r[3] == "1" for r in rows) and col == 2:
            parts.append(f"dat using ($4==1 ? $1 : NaN):3 with points pt 9 ps 1.2 lc rgb '#000000' "
                         f"title 'still waiting at the read timeout'")
        return ", ".join(parts)

    with open(os.path.join(out, "series.gp"), "w") as f:
        f.write(f"nethack_guest = \"{series_nethack(os.path.join(out, 'nethack.dat'), 2)}\"\n")
        f.write(f"nethack_host = \"{series_nethack(os.path.join(out, 'nethack.dat'), 4)}\"\n")
        f.write(f"nocounter_guest = \"{series_nethack(os.path.join(out, 'nocounter.dat'), 2)}\"\n")
        # CDF: the sets written above, by their gnuplot index
        for ci in range(len(conds)):
            parts = [f"dat index {cdf_index[(ci, v)]} using 1:2 with steps lw 2 "
                     f"lc rgb '{COLOURS[vi]}' title '{v}'"
                     for vi, v in enumerate(VARIANTS) if (ci, v) in cdf_index]
            f.write(f"cdf_{ci} = \"{', '.join(parts)}\"\n")
        rows = [l.split() for l in open(os.path.join(out, "hz.dat")) if not l.startswith("#")]
        parts = []
        for vi, v in enumerate(VARIANTS):
            if sum(1 for r in rows if r[vi + 1] != "NaN") >= 1:
                # overlapping variants stay visible: wide first, narrow later
                parts.append(f"dat using 1:{vi + 2} with linespoints pt {7 if vi == 0 else 6} "
                             f"ps {2.2 if vi == 0 else 1.2} lw {5 if vi == 0 else 2} "
                             f"lc rgb '{COLOURS[vi]}' title '{v}'")
        f.write(f"hz_series = \"{', '.join(parts)}\"\n")
        rows = [l for l in open(os.path.join(out, "accel.dat")) if not l.startswith("#")]
        parts = ["dat using 2:xtic(5) title 'TCG' lc rgb '#4477aa'"]
        if any(l.split()[2] != "NaN" for l in rows):
            parts.append("'' using 3 title 'KVM' lc rgb '#cc6677'")
        if any(l.split()[3] == "not_measured" for l in rows):
            parts.append("'' using ($1):(0):(strcol(4) eq 'not_measured' ? 'KVM: not measured' : '') "
                         "with labels rotate by 90 left offset 1.5,0.5 font ',8' notitle")
        f.write(f"accel_series = \"{', '.join(parts)}\"\n")


if __name__ == "__main__":
    main()
