#!/usr/bin/env python3
"""A run as a mail for the list, ready for git send-email once read
(make post RUN=...):

    plots/runmail.py RUN_DIR      -> REAL_RUN_DIR/series/*.patch

RUN_DIR is resolved once (results/latest is a link the next run moves):
the real directory is where the mail goes and the run it names. Nothing
else is written (plots/, REPORT.md and the checkout are left as they
are), and nothing at all without the user's git identity (plots/series.py's
sender()), which is the mail's From and Signed-off-by.

The run's patches: each kernel the run booted carries the patches its
meta.json names (file and sha256, as kernel/build.sh built it). A
variant's baseline is the run's variant with the same patches of the
measurement (kernel/measurement) and the most of its other ones, but not
all (stock for stock-fix, and for yours); what a variant adds over its
baseline are the run's patches. They are mailed as the project's series
is (plots/series.py): git am on the base's pristine files, git
format-patch --cover-letter, [PATCH k/N], To and Cc from the base tree's
get_maintainer.pl. A patch file that changed since the run booted it
(another sha256) is refused: the mail would send what was not measured.
A run whose variants add only the measurement's patches over one another
(the quick run) has no patch: it is one [RFC] mail of its figures, each
variant set against the one it adds a patch to (block against stock).

The cover letter ([PATCH 0/N], or the [RFC]) is written from the run's
summary.csv and raw.csv alone: what was measured (kernel, QEMU, clocks,
-cpu models), then for each variant and its baseline a headline and
every cell where their medians (summary.csv's, to the microsecond)
differ, none folded into "alike": the cell's conditions, both medians,
95% CIs and n (or "identical in k boots", cells.fmt), the difference,
and both variants' kernel start to PID 1 (the images' layout, before any
wait of random.c's). Two kernel images that differ by any code time the
boot differently, and under icount the jitter trial's samples per bit
(raw.csv's jitter_per_bit) moves by one with them, which moves CRNG
ready by whole seconds; so a difference is the patch's only where
nothing else can explain it. A cell is marked "not the patch alone",
with the reason in words, where
  - the knob skipped the jitter trial (nocounter=on, or a boot's
    jitter_skipped): "knob: jitter trial skipped", the loop never ran;
  - else the two variants' trials counted different samples per bit
    ("trials counted 7 (stock) vs 6 (mine) samples per bit: the kernel
    images differ, not only the patch"; no trial logged counts as one
    value, "no trial");
  - the medians are no further apart than the two kernel start to PID 1
    (the images' layout);
  - their 95% CIs overlap (the boots' spread).
The headline names the largest difference (|log ratio|, CRNG ready and
the first read) among the cells not marked, or says that no cell
isolates the patch; the text chart shows the boots of the headline
measure's unmarked cells, and there is none without a headline. Then
the conditions random.c depends on (HZ, smp, trust_cpu, nocounter=on),
the base (the release booted; a base: line naming Debian's package,
never an invented base-commit:), and the command that reproduces the
run: the crngbench commit (and the upstream one under a local commit),
the overrides that make its matrix file its run.matrix (so a grown or
resumed run is reproduced whole) and the runner's options of
meta.json's command line, with a warning when the checkout holds
changes that commit lacks. No attachment: the run's
charts stay in RUN/plots/ (make plots RUN=...).
"""
import glob
import hashlib
import math
import os
import re
import shlex
import subprocess
import sys
import textwrap

import series
from cells import BEFORE_CLOCK, CLAMPED_MEASURES, fmt, summary_rows
from formats import axis_names, measure_columns
from runlib import (ACCEL_WORDS, CLOCK_WORDS, INTEGER, ROOT, RUNNER, check_path, die, fact_table, headline_accel, kernel_base,
                    measured, open_run_file, pick, read_meta, read_table, refuse_link, releases, run_main, value, variant_order)
from textcharts import strip_chart

WIDTH = 72
# The measures the cover letter sets side by side, in its order, with
# their words.
MEASURES = (("crng_ready", "CRNG ready, ms from kernel start"),
            ("first_urandom_latency", "the first blocking /dev/urandom read's own duration, ms"))
# The witness of the two kernel images' layout, shown beside each cell:
# random.c waits after PID 1 starts, so a patch to its waits moves this
# only by the bytes it adds.
LAYOUT = "kernel_to_init"
# meta.json's name of a kernel: [<base>/]<variant>-hz<HZ>[-<arch>]
KERNEL_KEY = re.compile(r"(?:(?P<base>[^/]+)/)?(?P<variant>.+?)-hz(?P<hz>[0-9]+)(?:-(?P<arch>[A-Za-z0-9_.-]+))?")
# What make bench's variables put on the runner's command line (the
# Makefile's AXIS_SETS): the reproduce line gives them back as those.
SET_VARS = {"variant": "VARIANTS", "cpu": "CPUS", "accel": "ACCELS", "reps": "REPS", "hz": "HZ",
            "base": "KERNEL_BASE"}
