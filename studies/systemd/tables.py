"""The systemd study's block: systemd measured for itself, per clock,
condition and variant, with the early reads made by PID 1 or by a child
of PID 1: CRNG ready, systemd's boot finished, the game seeded, the first
urandom read's return (summary.csv's medians [CI])."""
from cells import fmt, run_name
from markup import md, row
from runlib import CLOCK_WORDS, die, run_variants, summary_rows, value

import bases
import entropy


def tables(run):
    """systemd measured for itself (studies/systemd/systemd.matrix): per accelerator,
    condition and variant, with the early reads made by PID 1 before it
    execs systemd (early=pid1, the quick run's setup) and by a child of
    PID 1 while systemd starts (early=child): CRNG ready, systemd's boot
    finished, the game stand-in's seed and the first blocking urandom
    read's return, each summary.csv's median [CI] (the runner's)."""
    rows = summary_rows(run)
    if not any(value(r, "early") == "child" for r in rows):
        die(f"{run}: --systemd takes a run of studies/systemd/systemd.matrix (early=pid1 and early=child); this one has no "
            "early=child cell")
    measures = (("crng_ready", "CRNG ready"), ("userspace_finished", "systemd finished"),
                ("game_seeded", "game seeded"), ("first_urandom_return", "first urandom read returned"))
    by = {}
    for r in rows:
        if r["measure"] in dict(measures):
            key = (r["accel"], bases.condition_words(r), r["variant"], value(r, "early"), r["measure"])
            if key in by:
                die(f"{run}/summary.csv: two rows for {key}: cells would merge")
            by[key] = r
    out = []
    for accel in sorted({k[0] for k in by}, key=lambda a: entropy.ACCEL_ORDER.get(a, 9)):
        out += [f"### systemd for itself: {md(CLOCK_WORDS.get(accel, accel))} (run {run_name(run)})\n",
                "median ms (under 1 ms: us, from raw.csv's ns) from kernel start [95% bootstrap CI of the median]; n boots (censored); "
                "reads in: who makes the early reads (PID 1 before it execs systemd, or a child of PID 1 "
                "while systemd starts)\n",
                row("condition", "variant", "reads in", *(t for _, t in measures)),
                "|---|---|---|" + "---|" * len(measures)]
        conds = sorted({k[1] for k in by if k[0] == accel})
        for c in conds:
            for v in run_variants(rows):
                for e in ("pid1", "child"):
                    got = [by.get((accel, c, v, e, m)) for m, _ in measures]
                    if not any(got):
                        continue
                    out.append(row(md(c), md(v), "PID 1" if e == "pid1" else "a child",
                                   *("" if g is None else f"{fmt(g)}; n={g['n']}" + (
                                       f" ({g['censored']} censored)" if g["censored"] not in ("0", "") else "")
                                     for g in got)))
        out.append("")
    return "\n".join(out)
