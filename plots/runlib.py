"""What plots/prepare.py and scripts/report_tables.py share about a run, so
a chart and the table beside it always say the same thing: the variant
order (kernel/variants, through scripts/variants.sh), their colours, how a
cell's condition is named, and the runner's own description of its axes
and measures (crngbench-run --describe). Nothing here computes a statistic:
those are the runner's, in summary.csv."""
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
RUNNER = os.environ.get("CRNGBENCH_RUNNER", os.path.join(ROOT, "build", "crngbench-run"))
PALETTE = ["#1b9e77", "#7570b3", "#d95f02", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"]


def _variants():
    out = subprocess.run([os.path.join(ROOT, "scripts", "variants.sh"), "--lines"],
                         capture_output=True, text=True, check=True).stdout
    return out.split()


VARIANTS = _variants()  # order, every chart and table
COLOURS = [PALETTE[i % len(PALETTE)] for i in range(len(VARIANTS))]  # one per variant


def describe():
    """The runner's axes, measures and columns (crngbench-run --describe)."""
    if not os.access(RUNNER, os.X_OK):
        sys.exit(f"{RUNNER} not found: build it with 'make runner'")
    return json.loads(subprocess.run([RUNNER, "--describe"], capture_output=True, text=True,
                                     check=True).stdout)


AXES = [a["name"] for a in describe()["axes"]]
DEFAULTS = {a["name"]: a["default"] for a in describe()["axes"]}

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
}
SHOWN_APART = ("variant", "accel")  # a chart's series and panels, not its labels


def varying(rows):
    """The axes whose value differs between rows (cells) of a run."""
    return [a for a in AXES if a not in SHOWN_APART and len({value(r, a) for r in rows}) > 1]


def value(r, axis):
    """A row's value of axis; an axis newer than the run reads as its default."""
    return r.get(axis) or DEFAULTS[axis]


def condition(r, axes):
    """A cell's entropy condition in the words of the thread: its value of
    every axis in axes (the ones that vary in the run), cpu always."""
    names = ["cpu"] + [a for a in axes if a != "cpu"]
    parts = [WORDS.get(a, lambda v, a=a: f"{a}={v}")(value(r, a)) for a in names]
    return ", ".join(p for p in parts if p)


def summary_rows(run):
    """A run's summary.csv, every row, in the runner's (matrix) order."""
    with open(os.path.join(run, "summary.csv"), newline="") as f:
        return list(csv.DictReader(f))


def pick(rows, **want):
    """The one summary row matching want; None if there is none. Two rows
    for one key would mean two cells collapsed into one label: an error."""
    hits = [r for r in rows if all(r[k] == v for k, v in want.items())]
    if len(hits) > 1:
        sys.exit(f"runlib: {len(hits)} summary rows for {want}: cells would merge; "
                 f"label with condition(r, varying(rows))")
    return hits[0] if hits else None


def headline_accel(rows):
    """The clock of the headline charts and tables: instruction time
    (icount) where the run measured it, else TCG."""
    measured = {r["accel"] for r in rows if r.get("status", "ok") in ("ok", "censored")
                and r.get("n", "1") not in ("", "0")}
    return "icount" if "icount" in measured else "tcg"


CLOCK_WORDS = {"icount": "instruction time (icount)", "tcg": "emulation time (TCG)", "kvm": "KVM"}


def is_arches(rows):
    """Rows of machines other than x86_64 (the arches matrix): they get
    chart 7 and its table, not charts 1-6 (no cpu models, no systemd)."""
    return any(value(r, "arch") != "x86_64" for r in rows)


def jitter_rows(rows):
    """Chart 5 and REPORT's HZ table, one selection: the first blocking
    urandom read's duration (it runs the jitter loop) under TCG, qemu64
    (no RDRAND), a cycle counter present."""
    return [r for r in rows if r["measure"] == "first_urandom_latency" and r["accel"] == "tcg"
            and r["cpu"] == "qemu64" and r["nocounter"] == "off"]
