"""What the chart, report and mail tests expect, worked out here from a
run's CSV files with the csv module, never with the code under test
(plots/): a wrong number format or a wrong selection there cannot also
change what the tests compare against. Imported by the tests' Python
(run from the repository's top: import tests.lib.expect)."""
import csv
import re


def table(run, name="summary.csv"):
    """Every row of a results file, as the csv module reads it."""
    with open(f"{run}/{name}", newline="") as f:
        return list(csv.DictReader(f))


def shown(ms):
    """A millisecond figure as REPORT.md and the mail print it: whole
    from 100 ms, one decimal from 1 ms, three below (a sub-millisecond
    read stays visible)."""
    x = float(ms)
    return f"{x:.{0 if x >= 100 else 1 if x >= 1 else 3}f}"


# A CRNG ready the kernel logged before its clock started: the probe's 0,
# printed in these words (issue 47), never as 0.000.
CLOCK = "before timekeeping"


def clamped(r, key="median_ms"):
    """A CRNG ready figure of 0 ms (not censored): printed as CLOCK."""
    return (r.get("measure") in ("crng_ready", "crng_ready_kmsg") and r[key] != "" and float(r[key]) == 0
            and not (key == "median_ms" and r["median_censored"] == "1"))


def median(r):
    """A summary row's median as printed: '>' first when it is censored."""
    if clamped(r):
        return CLOCK
    return (">" if r["median_censored"] == "1" else "") + shown(r["median_ms"])


def quick_cell(label):
    """The axis values of a condition label of the quick fixture
    (tests/fixtures/run), where only cpu and the counter knob vary:
    "cpu=qemu64" or "cpu=qemu64, no counter"."""
    cpu, *rest = label.split(", ")
    assert cpu.startswith("cpu=") and rest in ([], ["no counter"]), label
    return {"cpu": cpu[len("cpu="):], "nocounter": "on" if rest else "off"}


def one(rows, **want):
    """The one row whose columns hold want's values."""
    hits = [r for r in rows if all(r[k] == v for k, v in want.items())]
    assert len(hits) == 1, (want, len(hits))
    return hits[0]


# A sub-millisecond cell: its median in us (raw.csv's ns, to 0.1 us), the
# CI's bounds in the same unit.
CELL_US = re.compile(r"([0-9.]+) us \[([0-9.]+), ([0-9.]+)\]; n=([0-9]+)( \(([0-9]+) censored\))?\Z")
US_SLACK_MS = 0.00055  # summary.csv's 1 us rounding and the cell's 0.1 us


def near(us_text, ms_text):
    """A figure in us that is summary.csv's in ms, to their roundings."""
    return abs(float(us_text) / 1000 - float(ms_text)) <= US_SLACK_MS + 1e-12


def agrees(text, r):
    """A median as a table prints it against its summary row: as
    median() does, or under 1 ms (not censored) 'N.N us' that is it."""
    if text == median(r):
        return True
    m = re.fullmatch(r"([0-9.]+) us", text)
    return bool(m) and r["median_censored"] != "1" and float(r["median_ms"]) < 1 and near(m.group(1), r["median_ms"])


CELL = re.compile(r"(>?[0-9.]+) \[([0-9.]+|before timekeeping), ([0-9.]+)\]; n=([0-9]+)( \(([0-9]+) censored\))?\Z")
CELL_CLOCK = re.compile(r"before timekeeping; n=([0-9]+)\Z")


def check(cell, r, censored=True):
    """A table cell against its summary row: 'MEDIAN [LO, HI]; n=N' and,
    in the tables that count them, ' (C censored)'; a cell without a
    median says why ('not measured', 'no data') and its n."""
    m = CELL.match(cell)
    u = CELL_US.match(cell)
    c = CELL_CLOCK.match(cell)
    if c is not None:
        assert clamped(r) and clamped(r, "ci95_hi_ms") and c.group(1) == r["n"], (cell, r)
        return 1
    if u is not None:
        med, lo, hi, n, _, cens = u.groups()
        assert float(r["median_ms"]) < 1 and r["median_censored"] != "1", (cell, r)
        assert near(med, r["median_ms"]) and near(lo, r["ci95_lo_ms"]) and near(hi, r["ci95_hi_ms"]), (cell, r)
        assert n == r["n"] and (not censored or (cens or "0") == r["censored"]), (cell, r)
        return 1
    if m is None:
        assert r["median_ms"] == "" and cell in (f"not measured; n={r['n']}", f"no data; n={r['n']}"), (cell, r)
        return 0
    med, lo, hi, n, _, cens = m.groups()
    want_lo = CLOCK if clamped(r, "ci95_lo_ms") else shown(r["ci95_lo_ms"])
    assert (med, lo, hi, n) == (median(r), want_lo, shown(r["ci95_hi_ms"]), r["n"]), (cell, r)
    if censored:
        assert (cens or "0") == r["censored"], (cell, r["censored"])
    return 1


def grid(sec):
    """A section's table: its header's cells and its body rows' cells."""
    lines = [[c.strip() for c in l.strip()[1:-1].split("|")] for l in sec.splitlines() if l.startswith("|")]
    return (lines[0], lines[2:]) if lines else ([], [])
