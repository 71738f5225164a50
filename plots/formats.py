"""The runner's formats as its headers define them, read without the
runner: the matrix's axes and their defaults (bench/matrix/matrix.h's AXES) and
raw.csv's integer columns (bench/rows/row.h's ROW_METRICS) and the limits of a
run's tables (bench/ground/runlimits.h's RUN_LIMITS). Those X-macro
tables are the one definition: the runner is compiled from them, and the
tools that read a results directory read them here, as data, so reading a
committed run's CSV needs no C build. tests/fast/plots_facts.sh checks that
they say what crngbench-run --describe says.

A table this reader does not find whole (the #define, then X(name, ...)
entries on continued lines) stops the tool naming the header, never a
guess."""
import functools
import os
import re

from tool import ROOT, die

# A string literal, and a comment: taken out before the entries are read
# (a doc string or a comment could hold "X(").
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def _macro(header, name):
    """The text of header's '#define name(X)' table, its continued lines
    joined, comments taken out."""
    path = os.path.join(ROOT, header)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        die(f"cannot read {header}: {getattr(e, 'strerror', None) or e} (the runner's formats are read from it)")
    start = next((i for i, line in enumerate(lines) if re.match(rf"#define {name}\(X\)", line)), None)
    if start is None:
        die(f"{header} has no '#define {name}(X)' table (the runner's formats are read from it)")
    body = []
    for line in lines[start:]:
        body.append(line.rstrip("\\").rstrip())
        if not line.endswith("\\"):
            break
    return _COMMENT.sub(" ", "\n".join(body).split(")", 1)[1])


@functools.cache
def axes():
    """[(axis, default)] in the runner's order (bench/matrix/matrix.h's AXES)."""
    text = _macro(os.path.join("bench", "matrix", "matrix.h"), "AXES")
    out = re.findall(r'\bX\(\s*([a-z_0-9]+)\s*,\s*"([^"\\]*)"\s*\)', text)
    if not out or len(out) != len(re.findall(r"\bX\(", _STRING.sub('""', text))):
        die("bench/matrix/matrix.h: AXES is not a list of X(name, \"default\") entries (the runner's axes are read from it)")
    return out


@functools.cache
def axis_names():
    """The axes' names, in the runner's order."""
    return [a for a, _ in axes()]


@functools.cache
def axis_defaults():
    """{axis: its default}."""
    return dict(axes())


@functools.cache
def raw_int_columns():
    """raw.csv's integer measure columns, in column order (bench/rows/row.h's
    ROW_METRICS; bench/rows/row.c writes them between crng_ready_src and
    clocksource)."""
    text = _STRING.sub('""', _macro(os.path.join("bench", "rows", "row.h"), "ROW_METRICS"))
    out = re.findall(r"\bX\(\s*([a-z_0-9]+)\s*,", text)
    if not out or len(out) != len(re.findall(r"\bX\(", text)):
        die("bench/rows/row.h: ROW_METRICS is not a list of X(name, doc) entries (raw.csv's columns are read from it)")
    return out


@functools.cache
def measure_columns():
    """summary.csv's measures, each with the raw.csv column it summarizes
    and the column that marks a boot censored (None: never), read from
    bench/summary/summary.c's measures[] table as text: {"first_urandom_latency":
    ("first_urandom_dur_ns", "first_urandom_censored"), ...} (the tables
    show a sub-millisecond median from those ns, which summary.csv rounds
    to the microsecond)."""
    path = os.path.join(ROOT, "bench", "summary", "summary.c")
    try:
        with open(path, encoding="utf-8") as f:
            text = _COMMENT.sub(" ", f.read())
    except (OSError, UnicodeDecodeError) as e:
        die(f"cannot read bench/summary/summary.c: {getattr(e, 'strerror', None) or e} (the measures are read from it)")
    body = text.split("measures[] = {", 1)[-1].split("};", 1)[0]
    out = {}
    for m in re.finditer(r'\{\s*"(\w+)"([^{}]*)\}', body):
        offs = re.findall(r"OFF\((\w+)\)", m.group(2))
        if offs:
            out[m.group(1)] = (offs[0], offs[1] if len(offs) > 1 else None)
    if not out:
        die("bench/summary/summary.c: no measure with its OFF(column) in measures[] (the measures are read from it)")
    return out


def run_limits():
    """{name: value}: the most a run's tables may hold (bench/ground/runlimits.h's
    RUN_LIMITS: MAX_RUN_BOOTS rows of raw.csv, MAX_RUN_ROWS rows of another
    table, MAX_RUN_BYTES bytes of any), the runner's limits, read here."""
    text = _STRING.sub('""', _macro(os.path.join("bench", "ground", "runlimits.h"), "RUN_LIMITS"))
    out = dict((n, int(v)) for n, v in re.findall(r"\bX\(\s*([A-Z_]+)\s*,\s*([0-9]+)\s*,", text))
    if sorted(out) != ["MAX_RUN_BOOTS", "MAX_RUN_BYTES", "MAX_RUN_ROWS"] or len(re.findall(r"\bX\(", text)) != 3:
        die("bench/ground/runlimits.h: RUN_LIMITS is not the list of X(MAX_RUN_BOOTS|MAX_RUN_ROWS|MAX_RUN_BYTES, number, doc) "
            "entries (the limits of a run's tables are read from it)")
    return out
