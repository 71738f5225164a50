"""What plots/prepare.py and plots/report_tables.py share about a run, so
a chart and the table beside it always say the same thing: the variant
order (kernel/variants, through scripts/variants.sh), their colours, how a
cell's condition is named in the words of the runner's axes, which runs
a committed run is, which charts fit a run (and which study draws its own:
study_charts). Nothing here computes a
statistic: those are the runner's, in summary.csv.

It stands on tool.py (the root, the runner's description, die, the fact
tables) and runfiles.py (the one reader of a results directory), and
gives the tools their names too: a tool imports what it uses from here."""
import functools
import os

# tool.py's and runfiles.py's names, given to the tools from here
from formats import axis_defaults, axis_names, measure_columns
from tool import RUNNER, ROOT, _output, describe, die, fact_rows, fact_table, pages, replacing, run_label, run_main, studies, study_code, study_run  # noqa: F401
from runfiles import (CONTROL, INTEGER, LINK, check_path, open_new, open_run_file, read_meta,  # noqa: F401
                      read_table, refuse_link, run_setting)
from runfiles import summary_rows as _summary_rows


# A colour per line of kernel/variants, in its order, then colours for the
# variants a run boots that it does not define (a kernel built elsewhere,
# --kernels DIR), so that no two variants of a run share one.
PALETTE = ["#1b9e77", "#7570b3", "#d95f02", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
           "#1f78b4", "#b2182b", "#01665e", "#8c510a", "#542788", "#c51b7d", "#000000"]


# Nothing runs when this module is imported: the variant list is asked
# for on first use, once per process.

@functools.cache
def all_variants():
    """Every variant kernel/variants defines, of every base, in its order."""
    return _output([os.path.join(ROOT, "scripts", "variants.sh"), "--all"]).split()


def variants():
    """The variants in order (kernel/variants): chart 10's slots and
    colours (the other charts' and the tables' are run_variants())."""
    return all_variants()


def vindex(v):
    """A variant's index in variants(); one it does not define after them all."""
    return variants().index(v) if v in variants() else len(variants())


def variant_order(v):
    """Where a variant goes in every chart and table: kernel/variants'
    order, then the ones it does not define, by name."""
    known = all_variants()
    return (0, known.index(v), "") if v in known else (1, 0, v)


def run_variants(rows):
    """The variants rows hold, in variant_order(): a run's tables and
    charts show those, each under its name (one kernel/variants does not
    define too: make run VARIANTS=mine RUNFLAGS='--kernels DIR'), never a
    column or slot for a variant it did not boot (stock-fix in a run of
    stock)."""
    return sorted({r.get("variant") for r in rows} - {None, ""}, key=variant_order)


@functools.cache
def colours():
    """One colour per variant, in variants() order."""
    return [PALETTE[i % len(PALETTE)] for i in range(len(variants()))]


def variant_colour(v, slots):
    """A variant's colour in a chart of a run whose variants are slots
    (run_variants()): its kernel/variants line's, the same in every chart
    and run; one kernel/variants does not define, a colour after theirs by
    its place among slots' others."""
    known = all_variants()
    i = known.index(v) if v in known else len(known) + [s for s in slots if s not in known].index(v)
    return PALETTE[i % len(PALETTE)]


# How each axis value reads in a label; an empty string is that axis's
# "nothing special" value, so exactly one value per axis reads as nothing
# and two different cells never get the same label.
WORDS = {
    "cpu": lambda v: "" if v == "default" else f"cpu={v}",  # default: the machine's own (arch)
    "arch": lambda v: v,
    "bootseed": lambda v: "boot-loader seed credited" if v == "on" else "",
    "nocounter": lambda v: "no counter" if v == "on" else "",
    "virtio_rng": lambda v: "virtio-rng" if v == "on" else "",
    "trust_cpu": lambda v: "trust_cpu=off" if v == "off" else "",
    "seed": lambda v: "saved seed" if v == "saved" else "",
    "hz": lambda v: f"HZ={v}",
    "smp": lambda v: f"smp={v}",
    "trace": lambda v: "traced" if v == "on" else "",
    "timer": lambda v: f"timer={v}",
    "shift": lambda v: "" if v == "auto" else f"shift={v}",  # auto: the icount setting's
    "early": lambda v: "reads in a child of PID 1" if v == "child" else "reads in PID 1",
    "waiters": lambda v: "" if v == "0" else f"{v} more getrandom waiter{'' if v == '1' else 's'}",
}
SHOWN_APART = ("variant", "accel")  # a chart's series and panels, not its labels


def varying(rows):
    """The axes whose value differs between rows (cells) of a run."""
    return [a for a in axis_names() if a not in SHOWN_APART and len({value(r, a) for r in rows}) > 1]


