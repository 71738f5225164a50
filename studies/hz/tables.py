"""The hz study's block: chart 5's table, the jitter loop's cost against
CONFIG_HZ (the first blocking urandom read's duration per HZ and variant,
runlib.jitter_rows' cells, as chart 5 draws them, in the clock it
names), beside 256/HZ s."""
from cells import fmt, run_name, summary_rows
from markup import md, row
from runlib import CLOCK_WORDS, JITTER_TICKS, headline_accel, jitter_rows, jitter_ticks_ms, pick, run_variants


def tables(run):
    """The jitter loop's duration per CONFIG_HZ (the hz matrix)."""
    rows = jitter_rows(summary_rows(run))
    hzs = sorted({int(r["hz"]) for r in rows})
    out = [f"### Chart 5: the jitter loop's cost against CONFIG_HZ (run {run_name(run)})\n",
           f"first blocking urandom read's duration, median ms (under 1 ms: us, from raw.csv's ns) [95% CI], "
           f"{CLOCK_WORDS[headline_accel(rows)]}; {JITTER_TICKS}/HZ s for comparison\n",
           row("CONFIG_HZ", f"{JITTER_TICKS}/HZ", *(md(v) for v in run_variants(rows))),
           "|---|---|" + "---|" * len(run_variants(rows))]
    for hz in hzs:
        cells = []
        for v in run_variants(rows):
            r = pick(rows, hz=str(hz), variant=v)
            cells.append(f"{fmt(r)}; n={r['n']}" if r else "")
        out.append(row(hz, f"{jitter_ticks_ms(hz):.0f}", *cells))
    return "\n".join(out) + "\n"