# The runner's options that change what a run measures, given back in
# RUNFLAGS; the options that take no value.
RUN_OPTIONS = ("--seed", "--jobs", "--parallel-jobs", "--append", "--qemu-arg", "--kvm-canary")
SWITCHES = ("--perf", "--quiet", "--verbose", "--resume", "--dry-run")


def wrap(text, indent="", hang=None):
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent if hang is None else hang,
                         break_long_words=False, break_on_hyphens=False)


# --- the run's patches -----------------------------------------------------


def run_patches(meta):
    """{base: {variant: {number: (file name, sha256)}}}: the patches of
    every kernel the run booted (meta.json's kernels), by base; a
    variant's kernels of one base (HZ, architectures) must agree."""
    out = {}
    for key, k in meta.get("kernels", {}).items():
        m = KERNEL_KEY.fullmatch(key)
        if not m or not isinstance(k, dict):
            die(f"meta.json: kernel '{key}' is not named <base>/<variant>-hz<HZ>[-<arch>] (the runner's names)")
        base = str(k.get("base") or m["base"] or kernel_base(meta))
        have = {}
        for item in filter(None, str(k.get("patches", "")).split("; ")):
            name, _, sha = item.partition(" ")
            have[name.split("-", 1)[0]] = (name, sha)
        prev = out.setdefault(base, {}).setdefault(m["variant"], have)
        if prev != have:
            die(f"meta.json: variant {m['variant']}'s kernels of base {base} carry different patches "
                f"({', '.join(sorted(prev))} and {', '.join(sorted(have))}): which did the run measure?")
    return out


def roles():
    """The measurement's own patches (kernel/measurement): {number: row}."""
    return fact_table("measurement")


def pairs(sets):
    """([(variant, baseline, added numbers)], patched) of one base's
    variants (sets: {variant: {number: ...}}). A variant's baseline holds
    the same patches of the measurement and the most of its other ones,
    not all: what a variant adds over it is a patch of the run (patched).
    Without one, every variant is set against the variant of the most of
    its patches, not all (block-v0 against block, block against stock):
    the [RFC]'s figures."""
    own = set(roles())
    order = sorted(sets, key=variant_order)

    def best(v, fits):
        cands = [b for b in order if b != v and set(sets[b]) < set(sets[v]) and fits(b)]
        return max(cands, key=lambda b: len(sets[b])) if cands else None  # max keeps a tie's first

    for patched, fits in ((True, lambda v, b: set(sets[b]) & own == set(sets[v]) & own), (False, lambda v, b: True)):
        out = [(v, b, sorted(set(sets[v]) - set(sets[b]))) for v in order
               for b in [best(v, lambda b, v=v: fits(v, b))] if b]
        if out:
            return out, patched
    return [], False


def alone(sets):
    """Refuse a variant that adds patches of its own over no variant of
    the run: there is nothing to set its figures against."""
    own = set(roles())
    for v, have in sets.items():
        extra = sorted(set(have) - own)
        if extra and not any(set(sets[b]) & own == set(have) & own and set(sets[b]) < set(have)
                             for b in sets if b != v):
            die(f"variant {v} adds patch{'es' if len(extra) > 1 else ''} {', '.join(extra)}, but the run booted "
                "no variant without them to set it against (its baseline, such as stock): run both, e.g. "
                f"make bench VARIANTS=stock,{v}")


def mail_base(by_base):
    """The base the mail is against: the run's, or of a run of several
    bases the newest (kernel/bases' last row of them)."""
    known = list(fact_table("bases"))
    bases = sorted(by_base, key=lambda b: known.index(b) if b in known else -1)
    if not bases:
        die("meta.json names no kernel: which kernels did the run boot?")
    if bases[-1] not in known:
        die(f"meta.json: base '{bases[-1]}' is not a row of kernel/bases ({', '.join(known)})")
    return bases[-1]