def value(r, axis):
    """A row's value of axis; an axis newer than the run reads as its default."""
    return r.get(axis) or axis_defaults()[axis]


def condition(r, axes):
    """A cell's entropy condition in the words of the thread: its value of
    every axis in axes (the ones that vary in the run), cpu always."""
    names = ("cpu",) + tuple(a for a in axes if a != "cpu")
    return _condition(names, tuple(value(r, a) for a in names))


@functools.lru_cache(maxsize=4096)
def _condition(names, values):
    """condition()'s words, made once per cell: every boot of a cell shares
    the one string (a large run's boots each held a copy)."""
    parts = [WORDS.get(a, lambda v, a=a: f"{a}={v}")(v) for a, v in zip(names, values)]
    return ", ".join(p for p in parts if p)


def release(meta):
    """The kernel release of a run's meta.json, without crngbench's suffix."""
    first = next(iter(meta.get("kernels", {}).values()), {})
    return str(first.get("release", "?")).split("-crngbench")[0]


def releases(meta):
    """Each kernel base's release in a run's meta.json, oldest base first,
    without crngbench's suffix: one for most runs, two for a run of the
    bases matrix ("6.1.192 and 6.12.118")."""
    seen = {}
    for k in meta.get("kernels", {}).values():
        r = str(k.get("release", "?")).split("-crngbench")[0]
        seen.setdefault(r, tuple(int(p) if INTEGER.match(p) else 0 for p in r.replace("-", ".").split(".")))
    return " and ".join(sorted(seen, key=seen.get)) or "?"


def kernel_base(meta):
    """The kernel base of a run ("6.1"): meta.json's kernel_base (the row of
    kernel/bases its kernels were built on), or, in runs from before the
    runner recorded it, the major and minor version of the kernels'
    release, so that a run of another base says so."""
    return meta.get("kernel_base") or ".".join(release(meta).split(".")[:2])


def pick(rows, **want):
    """The one summary row matching want; None if there is none. Two rows
    for one key would mean two cells collapsed into one label: an error."""
    hits = [r for r in rows if all(r[k] == v for k, v in want.items())]
    if len(hits) > 1:
        die(f"{len(hits)} summary rows for {want}: cells would merge; "
            f"label with condition(r, varying(rows))")
    return hits[0] if hits else None


def pick_index(rows, *cols):
    """pick() for every key at once, in one pass: {(r[c] for c in cols):
    the one row}; two rows for one key are the same error as pick's."""
    out = {}
    for r in rows:
        out.setdefault(tuple(r[c] for c in cols), []).append(r)
    for k, hits in out.items():
        if len(hits) > 1:
            die(f"{len(hits)} summary rows for {dict(zip(cols, k))}: cells would merge; "
                f"label with condition(r, varying(rows))")
    return {k: hits[0] for k, hits in out.items()}


# A boot that measured something: its status ok, or censored (still
# waiting at its bound, which is a measurement). The runner's rule is
# add_row() in bench/summary/summary.c; tests/fast/plots.sh checks on every status that
# the two agree.
MEASURED = ("ok", "censored")


def measured(rows):
    """The raw.csv rows of boots that measured something."""
    return [r for r in rows if r["status"] in MEASURED]


def summary_rows(run):
    """A run's summary.csv (runfiles.summary_rows: checked), each row with
    "_ns": its cell's uncensored values of the measure in raw.csv's ns
    (formats.measure_columns), for the cells whose median the tables show
    below a millisecond, which summary.csv rounds to the microsecond."""
    rows = _summary_rows(run)
    raw = read_table(run, "raw.csv", missing_ok=True) or []
    cols, axes = measure_columns(), axis_names()
    by = {}
    for b in measured(raw):
        by.setdefault(tuple(b.get(a, "") for a in axes), []).append(b)
    for r in rows:
        col, cens = cols.get(r.get("measure"), (None, None))
        boots = by.get(tuple(r.get(a, "") for a in axes), [])
        r["_ns"] = [int(b[col]) for b in boots if col and (b.get(col) or "").isdigit()
                    and not (cens and b.get(cens) == "1")]
    return rows


def headline_accel(rows):
    """The clock of the headline charts and tables: instruction time
    (icount) where the run measured it, else TCG. rows: raw.csv's (with a
    status) or summary.csv's (with an n)."""
    seen = {r["accel"] for r in rows if r.get("status", MEASURED[0]) in MEASURED
            and r.get("n", "1") not in ("", "0")}
    return "icount" if "icount" in seen else "tcg"


