"""REPORT.md's tables of the committed runs together: the answer on its
first screen (block tables:answer: ANSWER, the cells that answer each class
of machine; answer_rows() also feeds the mail) and the runs themselves
(tables:runs: commit, seed, n, boots, host time)."""
import os
import re

from cells import BEFORE_CLOCK, fmt, ms
from markup import code, md, row
from runlib import die, studies, study_run, value
from runlib import summary_rows as _summary_rows


# The answer on REPORT.md's first screen: per class of machine (the issue's
# classes), the cells that show it, each from one committed run
# (studies/<run>/run/summary.csv), selected by axis values that must match
# exactly one cell per variant. The one definition of which cell answers
# which class; tests/fast/answer.sh works the figures out again from the CSVs.
ANSWER = (
    ("RDRAND, a seed or virtio-rng", "x86_64, RDRAND trusted (-cpu max)", "quick",
     {"arch": "x86_64", "accel": "icount", "cpu": "max", "nocounter": "off"}),
    ("RDRAND, a seed or virtio-rng", "x86_64, virtio-rng, no RDRAND", "sources",
     {"accel": "tcg", "virtio_rng": "on", "seed": "none", "nocounter": "off"}),
    ("RDRAND, a seed or virtio-rng", "armv7-virt, QEMU's boot-loader seed credited", "arches",
     {"arch": "armv7-virt", "accel": "icount", "bootseed": "on", "nocounter": "off"}),
    ("x86 without RDRAND", "x86_64, -cpu qemu64, TSC", "quick",
     {"arch": "x86_64", "accel": "icount", "cpu": "qemu64", "nocounter": "off"}),
    ("a fallback clocksource that passes the jitter trial", "m68k-virt, goldfish timer", "arches",
     {"arch": "m68k-virt", "accel": "icount", "nocounter": "off"}),
    # the same board as the 1 GHz row below, at an ARM926 board's speed:
    # the trial counts clock steps per CPU speed (What "ready" holds); the
    # fix run booted stock there too, so the row is measured, not inferred
    ("a fallback clocksource that passes the jitter trial",
     "armv5-versatilepb emulated at 125 MHz (icount shift 3), SP804", "fix",
     {"arch": "armv5-versatilepb", "accel": "icount", "shift": "3", "hz": "100", "nocounter": "off", "base": "6.1"}),
    ("one that fails it", "armv5-versatilepb emulated at 1 GHz (icount shift 0), SP804", "bases",
     {"arch": "armv5-versatilepb", "accel": "icount", "base": "6.1"}),
    ("one that fails it", "m68k-q800 emulated at 31.25 MHz (icount shift 5), VIA", "entropy",
     {"arch": "m68k-q800", "accel": "icount", "shift": "5", "hz": "100", "nocounter": "off", "rtc": "host"}),
    ("one that fails it", "x86_64 without a counter (knob: trial skipped), PIT tick", "quick",
     {"arch": "x86_64", "accel": "icount", "cpu": "qemu64", "nocounter": "on", "timer": "pit"}),
    ("almost no interrupt that credits entropy", "x86_64 without a counter (knob), LAPIC tick", "longwait",
     {"accel": "icount", "nocounter": "on", "timer": "lapic"}),
)


ANSWER_FLOOR_MS = 0.1  # a smaller difference of medians is "~0" (summary.csv: 1 us steps)
# A row whose run booted block alone: its stock column, and its "added".
ANSWER_NO_STOCK = "not run"
ANSWER_NO_ADDED = "not measured"


def answer_cell(rows, want, variant, measure):
    """The one summary row of want for variant and measure; None if the run
    has no such cell; two are an error naming the filter."""
    hits = [r for r in rows if r["variant"] == variant and r["measure"] == measure
            and all(value(r, a) == v for a, v in want.items())]
    if len(hits) > 1:
        die(f"the answer's cell {want} {variant} {measure} matches {len(hits)} summary rows: "
            "name more axes in plots/tables_runs.py's ANSWER")
    return hits[0] if hits else None


def answer_rows(runs_dir):
    """The answer's rows, one per ANSWER cell: (class, cell words, block's
    first read, stock's, added by block, block's CRNG ready, run), each
    figure as the tables print it (fmt: median [CI]; the mail takes the
    median alone). A run not committed gives a row saying so."""
    out, cache = [], {}
    for cls, words, run, want in ANSWER:
        d = study_run(runs_dir, run)
        if run not in cache:
            cache[run] = _summary_rows(d) if os.path.isfile(os.path.join(d, "summary.csv")) else None
        rows = cache[run]
        if rows is None:
            out.append((cls, words, None, None, "(run not committed)", None, run))
            continue
        b, st = (answer_cell(rows, want, v, "first_urandom_latency") for v in ("block", "stock"))
        ready = answer_cell(rows, want, "block", "crng_ready")
        if b is None:
            die(f"{d}: no block cell for the answer's {want}")
        added = ANSWER_NO_ADDED if st is None else ""
        if st is not None and st["median_censored"] != "1":
            # a censored block median is a lower bound, and so is the difference
            diff = float(b["median_ms"]) - float(st["median_ms"])
            if diff <= -ANSWER_FLOOR_MS and b["median_censored"] != "1" and st["median_censored"] != "1":
                # stock waited longer (its own trial and dance, run in its read)
                added = f"none: {ms(f'{-diff:.3f}')} less"
            else:
                added = "~0" if diff < ANSWER_FLOOR_MS else (
                    (">" if b["median_censored"] == "1" else "") + ms(f"{diff:.3f}"))
        # the trial's cap is HZ/15 samples per bit: whether it passes depends on HZ
        out.append((cls, f"{words}, HZ={b['hz']}", b, st, added, ready, run))
    return out


