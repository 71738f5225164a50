"""The entropy study's block: what "ready" holds (per cell, the first
/dev/urandom read's distinct outputs and CRNG ready), and chart 8's
table, the jitter trial's margin (raw.csv, as the kernel logged it).
plots/entropy.py names conditions, CPU speeds and trial outcomes, as
chart 8 does."""
from cells import fmt, run_name
from markup import md, row
from runlib import measured, pick, read_table, summary_rows, value

import entropy


def tables(run):
    """Is "ready" ready? (the entropy matrix): per cell, whether the first
    /dev/urandom read's bytes differed between boots (summary.csv's
    distinct digests) and when the CRNG was ready; then per cell whose
    boots logged a jitter trial, its samples per bit against the cap
    HZ/15 (raw.csv, as the kernel logged them: the range over boots, no
    statistic). plots/entropy.py names conditions, CPU speeds and trial
    outcomes, as chart 8 does."""
    rows = summary_rows(run)
    cells = [r for r in rows if r["measure"] == "crng_ready"]
    boots = {}
    for b in measured(read_table(run, "raw.csv")):
        boots.setdefault(entropy.cell_key(b), []).append(b)
    cells.sort(key=entropy.cell_order(cells, run))
    extra = entropy.extra_axes(cells)
    name = run_name(run)

    def axes(r):
        return {a: r[a] for a in entropy.axis_names()}

    def said(r):
        mine = boots.get(entropy.cell_key(r), [])
        return (md(value(r, "arch")), md(entropy.condition_words(r, mine, extra)), md(r["accel"]),
                entropy.mhz_text(entropy.cpu_mhz(r, run), md(r["accel"])), md(value(r, "hz")), md(value(r, "rtc")))

    out = [f"### What ready holds: the first /dev/urandom read's bytes (run {name})\n",
           "one row per cell; CPU MHz: the emulated CPU under icount (1000 >> shift), TCG's follows the host; "
           "own clock: `random_get_entropy()` as the machine has it (a cycle counter, or the clocksource it falls "
           "back to), named by the clocksource the guest reported; n: boots that measured (failed ones apart); "
           "distinct first outputs: how many different BLAKE2s digests of the first /dev/urandom read's bytes "
           "its boots recorded, of the boots that recorded one; CRNG ready and the read's return: median ms (under 1 ms: us, from raw.csv's ns) from "
           "kernel start [95% bootstrap CI], '>' still waiting at the bound in at least half the boots\n",
           row("machine", "condition", "clock", "CPU MHz", "HZ", "rtc", "n", "distinct first outputs",
               "CRNG ready", "first urandom read returned"),
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in cells:
        ret = pick(rows, measure="first_urandom_return", **axes(r))
        n = r["n"] + (f" ({r['failed']} failed)" if r.get("failed") not in (None, "", "0") else "")
        k = (f"{r['digests_distinct']} of {r['digests_n']}" if r.get("digests_n") not in (None, "")
             else "none recorded")
        out.append(row(*said(r), n, k, fmt(r), fmt(ret) if ret else ""))

    out += ["", f"### The jitter trial's margin (run {name})\n",
            "the first trial of `try_to_generate_entropy()` as the kernel logged it (patch 0005), per cell whose "
            "boots logged one: samples per bit (8192 over the reads of `random_get_entropy()` that differed "
            "from the one before, plus one; the range over its boots) against the cap HZ/15 the trial passes "
            "at or below; margin: cap / samples per bit (at least 1: it passes); first trial: passed, passed "
            "later (the first over the cap, a later one within), gave up (over the cap and none passed "
            "later), skipped (the knob makes it give up unrun); CRNG ready: median ms (under 1 ms: us, from raw.csv's ns) [95% CI], or the bound "
            "it was still not ready at in at least half the boots\n",
            row("machine", "condition", "clock", "CPU MHz", "HZ", "rtc", "samples per bit", "cap HZ/15",
                "margin", "first trial", "CRNG ready", "boots"),
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    quiet = []
    for r in cells:
        mine = boots.get(entropy.cell_key(r), [])
        seen = [entropy.trial(b) for b in mine]
        if not any(seen):
            if mine:
                quiet.append(r)
            continue
        per_bit = [int(b["jitter_per_bit"]) for b in mine if b.get("jitter_per_bit")]
        caps = sorted({int(b["jitter_max_per_bit"]) for b in mine if b.get("jitter_max_per_bit")})
        lo, hi = (min(per_bit), max(per_bit)) if per_bit else (None, None)
        samples = "" if lo is None else str(lo) if lo == hi else f"{lo}-{hi}"
        margin = ""
        if lo is not None and len(caps) == 1:
            a, b = f"{caps[0] / hi:.3g}", f"{caps[0] / lo:.3g}"
            margin = a if a == b else f"{a}-{b}"
        counts = {v: seen.count(v) for v in dict.fromkeys(seen)}
        if len(counts) == 1:
            verdict = next(iter(counts))
        else:
            verdict = ", ".join(f"{v or 'none logged'} in {c} of {len(seen)}" for v, c in counts.items())
        if r["median_censored"] == "1" and r["median_ms"]:
            ready = f"not ready at {entropy.seconds(r['median_ms'])} s ({r['censored']} of {r['n']} boots)"
        else:
            ready = fmt(r)
        out.append(row(*said(r), samples, "/".join(map(str, caps)) or "not logged", margin, verdict, ready,
                       len(mine)))
    if quiet:
        groups = {}
        for r in quiet:
            groups.setdefault(said(r)[:2], []).append(r)
        out += ["", "No jitter trial logged (the CRNG was ready before one ran) in: "
                + "; ".join(f"{m}, {c} ({len(g)} cell{'s' if len(g) > 1 else ''}: "
                            + ", ".join(dict.fromkeys(md(r["accel"]) for r in g)) + ")" for (m, c), g in groups.items())
                + "."]
    return "\n".join(out) + "\n"