def patch_file(base, name, sha, meta=None):
    """The base's series file that is what the run booted as NAME: NAME
    itself with its sha256; or, where the file was reworded since (its
    message, its subject and so its name: the sha differs or NAME is gone),
    the series' file of the same number, if every kernel of the run that
    carried NAME keys as meta.json recorded (kernel/build.sh --status: the
    patches' diffs, not their messages or names). That also covers a
    kernel the cache had built for the same variant from another
    checkout's file of the same diff (its record names that file)."""
    series_dir = fact_table("bases")[base]["patches"]
    if "/" in name or not name.endswith(".patch"):
        die(f"the run booted patch {name!r}, not a file name ending in .patch")
    path = refuse_link(os.path.join(ROOT, series_dir, name))
    if os.path.isfile(path):
        with open(path, "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() == sha:
                return path
    number = name.split("-", 1)[0]
    now = sorted(glob.glob(os.path.join(ROOT, series_dir, glob.escape(number) + "-*.patch")))
    if len(now) == 1 and same_kernels(meta or {}, base, name):
        return refuse_link(now[0])
    if not now:
        die(f"the run booted patch {name!r}, and base {base}'s series ({series_dir}/) has no patch {number} now: "
            "put yours there and name it in kernel/variants")
    die(f"the run booted {name} (sha256 {sha[:12]} in its meta.json); {series_dir}/ now has "
        f"{', '.join(os.path.basename(n) for n in now)}, and the kernels it builds are not the ones the run "
        "measured (kernel/build.sh --status keys them otherwise: the diff changed, or the config, or "
        "kernel/build.sh): the mail would send what was not measured; restore it, or run again")


def same_kernels(meta, base, name):
    """Whether every kernel of the run (meta.json) that carries patch NAME
    of BASE would be built now from the inputs it was built from: its
    recorded input_key is kernel/build.sh --status's key now."""
    carrying = [(m, v) for m, v in ((KERNEL_KEY.fullmatch(k), v) for k, v in meta.get("kernels", {}).items())
                if m and isinstance(v, dict) and name in str(v.get("patches", ""))
                and str(v.get("base") or m["base"] or kernel_base(meta)) == base]
    if not carrying or any(not str(v.get("input_key", "")) for _, v in carrying):
        return False
    for m, v in carrying:
        env = dict(os.environ, KERNEL_BASE=base, KERNEL_HZ=m["hz"])
        env.pop("KERNEL_ARCH", None)
        if m["arch"]:
            env["KERNEL_ARCH"] = m["arch"]
        p = subprocess.run([os.path.join(ROOT, "kernel", "build.sh"), "--status", m["variant"]], env=env,
                           capture_output=True, encoding="utf-8", errors="replace")
        fields = p.stdout.split()
        if p.returncode != 0 or len(fields) < 4 or fields[3] != v["input_key"]:
            return False
    return True


# --- the cover letter --------------------------------------------------------


def cell_figure(r):
    """A cell as the tables give it: median [CI] or 'identical in k
    boots' (cells.fmt), then n and the censored count."""
    cens = f" ({r['censored']} censored)" if r["censored"] not in ("0", "") else ""
    return f"{fmt(r)}; n={r['n']}{cens}"


def overlap(a, b):
    """Whether two cells' 95% CIs overlap (a difference within the noise)."""
    try:
        return not (float(a["ci95_hi_ms"]) < float(b["ci95_lo_ms"]) or float(b["ci95_hi_ms"]) < float(a["ci95_lo_ms"]))
    except ValueError:
        return True


def differing(rows, v, b, measure):
    """[(accel, condition, baseline's row, variant's row)] of the cells of
    measure where both were measured and their medians differ (summary.csv's,
    to the microsecond), and the count of the other cells (the same
    median). The headline clock first."""
    first = headline_accel(rows)
    sel = [r for r in rows if r["measure"] == measure and r["n"] not in ("", "0") and r["median_ms"] != ""]
    keys = sorted({(r["accel"], r["_cond"]) for r in sel}, key=lambda k: (k[0] != first, k[0] != "tcg", k))
    out, same = [], 0
    for accel, cond in keys:
        rb, rv = pick(sel, accel=accel, _cond=cond, variant=b), pick(sel, accel=accel, _cond=cond, variant=v)
        if rb is None or rv is None:
            continue
        if float(rb["median_ms"]) == float(rv["median_ms"]):
            same += 1
        else:
            out.append((accel, cond, rb, rv))
    return out, same


def gap(cell):
    """How far apart a differing cell's two medians are: |log10 ratio|
    (0 where one is 0)."""
    lb, lv = float(cell[2]["median_ms"]), float(cell[3]["median_ms"])
    return abs(math.log10(lv / lb)) if lb > 0 and lv > 0 else 0


def where(accel, cond):
    """A cell's clock and conditions, in words."""
    return ", ".join(x for x in (ACCEL_WORDS.get(accel, accel), cond) if x)


def cell_boots(raw, name, accel, r):
    """raw.csv's measured boots of variant name in summary row r's cell."""
    axes = [a for a in axis_names() if a not in ("variant", "accel")]
    return [x for x in raw if x["variant"] == name and x["accel"] == accel and all(value(x, a) == value(r, a) for a in axes)]


def per_bit(boots):
    """The jitter trial's samples per bit the boots logged, in words: "6",
    "5-7", or "no trial" where none logged one."""
    vals = sorted({int(x["jitter_per_bit"]) for x in boots if INTEGER.match(x.get("jitter_per_bit") or "")})
    return "no trial" if not vals else str(vals[0]) if len(vals) == 1 else f"{vals[0]}-{vals[-1]}"


def layout(rows, accel, cond, v, b):
    """The cell's kernel start to PID 1 (LAYOUT): (the baseline's median,
    the variant's), ms, or None where either is missing."""
    pair = [pick(rows, measure=LAYOUT, accel=accel, _cond=cond, variant=x) for x in (b, v)]
    if any(r is None or r["n"] in ("", "0") or r["median_ms"] == "" for r in pair):
        return None
    return tuple(float(r["median_ms"]) for r in pair)


def marks(rows, raw, v, b, cell):
    """Why a differing cell does not isolate the patch, in words (the
    head's rule): [] where it does."""
    accel, cond, rb, rv = cell
    bb, bv = cell_boots(raw, b, accel, rb), cell_boots(raw, v, accel, rv)
    out = []
    if value(rb, "nocounter") == "on" or any(x.get("jitter_skipped") == "1" for x in bb + bv):
        out.append("knob: jitter trial skipped (random.no_cycle_counter): the jitter loop never ran")
    elif per_bit(bb) != per_bit(bv):
        out.append(f"trials counted {per_bit(bb)} ({b}) vs {per_bit(bv)} ({v}) samples per bit: "
                   + ("the kernel images differ, not only the patch" if accel == "icount" else
                      f"the count moves with the host's timing under {ACCEL_WORDS.get(accel, accel)}, "
                      "not only with the patch"))
    d, k = float(rv["median_ms"]) - float(rb["median_ms"]), layout(rows, accel, cond, v, b)
    if k and k[0] != k[1] and abs(d) <= abs(k[1] - k[0]):
        out.append(f"a shift no larger than kernel start to PID 1's ({k[1] - k[0]:+.3f} ms): "
                   "the images' layout")
    if overlap(rb, rv):
        out.append("95% CIs overlap: within the boots' spread")
    return out


def comparison(rows, raw, v, b):
    """(the lines setting variant v against its baseline b: the headline,
    then a block per measure listing every cell where their medians
    differ, with n, medians, CIs, kernel start to PID 1 and the marks of a
    cell that does not isolate the patch; the headline's measure and its
    unmarked differing cells, widest apart first, for the chart)."""
    w = max(len(v), len(b))
    blocks, best = [], None
    for measure, words in MEASURES:
        cells, same = differing(rows, v, b, measure)
        if not cells and not same:
            continue
        blocks += [f"{words}:"]
        clean = []
        for cell in cells:
            accel, cond, rb, rv = cell
            d, k, why = float(rv["median_ms"]) - float(rb["median_ms"]), layout(rows, accel, cond, v, b), \
                marks(rows, raw, v, b, cell)
            blocks += wrap(where(accel, cond), "  ")
            blocks.append(f"    {b:<{w}}  {cell_figure(rb)}")
            blocks.append(f"    {v:<{w}}  {cell_figure(rv)}")
            blocks += wrap(f"medians {d:+.3f} ms ({v} minus {b})"
                           + (f"; kernel start to PID 1: {k[0]:.3f} ms ({b}), {k[1]:.3f} ms ({v})" if k else ""),
                           "    ", "      ")
            for m in why:
                blocks += wrap(f"not the patch alone: {m}", "    ", "      ")
            if not why:
                clean.append(cell)
        if same:
            blocks += wrap((f"every cell ({same})" if not cells else f"the other {same} cell{'s' if same > 1 else ''}")
                           + ": the same median", "  ")
        blocks.append("")
        top = max(clean, key=gap, default=None)
        if top and (best is None or gap(top) > gap(best[1][0])):
            best = (measure, sorted(clean, key=gap, reverse=True))
    if best:
        measure, (top, *_) = best[0], best[1]
        accel, cond, rb, rv = top
        d = float(rv["median_ms"]) - float(rb["median_ms"])
        head = (f"Headline: {dict(MEASURES)[measure].rsplit(', ms', 1)[0]}, {where(accel, cond)}: "
                f"{float(rb['median_ms']):.3f} ms ({b}), {float(rv['median_ms']):.3f} ms ({v}), {d:+.3f} ms: "
                "the largest difference among the cells below that isolate the patch (no mark says otherwise).")
    elif any(l.startswith("    not the patch alone: ") for l in blocks):
        head = ("Headline: no cell isolates the patch; every cell where the medians differ is marked below "
                "with the reason.")
    else:
        head = f"Headline: {v} and {b} have the same medians in every cell."
    return wrap(head) + [""] + blocks, best or (None, [])


def chart(raw, v, b, measure, cells):
    """A text chart (textcharts.strip_chart) of every boot of v and b in
    the headline's cells (comparison's): the measure's values from
    raw.csv, '>' a boot still waiting at its bound, '<' a CRNG ready
    logged before timekeeping (a clamped 0, at the axis' left end)."""
    col, cens = measure_columns()[measure]
    groups = []
    for accel, cond, rb, _ in cells[:6]:
        per = []
        for name in (b, v):
            pts = [(int(r[col]) / 1e6, ">" if cens and r.get(cens) == "1" else
                    "<" if measure in CLAMPED_MEASURES and int(r[col]) == 0 else "o")
                   for r in cell_boots(raw, name, accel, rb) if INTEGER.match(r.get(col) or "") and int(r[col]) >= 0]
            per.append((name, pts))
        groups.append((where(accel, cond), per))
    words = dict(MEASURES)[measure].rsplit(", ms", 1)[0]
    return strip_chart(f"{v} against {b}: {words}"[:80], "guest ms", groups, [],
                       "o: one boot   >: still waiting at its bound"
                       + (f"   <: {BEFORE_CLOCK}" if measure in CLAMPED_MEASURES else "")) + [""]


def measured_words(rows, meta, release):
    """What was measured, in a paragraph: kernel, QEMU, clocks, -cpu."""
    ran = [r for r in rows if r["n"] not in ("", "0")]
    accels = sorted({r["accel"] for r in ran}, key=lambda a: (a != "icount", a))
    cpus = sorted({r["cpu"] for r in ran if r["cpu"] != "default"})
    arches = sorted({value(r, "arch") for r in ran})
    ns = sorted({int(r["n"]) for r in ran})
    qemu = str(meta.get("qemu", "QEMU")).replace("QEMU emulator version", "QEMU")
    return (f"Measured with crngbench: Debian's Linux {release} booted under {qemu} "
            f"({', '.join(arches)}{'; -cpu ' + ', '.join(cpus) if cpus else ''}) into a minimal guest, "
            f"in {' and '.join(CLOCK_WORDS.get(a, a) for a in accels)}; "
            f"{'-'.join(str(n) for n in sorted({ns[0], ns[-1]})) if ns else 0} boots a cell. "
            "Times are the guest's CLOCK_BOOTTIME: under icount one instruction a ns, free of the host's load; "
            "under TCG emulation time, several times slower than hardware.")


def carried(sets, b):
    """The measurement's patches the baseline carries, in words."""
    own = roles()
    return ", ".join(f"{n} ({own[n]['role']})" for n in sorted(sets[b]) if n in own) or "none"


# What each condition random.c cares about is, for the cover letter's
# lines: (axis, its words with {v} its value).
CONDITIONS = (("hz", "HZ={v}: CONFIG_HZ, the kernel's timer tick rate"),
              ("smp", "smp={v}: the guest's CPUs (-smp)"),
              ("trust_cpu", "trust_cpu={v}: random.trust_cpu={v}, whether the CPU's RNG (RDSEED, RDRAND, where "
                            "the -cpu model has them) is credited at boot"))
NOCOUNTER = ("nocounter=on: a test-only boot parameter, random.no_cycle_counter, that makes "
             "random_get_entropy() return 0 to stand in for machines without a cycle counter")


def conditions(rows):
    """Lines of the conditions random.c cares about, one each, within
    WIDTH: the value every measured cell shares (or the values the cells'
    conditions name); and what nocounter=on is, where a cell has it."""
    ran = [r for r in rows if r["n"] not in ("", "0")]
    out = []
    for axis, words in CONDITIONS:
        vals = sorted({r[axis] for r in ran if r.get(axis)}, key=lambda x: (len(x), x))
        if len(vals) == 1:
            out += wrap(words.format(v=vals[0]), "  ", "      ")
        elif vals:
            out += wrap(f"{axis}: {', '.join(vals)}, as each cell says", "  ", "      ")
    if any(r.get("nocounter") == "on" for r in ran):
        out += wrap(NOCOUNTER, "  ", "      ")
    return (["The conditions that matter to random.c:"] + out + [""]) if out else []


def base_lines(meta, base, release, patched):
    """The base, precisely: the release the run booted and the source it
    was built from. A Debian source tree has no upstream git commit, so
    no base-commit: line (git format-patch --base) is written, never an
    invented one: a base: line names the package instead."""
    pkg = fact_table("bases")[base]["package"]
    version = f" ({meta['kernel_package']})" if meta.get("kernel_package") and kernel_base(meta) == base else ""
    booted = sorted({str(k.get("release")) for k in meta.get("kernels", {}).values()
                     if str(k.get("release", "")).startswith(release + "-")})
    return wrap(f"Base: Linux {release} as Debian's {pkg}{version} ships it"
                + (", the patches against its pristine files" if patched else "")
                + (f"; the run booted {', '.join(booted)}." if booted else ".")) + [
        f"base: Debian {pkg} {release}", ""]


# --- reproducing the run ---------------------------------------------------


def revision(run):
    """(the crngbench commit the run is reproduced from, 12 hex digits;
    the checkout's changes that commit lacks). A committed run records
    its commit (RUN/commit, scripts/keep-run.sh), so its mail is the same
    at every later commit, with no changes; any other run is the
    checkout's HEAD, with git status's changed and new files."""
    f = open_run_file(os.path.join(run, "commit"), missing_ok=True)
    if f is not None:
        with f:
            rev = f.read().strip()
        if not re.fullmatch("[0-9a-f]{7,40}", rev):
            die(f"{run}/commit: {rev[:60]!r} is not a git commit id (7 to 40 lowercase hex digits)")
        return rev[:12], []
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        return "?", ["(this checkout is no git clone: no commit holds it)"]
    st = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=all"],
                        capture_output=True, text=True)
    return head.stdout.strip(), [l[3:] for l in st.stdout.splitlines() if l.strip()]