CLOCK_WORDS = {"icount": "instruction time (icount)", "tcg": "emulation time (TCG)", "kvm": "KVM"}
ACCEL_WORDS = {"icount": "icount", "tcg": "TCG", "kvm": "KVM"}  # the same, short


def committed_runs():
    """The committed runs (studies/<name>/run/ of each study that holds
    one): a run's directory, or for a study of
    several runs (bench-parallel: jobs1/, jobs2/) each of its
    subdirectories that holds a raw.csv, in the table's order.
    A committed run is untrusted: a symbolic link at <name>, at a
    multi-run <name>/<sub> or at its raw.csv is refused before anything
    reads through it (make report FROM=committed once deleted and drew
    through such a link, outside the checkout)."""
    out = []
    for name in studies():
        d = study_run(os.path.join(ROOT, "studies"), name)
        refuse_link(d)
        if os.path.isfile(refuse_link(os.path.join(d, "raw.csv"))):
            out.append(d)
        elif os.path.isdir(d):
            for s in sorted(os.listdir(d)):
                sub = os.path.join(d, s)
                raw = os.path.join(sub, "raw.csv")
                if os.path.isfile(raw):  # through links: a linked run is refused, never skipped
                    out.append(refuse_link(sub))
                    refuse_link(raw)
    return out


def probe_only_machines():
    """The machines whose kernel row's guest is the probe-only one
    (kernel/arches' guest and machines columns)."""
    return {m for r in fact_table("arches").values() if r["guest"] == "probe"
            for m in r["machines"].split(",")}


def run_kind(rows):
    """Which charts a run's rows (raw.csv) fit: "x86" (the systemd guest
    alone: charts 1-6), "arches" (probe-only machines alone: chart 7) or
    "entropy" (both kinds of guest in one run, as studies/entropy/entropy.matrix
    boots: chart 8). Decided by the machines the run booted, a fact of its
    rows that no setting renames (run.matrix's name can be anything) and
    that no other axis fakes (a shift or rtc=fixed fits any run): charts
    1-6 read what only the systemd guest reports, chart 7 sets the x86
    guest's cells beside none, so a run of both fits neither. A run of
    more than one kernel base (studies/bases/bases.matrix) is "bases" (chart 9),
    whichever machines it booted: the others' charts set one base's cells
    beside each other, and would merge the bases' (checked first). A run
    of both values of the early axis (studies/systemd/systemd.matrix) is "systemd":
    no chart, its tables only; so is a run of more than one value of the
    waiters axis (studies/waiters/waiters.matrix: "waiters"), whose PID 1 reads with
    getrandom(0), none of the charts' reads (checked before the bases)."""
    if len({value(r, "waiters") for r in rows}) > 1:
        return "waiters"
    if len({value(r, "base") for r in rows}) > 1:
        return "bases"
    # A run of both early readers (studies/systemd/systemd.matrix) is tables only:
    # charts 1-6 would set PID 1's cells and the child's on one another.
    if len({value(r, "early") for r in rows}) > 1:
        return "systemd"
    machines = probe_only_machines()
    probe = {value(r, "arch") in machines for r in rows}
    return "entropy" if probe == {True, False} else "arches" if True in probe else "x86"


def is_arches(rows):
    """Rows of the probe-only machines alone (the arches matrix): they get
    chart 7 and its table, not charts 1-6 (no cpu models, no systemd)."""
    return run_kind(rows) == "arches"


def jitter_rows(rows):
    """Chart 5 and REPORT's HZ table, one selection: the first blocking
    urandom read's duration (it runs the jitter loop) in instruction time
    (icount, free of the host's load) where the run measured such cells,
    else under TCG (headline_accel of them: the callers name the clock
    from the rows they get), qemu64 (no RDRAND), a cycle counter present,
    and no other source of entropy or waiter (the axes' defaults: no
    virtio-rng, no seed, one vCPU, PID 1 reading, no other getrandom
    waiter), so a run with such cells beside
    (studies/sources/sources.matrix) draws chart 5 from its plain cells
    instead of merging them."""
    plain = [r for r in rows if r["measure"] == "first_urandom_latency" and r["accel"] in ("icount", "tcg")
             and r["cpu"] == "qemu64" and r["nocounter"] == "off"
             and all(value(r, a) == axis_defaults()[a] for a in JITTER_PLAIN_AXES)]
    accel = headline_accel(plain)
    return [r for r in plain if r["accel"] == accel]


# The axes whose default is the plain condition chart 5 measures.
JITTER_PLAIN_AXES = ("virtio_rng", "seed", "bootseed", "smp", "early", "waiters")