ANSWER_NOTE = ("Linux 6.1; ms, median [95% CI]; n boots; instruction time (icount) except the virtio-rng "
               "row (TCG); '>': still waiting at the bound; added by block: block's median minus stock's "
               f"(~0: under {ANSWER_FLOOR_MS:g} ms, where stock waits as long or neither waits; "
               "'none: x less': stock's read waited longer than block's, the two kernels' trials having counted "
               "different samples per bit (jitter_per_bit in raw.csv)); "
               f"'{BEFORE_CLOCK}': the kernel logged CRNG ready before its clock started (a credited seed), "
               "so it has no time, only that bound; "
               f"'{ANSWER_NO_STOCK}': the run booted block alone. Each row is "
               "a cell of the committed run named (`studies/<run>/run/summary.csv`), chosen in "
               "`plots/tables_runs.py` (ANSWER).")


def answer_table(runs_dir):
    """REPORT.md's first screen: per class, what the first /dev/urandom
    read waited on block and on stock (6.1), block's extra wait (block's
    median minus stock's), when the CRNG was ready, and the run."""
    out = ["| machines | the cell | block's first urandom read waited | stock's | added by block "
           "| CRNG ready (block) | run |", "|---|---|---|---|---|---|---|"]
    last = None
    for cls, words, b, st, added, ready, run in answer_rows(runs_dir):
        if b is None:
            cells = [added] * 4
        else:
            cells = [fmt(b) + f"; n={b['n']}", ANSWER_NO_STOCK if st is None else fmt(st) + f"; n={st['n']}", added,
                     "" if ready is None else fmt(ready)]
        out.append(row("" if cls == last else f"**{md(cls)}**", md(words), *cells, code(run)))
        last = cls
    return ANSWER_NOTE + "\n\n" + "\n".join(out) + "\n"


RUN_FIELDS = {"commit": re.compile(r"[0-9a-f]{40}\Z"), "seed": re.compile(r"[0-9]{1,20}\Z")}


def run_fact(d, name):
    """A committed run's one-line file (commit, seed), checked: what is
    not a commit id or a seed stops the report, naming the file."""
    path = os.path.join(d, name)
    try:
        with open(path) as f:
            v = f.read().strip()
    except OSError:
        return None
    if not RUN_FIELDS[name].match(v):
        die(f"{path}: not a {name} ({'40 hex digits' if name == 'commit' else 'a whole number'})")
    return v


def _host_times(d):
    """host_time.csv's rows (accel, boots, skipped, host_s), checked."""
    path = os.path.join(d, "host_time.csv")
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or lines[0] != "accel,boots,skipped,host_s":
        die(f"{path}: not the runner's host_time.csv (header accel,boots,skipped,host_s)")
    out = []
    for i, line in enumerate(lines[1:], 2):
        m = re.fullmatch(r"([a-z]+),([0-9]+),([0-9]+),([0-9]+(?:\.[0-9]+)?)", line)
        if not m:
            die(f"{path} line {i}: not 'accel,boots,skipped,seconds'")
        out.append((m.group(1), int(m.group(2)), int(m.group(3)), float(m.group(4))))
    return out


def runs_table(runs_dir):
    """The committed runs themselves, one row per study of runs_dir
    (bench-parallel's two runs each): the commit it was made from, its
    seed, n per cell (run.matrix's reps), its boots and host time per
    accelerator (host_time.csv). The figures "How to reproduce" quotes."""
    out = ["Each run as committed in `studies/<run>/run/`: the crngbench commit it was made from (`commit`), its "
           "seed (`seed`), n per cell (`run.matrix`'s reps), boots measured (and skipped: KVM where it cannot run) "
           "and host time per accelerator (`host_time.csv`: the wall time its boots took; icount's run two at a "
           "time, so theirs is their span, not their sum).\n",
           row("run", "matrix", "commit", "seed", "n", "boots", "host time"),
           "|---|---|---|---|---|---|---|"]
    total_boots, total_s = 0, 0.0
    for name, r in studies(runs_dir).items():
        d = study_run(runs_dir, name)
        if os.path.isfile(os.path.join(d, "raw.csv")):
            dirs = [d]
        else:
            dirs = sorted(os.path.join(d, s) for s in (os.listdir(d) if os.path.isdir(d) else [])
                          if os.path.isfile(os.path.join(d, s, "raw.csv")))
        if not dirs:
            out.append(row(md(name), md(r["matrix"]), "not committed", "", "", "", ""))
            continue
        for sub in dirs:
            commit = run_fact(sub, "commit") or run_fact(d, "commit")
            seed = run_fact(sub, "seed")
            with open(os.path.join(sub, "run.matrix")) as f:
                m = re.search(r"^reps\s*=\s*([0-9]+)\s*$", f.read(), re.M)
            times = _host_times(sub)
            boots = sum(t[1] for t in times)
            skipped = sum(t[2] for t in times)
            secs = sum(t[3] for t in times)
            total_boots, total_s = total_boots + boots, total_s + secs
            per = ", ".join(f"{a} {s:.1f} s" for a, b, _, s in times if b)
            out.append(row(md(name if sub == d else f"{name}/{os.path.basename(sub)}"), md(r["matrix"]),
                           commit[:12] if commit else "none", seed or "none", m.group(1) if m else "?",
                           f"{boots}" + (f" ({skipped} skipped)" if skipped else ""),
                           f"{secs:.1f} s ({per})" if per else "0 s"))
    out.append(row("all", "", "", "", "", f"{total_boots}", f"{total_s:.1f} s ({total_s / 60:.1f} min)"))
    return "\n".join(out) + "\n"