def upstream():
    """(the upstream crngbench commit the checkout's HEAD is built on, 12
    hex digits; the files HEAD's own commits change over it), or None:
    HEAD is origin/main's or an ancestor of it, or there is no origin."""
    def git(*a):
        p = subprocess.run(["git", "-C", ROOT, *a], capture_output=True, text=True)
        return p.stdout.strip() if p.returncode == 0 else None

    if not git("rev-parse", "--verify", "-q", "origin/main^{commit}"):
        return None
    base = git("merge-base", "HEAD", "origin/main")
    if not base or base == git("rev-parse", "HEAD"):
        return None
    files = (git("diff", "--name-only", base, "HEAD") or "").splitlines()
    return base[:12], files


def matrix_file(name):
    """The matrix file MATRIX=name reads (the Makefile's MATRIX_FILE:
    bench/name.matrix, else a study's), or None."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        return None
    hits = [os.path.join(ROOT, "bench", f"{name}.matrix")] + sorted(
        glob.glob(os.path.join(ROOT, "studies", "*", f"{name}.matrix")))
    return next((h for h in hits if os.path.isfile(h)), None)


def resolved(path):
    """({key: value}, [exclude values]) of the runner's resolved matrix of
    the matrix file path (--print-axis matrix, as make reproduce compares
    them), or None where the runner cannot read it."""
    try:
        p = subprocess.run([RUNNER, "--matrix", path, "--print-axis", "matrix"], capture_output=True, text=True)
    except OSError:
        return None
    if p.returncode != 0:
        return None
    keys, excludes = {}, []
    for line in p.stdout.splitlines():
        key, eq, val = line.partition("=")
        if eq and not line.startswith("#"):
            if key.strip() == "exclude":
                excludes.append(val.strip())
            else:
                keys[key.strip()] = val.strip()
    return keys, excludes


def matrix_overrides(run, path):
    """({make variable: value}, SETS' options, what no override gives back)
    that turn the matrix file path into the run's own matrix (its
    run.matrix), whichever command made or grew the run; None where
    either is not one the runner reads."""
    ran, now = resolved(os.path.join(run, "run.matrix")), resolved(path)
    if ran is None or now is None:
        return None
    args, sets = {}, []
    for key, val in ran[0].items():
        if key == "name" or now[0].get(key) == val:
            continue
        if key in SET_VARS:
            args[SET_VARS[key]] = val
        else:
            sets += ["--set", f"{key}={val}"]
    sets += [w for e in ran[1] if e not in now[1] for w in ("--set", f"exclude={e}")]
    lost = [f"{k} = {v}" for k, v in now[0].items() if k not in ran[0]] + \
        [f"exclude = {e}" for e in now[1] if e not in ran[1]]
    return args, sets, lost


def make_args(meta, run=None):
    """(the words after make bench that start the run again, notes): MATRIX,
    the overrides that make its matrix file the run's own matrix
    (run.matrix, set against the file by the runner: VARIANTS, CPUS,
    ACCELS, REPS, HZ, KERNEL_BASE; SETS for the other axes and settings),
    RUNFLAGS with the seed and the runner's options that change what is
    measured (meta.json's command line). Without a run.matrix to compare
    (or a matrix file outside bench/ and studies/), the overrides are
    those of the command line. The notes say what no make variable gives
    back (a matrix file's lines the run had not, a kernel built
    elsewhere, a shard, a matrix outside bench/)."""
    argv = [str(a) for a in meta.get("command_line") or []][1:]
    args, sets, flags, notes = {"MATRIX": str(meta.get("matrix") or "quick")}, [], [], []
    path, resumed = None, False
    i = 0
    while i < len(argv):
        opt, eq, val = argv[i].partition("=")
        if not eq and opt not in SWITCHES:
            val, i = (argv[i + 1] if i + 1 < len(argv) else ""), i + 1
        i += 1
        if opt == "--matrix":
            name = os.path.basename(val).removesuffix(".matrix")
            # MATRIX=name finds bench/name.matrix or a study's own
            # (scripts/studies.sh's matrix_file, the Makefile's MATRIX_FILE)
            if not re.fullmatch(rf"(bench|studies/[a-z0-9][a-z0-9_-]*)/{re.escape(name)}\.matrix", val):
                notes.append(f"its matrix was {val}, not one of bench/ or studies/: copy its run.matrix "
                             f"there as bench/{name}.matrix")
                path = False
            args["MATRIX"] = name
        elif opt == "--resume":
            resumed = True
        elif opt == "--set":
            key, _, v = val.partition("=")
            if key in SET_VARS:
                args[SET_VARS[key]] = v
            else:
                sets += ["--set", val]
        elif opt in RUN_OPTIONS:
            flags += [opt, val]
        elif opt == "--perf":
            flags.append(opt)
        elif opt == "--kernels":
            notes.append("its kernels were built elsewhere (--kernels): give the runner the same ones")
        elif opt == "--shard":
            notes.append(f"it was shard {val} of a run: the line above boots every shard")
    if path is None:
        path = matrix_file(args["MATRIX"])
    found = matrix_overrides(run, path) if run and path else None
    if found:
        args = {"MATRIX": args["MATRIX"], **found[0]}
        sets = found[1]
        if found[2]:
            notes.append(f"{os.path.relpath(path, ROOT)} now has {'; '.join(found[2])}, which the run's "
                         f"matrix had not: for its very cells, copy its run.matrix as "
                         f"bench/{args['MATRIX']}-run.matrix and give MATRIX={args['MATRIX']}-run")
    elif resumed:
        notes.append("it was resumed or grown (--resume): the line above is its last command's, "
                     "and its cells are its run.matrix's")
    if "--seed" not in flags and meta.get("seed") is not None:
        flags += ["--seed", str(meta["seed"])]
    words = [f"{k}={shlex.quote(v)}" for k, v in args.items()]
    words += [f"SETS={shlex.quote(shlex.join(sets))}"] if sets else []
    words += [f"RUNFLAGS={shlex.quote(shlex.join(flags))}"] if flags else []
    return words, notes


def command(words, first="  scripts/deps.sh && make bench"):
    """A shell command of words, continued with backslashes within WIDTH."""
    lines, cur = [], first
    for w in words:
        if len(cur) + 1 + len(w) + 2 > WIDTH:
            lines.append(cur + " \\")
            cur = "      " + w
        else:
            cur += " " + w
    return lines + [cur]


def listed(files):
    """Files in words: the first six and how many more."""
    return (", ".join(files[:6]) + (f" and {len(files) - 6} more" if len(files) > 6 else "")) or "no file"


def reproduce(meta, run, who="plots/runmail.py"):
    """The lines that say how to make the run again: the commit, the
    command, and what the checkout holds that the commit lacks (also
    said on stderr, by who)."""
    rev, changes = revision(run)
    words, notes = make_args(meta, run)
    out = [f"To reproduce, with crngbench at {rev} (Debian 12, as root):", ""] + command(words) + [""]
    for n in notes:
        out += wrap(f"Note: {n}.")
    up = upstream() if not os.path.exists(os.path.join(run, "commit")) else None
    if up:
        out += wrap(f"Note: {rev} is upstream crngbench's {up[0]} (origin/main) with this checkout's own "
                    f"commits on it (the patch and its variant line), which change {listed(up[1])}.")
    if changes:
        warn = (f"WARNING: the crngbench checkout held changes {rev} lacks ({listed(changes)}): the line above "
                "reproduces this run only once they are committed and published.")
        print(f"{who}: {warn}", file=sys.stderr)
        out += wrap(warn)
    return out


# --- the mail ----------------------------------------------------------------


def touched(sets, base):
    """The files the run's patches of base touch (an [RFC]'s To and Cc)."""
    files = set()
    for have in sets.values():
        for name, _ in have.values():
            path = os.path.join(ROOT, fact_table("bases")[base]["patches"], name)
            if "/" not in name and os.path.isfile(path) and not os.path.islink(path):
                files |= {f.decode("utf-8", "replace") for pair in series.read_patch(path)["files"] for f in pair}
    if not files:
        die(f"the run's kernels of base {base} carry no patch of its series: To and Cc come from "
            "get_maintainer.pl on the files the patches touch")
    return sorted(files)


def clean(subject):
    """A patch's Subject without its [PATCH ...] tags, as git am takes it."""
    return re.sub(r"^(\s*\[[^]]*\]\s*)+", "", " ".join(subject.split()))