# Every chart, once: its name (plots/<name>.gp, RUN/plots/<name>.png, .svg,
# .txt), the runs it fits (run_kind(): "x86": a run of the systemd guest;
# "arches": a run of the other machines; "entropy": a run of both;
# "bases": a run of two kernel bases; "fix": a run with a variant and its
# -fix form, whichever kind it is besides: is_fix()) and its
# place in the mail (post.py: the reads first). prepare.py writes the charts that fit a run into data/charts,
# which render.sh and textcharts.py follow.
CHARTS = {
    "1-nethack": ("x86", 1),
    "2-crng-ready-cdf": ("x86", 3),
    "3-tcg-vs-kvm": ("x86", 5),
    "4-timeline": ("x86", 6),
    "5-jitter-vs-hz": ("x86", 4),
    "6-nocounter": ("x86", 2),
    "7-arches": ("arches", 7),
    "8-trial-margin": ("entropy", 8),
    "9-bases": ("bases", 9),
    "10-fix-mixes": ("fix", 10),
}


def accel_title(rows):
    """Chart 3's title (the PNG's and the text chart's), from its accel.dat
    rows split into columns (4th: KVM's median or NaN, 5th: KVM's state):
    KVM is named as compared only where some cell measured it. Within the
    mail's 80 columns (tests/fast/post.sh)."""
    if any(r[3] != "NaN" for r in rows):
        return "Median CRNG ready: TCG, icount and KVM for the same cells"
    why = "KVM not measured" if any(r[4] == "not_measured" for r in rows) else "no KVM cells"
    return f"Median CRNG ready: TCG and icount for the same cells ({why})"


def is_fix(rows):
    """A run that booted a variant and its -fix form (kernel/variants:
    stock and stock-fix) with patch 0007's mix columns in raw.csv
    (studies/fix/fix.matrix): chart 10, the credited bits before and after the
    fix, besides the charts of its kind."""
    have = {r.get("variant") for r in measured(rows)}
    return "mix_first_ns" in (rows[0] if rows else {}) and any(v + "-fix" in have for v in have if v)


def charts_for(rows):
    """The charts that fit a run of these rows, in number order."""
    fits = {run_kind(rows)} | ({"fix"} if is_fix(rows) else set())
    return [c for c, (kind, _) in CHARTS.items() if kind in fits]


def study_charts(charts):
    """The studies' own chart(run, dir) for these charts (names of
    CHARTS), once a study: a study whose `charts` field names one of them
    and whose folder's charts.py (else tables.py) defines chart(run,
    dir), which writes that chart's data files into dir (as hyperfine's
    exporters write their own format). prepare.py draws the rest."""
    out = []
    for name, f in studies().items():
        if not set(f.get("charts", "-").split(",")) & set(charts):
            continue
        mod = study_code(name, "charts.py") or study_code(name)
        if mod is not None and hasattr(mod, "chart"):
            if not callable(mod.chart):
                die(f"studies/{name}: chart is not a function chart(run, dir)")
            out.append(mod.chart)
    return out


def caption(meta, summary):
    """A chart's caption: the run's kernel, QEMU, clocks and boots per cell."""
    qemu = str(meta.get("qemu", "?")).replace("QEMU emulator version ", "QEMU ").split(" (")[0]
    measured = [r for r in summary if r["measure"] == "kernel_to_init" and r["n"] not in ("", "0")]
    accels = sorted({r["accel"] for r in measured})
    ns = sorted({int(r["n"]) for r in measured})
    nstr = ((f"n={ns[0]}" if len(ns) == 1 else f"n={ns[0]}-{ns[-1]}") + " boots per cell") if ns else "no data"
    return f"Linux {releases(meta)} (Debian), {qemu}, {'/'.join(accels)}, {nstr}"


def tracing(run):
    """What a run's block says first: whether its boots were traced
    (ftrace's function_graph on the RNG's read calls delays a boot, so
    traced times are a diagnostic, never compared with untraced ones)."""
    vals = {r.get("trace") or "off" for r in read_table(run, "summary.csv")}
    if vals <= {"off"}:
        return "Boots untraced.\n\n"
    if vals == {"on"}:
        return ("Boots traced (ftrace's function_graph on the RNG's read calls): a diagnostic; their times are "
                "not compared with untraced boots'.\n\n")
    return "Boots traced and untraced (the `trace` axis): each cell says which.\n\n"


# The jitter loop credits at most one bit per timer tick and the CRNG needs
# 256 bits, so the loop should take 256/HZ s: chart 5's reference line
# (prepare.py hands it to 5-jitter-vs-hz.gp), the HZ table's and the mail's.
JITTER_TICKS = 256


def jitter_ticks_ms(hz):
    """256/HZ in ms: the jitter loop's expected time at CONFIG_HZ=hz."""
    return JITTER_TICKS * 1000 / hz