def sides(found, paths, patched):
    """Per pair, what the variant is: its baseline and the patches."""
    own = roles()
    out = []
    for v, b, added in found:
        if patched:
            nums = [f"{i + 1}/{len(paths)}" for i, p in enumerate(paths) if os.path.basename(p).split("-", 1)[0] in added]
            out.append(f"{v} is {b} with patch{'es' if len(nums) > 1 else ''} {', '.join(nums)}")
        else:
            out.append(f"{v} is {b} with crngbench's patch{'es' if len(added) > 1 else ''} "
                       + ", ".join(n + (f" ({own[n]['role']})" if n in own else "") for n in added))
    return out


def mails(run, who):
    """[(file name, text)]: the run's mail, sent by who."""
    meta = read_meta(run)
    by_base = run_patches(meta)
    base = mail_base(by_base)
    sets = by_base[base]
    alone(sets)
    found, patched = pairs(sets)
    if not found:
        die(f"the run's variants ({', '.join(sorted(sets, key=variant_order))}) add no patch over one another: "
            "nothing to set side by side (boot a variant and its baseline, e.g. VARIANTS=stock,yours)")
    paths = [patch_file(base, *next(sets[v][n] for v, _, added in found if n in added), meta)
             for n in sorted({n for _, _, added in found for n in added})] if patched else []
    tree = series.tree_of(base)  # before the figures: a base without its tree is named at once
    rows = summary_rows(run)
    release = ([x for x in releases(meta).split(" and ") if x.startswith(base + ".")] or ["?"])[0]
    body, charted = wrap(measured_words(rows, meta, release)) + [""], []
    raw = measured(read_table(run, "raw.csv"))
    for (v, b, _), what in zip(found, sides(found, paths, patched)):
        lines, (measure, cells) = comparison(rows, raw, v, b)
        body += wrap(f"{v} against {b}, where they differ:") + [""]
        body += wrap(f"{what}; both carry crngbench's own patches {carried(sets, b)}, not sent.") + [""]
        body += lines
        if not charted and measure:
            charted = chart(raw, v, b, measure, cells)
    body += charted + conditions(rows) + base_lines(meta, base, release, patched)
    body += wrap(f"The run: {os.path.basename(run)} (its raw.csv holds every boot, its summary.csv every "
                 "figure above).") + [""]
    text = "\n".join(l.rstrip() for l in body + reproduce(meta, run)).rstrip("\n")
    if patched:
        subjects = [series.read_patch(p)["subject"] for p in paths]
        title = clean(subjects[0]) if len(paths) == 1 else \
            f"measured: {', '.join(v for v, _, _ in found)} against {', '.join(dict.fromkeys(b for _, b, _ in found))}"
        rfc = any(re.match(r"\s*\[[^]]*\bRFC\b", s) for s in subjects)
        return series.build(tree, paths, title, text, who, rfc=rfc)
    to, cc = series.maintainers(tree, touched(sets, base), files=True)
    return series.rfc_mail(who, to, cc, f"crngbench: {', '.join(v for v, _, _ in found)} under QEMU, Linux {release}", text)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plots/runmail.py RUN_DIR (make post RUN=...)")
    given = check_path(sys.argv[1])
    run = os.path.realpath(given)  # once: results/latest moves with the next run
    if not os.path.isfile(os.path.join(run, "summary.csv")):
        die(f"{given}/summary.csv not found (a results/<run> directory?)")
    who = series.sender()  # before anything is read or written
    out = refuse_link(os.path.join(run, "series"))
    series.write_mails(out, mails(run, who))
    if os.path.abspath(given) != run:
        print(f"[post] {given} is {run}: the mail is of that run")


if __name__ == "__main__":
    run_main(main)
