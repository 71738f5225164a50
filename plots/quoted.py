#!/usr/bin/env python3
"""The figures REPORT.md's prose quotes, each with where it comes from.

    plots/quoted.py RUNS_DIR [TABLE]   (the table, Markdown, on stdout;
                                        TABLE: plots/quoted unless given)

plots/quoted is a fact table (plots/runlib.py's fact_rows: '#' comments,
the first other line names the columns, '-' is empty), one row per figure
that the prose quotes and no other generated table of REPORT.md holds:

  name    the figure's name, [a-z0-9-]; a computed row refers to it as
          {name}, to a range's two ends as {name.min} and {name.max}
  kind    measured: a statistic of a committed run's file, computed here;
          computed: a formula (value) of numbers and earlier rows' {name}s;
          cited: a number from elsewhere (value), with its source
  run     measured: a committed run of RUNS_DIR, the studies folder
          (quick: studies/quick/run; parallel/jobs1; '.' for a file of
          RUNS_DIR itself); no step of it a symbolic link
  file    measured: a CSV of that run (raw.csv, summary.csv, reads.csv,
          host_time.csv, or another with a header line)
  rows    measured: which rows, col=value[|value...] joined by ','
          (col!=value excludes); every condition must hold; '-': all.
          The selection must be exact: every selected row has the column
          (a-b: both), and in a file with a status column every selected
          row's status is ok unless rows names status itself
          (status=censored|ok: the censored boots are meant)
  column  measured: the column, or a-b (a row's a minus its b, columns
          of one unit); its unit is its name's suffix (_ns, _us, _ms, _s;
          none: a plain number)
  stat    measured: one (exactly one row selected: a single cell), min,
          max, range (min-max, one value when equal), spread (max minus
          min), median, mean, sum, count (rows selected)
  unit    the value's unit: ns, us, ms, s, hms (1 h 2 min 3 s), or '-'
          (a plain number; a time column converted to nothing is refused)
  digits  decimals shown
  value   computed: the formula, at most 300 characters (+ - * / ** and
          parentheses, numbers, {name}, {name.min} and {name.max} of a
          range; each {...} one value, as if parenthesised); cited: the
          number; measured: '-'
  source  cited: where the number comes from (a file:symbol of the kernel
          or QEMU, a message id, a datasheet); computed and measured: '-'

Every value of a measured row is recomputed from the committed data each
time, so a changed number in studies/ changes this table (and the
report's byte-for-byte test fails until the prose is regenerated and read
again); its "from" column says how many rows it used (n=). Anything the
table cannot do (a run, file or column that does not exist, a selection
of no rows, of rows without the column or of boots that are not ok
unasked, a formula that is not arithmetic or whose value, or any step of
it, is not a finite real number) stops it with an error naming the row of
plots/quoted and what is accepted.
"""
import ast
import math
import operator
import os
import re
import statistics
import sys

from markup import code, md, row
from runlib import LINK, check_path, die, fact_rows, read_table, study_run

TABLE = "plots/quoted"
COLUMNS = ["name", "kind", "run", "file", "rows", "column", "stat", "unit", "digits", "value", "source"]
KINDS = ("measured", "computed", "cited")
STATS = ("one", "min", "max", "range", "spread", "median", "mean", "sum", "count")
SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "hms": 1.0}
NAME = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
RUN = re.compile(r"(\.|[a-z0-9][a-z0-9_-]*(/[a-z0-9][a-z0-9_-]*)?)\Z")
FILE = re.compile(r"[a-z0-9_-]+\.csv\Z")
CONDITION = re.compile(r"([a-z0-9_]+)(!?=)(.*)\Z")
FORMULA_MAX = 300
OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
       ast.Pow: operator.pow}


_table = [TABLE]  # the fact table being read, for messages


def _where(line, what):
    die(f"{_table[0]} line {line}: {what}")


def column_scale(column):
    """A column's unit as seconds per unit (its name's suffix), None for a
    plain number."""
    for suffix in ("ns", "us", "ms", "s"):
        if column.endswith("_" + suffix):
            return SCALE[suffix]
    return None


def select(rows, spec, line):
    """The rows that meet every condition of spec (col=v|w,col!=v), and
    the columns the conditions name."""
    if not spec:
        return rows, set()
    conds = []
    for part in spec.split(","):
        m = CONDITION.match(part)
        if not m:
            _where(line, f"rows condition '{part}' is not col=value or col!=value (alternatives joined by '|')")
        conds.append((m.group(1), m.group(2) == "=", set(m.group(3).split("|"))))
    out = []
    for r in rows:
        for col, eq, vals in conds:
            if col not in r:
                _where(line, f"rows condition on '{col}': no such column (the file has {', '.join(r)})")
            if (r[col] in vals) != eq:
                break
        else:
            out.append(r)
    return out, {c for c, _, _ in conds}


# A number as the runner and the CSV files write it: ASCII digits, an
# optional sign, '.' and decimals, an exponent (float() alone also takes
# '1_0', ' 5' and other scripts' digits).
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]{1,3})?\Z")
# Above 2**53 a float no longer holds every integer: such a figure would
# print with digits that are not the data's.
EXACT = 2.0 ** 53


def exact(v, what, line):
    if abs(v) > EXACT:
        _where(line, f"{what} is {v:.17g}, beyond 2**53: a float loses its digits there; refused")
    return v


def number(text, what, line):
    if not NUMBER.match(text):
        _where(line, f"{what} '{text[:40]}' is not a number (ASCII digits, optional '-', '.' and decimals)")
    v = float(text)
    if "." not in text and "e" not in text.lower() and abs(int(text)) > EXACT:
        _where(line, f"{what} '{text[:40]}' is beyond 2**53: a float loses its digits there; refused")
    if not math.isfinite(v):
        _where(line, f"{what} '{text[:40]}' is not a finite number")
    return exact(v, f"{what} '{text[:40]}'", line)


def fmt(v, unit, digits):
    """v (already in unit) with digits decimals; hms as '1 h 2 min 3 s'
    (of the absolute value, with its sign: -5 s, never '-1 h 59 min 55 s');
    a value that rounds to zero is 0, never -0."""
    if unit == "hms":
        s = int(round(abs(v)))
        h, m, sec = s // 3600, s // 60 % 60, s % 60
        text = " ".join(p for p in (f"{h} h" if h else "", f"{m} min" if h or m else "", f"{sec} s") if p)
        return ("-" if v < 0 and s else "") + text
    text = f"{v:.{digits}f}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text + (f" {unit}" if unit else "")


def run_dir(runs_dir, run, line):
    """The run's directory (tool.study_run): inside RUNS_DIR (studies/),
    no step of it below RUNS_DIR a symbolic link."""
    path = check_path(os.path.normpath(study_run(runs_dir, run)))
    # each step below RUNS_DIR (the study, its run/, a run of several)
    step = runs_dir
    for part in os.path.relpath(path, runs_dir).split(os.sep) if run != "." else []:
        step = os.path.join(step, part)
        if os.path.islink(step):
            _where(line, f"run '{run}': {step} {LINK}")
    return path


def measured(r, runs_dir, line):
    """(values in the row's unit, rows used, how they were selected)."""
    for col in ("run", "file", "column", "stat"):
        if not r[col]:
            _where(line, f"a measured figure needs {col} (see the header of {TABLE})")
    if not RUN.match(r["run"]):
        _where(line, f"run '{r['run']}' is not a run directory's name (quick, parallel/jobs1, or '.')")
    if not FILE.match(r["file"]):
        _where(line, f"file '{r['file']}' is not a CSV file's name ([a-z0-9_-]+.csv)")
    if r["stat"] not in STATS:
        _where(line, f"stat '{r['stat']}' is none of {', '.join(STATS)}")
    run = run_dir(runs_dir, r["run"], line)
    if not os.path.isfile(os.path.join(run, r["file"])):
        _where(line, f"{os.path.join(run, r['file'])} not found (a committed run's CSV file)")
    rows = read_table(run, r["file"])
    picked, named = select(rows, r["rows"], line)
    where = f"{r['run']}/{r['file']} where {r['rows'] or 'any row'}"
    cols = r["column"].split("-")
    if len(cols) > 2 or (len(cols) == 2 and column_scale(cols[0]) != column_scale(cols[1])):
        _where(line, f"column '{r['column']}' is not a column or a-b of two columns of one unit")
    for col in cols:
        if rows and col not in rows[0]:
            _where(line, f"column '{col}' not in {r['run']}/{r['file']} (it has {', '.join(rows[0])})")
    if not picked:
        _where(line, f"no row of {where}: nothing to quote")
    n = len(picked)
    if "status" in picked[0] and "status" not in named:
        other = sorted({x["status"] for x in picked} - {"ok"})
        if other:
            k = sum(1 for x in picked if x["status"] != "ok")
            _where(line, f"{k} of {n} selected rows of {where} have status {'|'.join(other)}, not ok: "
                   f"narrow the rows, or say which statuses are meant (status=ok, status={'|'.join(other)}|ok)")
    empty = sum(1 for x in picked if any(x[c] == "" for c in cols))
    if empty:
        _where(line, f"{empty} of {n} selected rows of {where} have no {r['column']}: narrow the rows")
    if r["stat"] == "one" and n != 1:
        _where(line, f"stat one: {n} rows of {where}, not exactly one: narrow the rows (or take a statistic)")
    vals = []
    for x in picked:
        v = [number(x[c], c, line) for c in cols]
        vals.append(v[0] - v[1] if len(v) == 2 else v[0])
    if r["stat"] == "count":
        return [float(n)], n, True
    scale = column_scale(cols[0])
    if (scale is None) != (r["unit"] == ""):
        _where(line, f"unit '{r['unit'] or '-'}' for column {r['column']}: a time column (_ns, _us, _ms, _s) "
               "takes a time unit (ns, us, ms, s, hms), a plain column '-'")
    if scale is not None:
        vals = [v * scale / SCALE[r["unit"]] for v in vals]
    fn = {"one": lambda xs: xs[0], "min": min, "max": max, "median": statistics.median,
          "mean": statistics.fmean, "sum": math.fsum, "spread": lambda xs: max(xs) - min(xs)}
    try:
        out = [min(vals), max(vals)] if r["stat"] == "range" else [fn[r["stat"]](vals)]
    except OverflowError:
        out = [math.inf]
    if not all(math.isfinite(v) for v in out):
        _where(line, f"{r['stat']} of {r['column']} in {where} is not a finite number")
    for v in out:
        exact(v, f"{r['stat']} of {r['column']} in {where}", line)
    return out, n, False


REF = re.compile(r"\{([a-z0-9-]+)(?:\.(min|max))?\}")
ARITHMETIC = "numbers, + - * / **, parentheses, {name}, {range.min}, {range.max}"


def evaluate(formula, known, line):
    """formula's value: numbers, + - * / ** and parentheses, {name} of an
    earlier row ({name.min}, {name.max} of a range). Each {...} is one
    value (a name in the parsed formula, never its text), every step's
    result a finite real number. Anything else is refused, never run."""
    if len(formula) > FORMULA_MAX:
        _where(line, f"formula of {len(formula)} characters: at most {FORMULA_MAX}")
    prefix = "_q"
    while prefix in formula:
        prefix += "q"
    values = {}

    def ref(m):
        name, end = m.group(1), m.group(2)
        if name not in known:
            _where(line, f"formula refers to {{{name}}}, not a figure of an earlier row")
        v = known[name]
        if isinstance(v, tuple) and not end:
            _where(line, f"formula refers to {{{name}}}, a range ({v[0]:g}-{v[1]:g}): "
                   f"say {{{name}.min}} or {{{name}.max}}")
        if not isinstance(v, tuple) and end:
            _where(line, f"formula refers to {{{name}.{end}}}, but {name} is one value, not a range: say {{{name}}}")
        key = f"{prefix}{len(values)}"
        values[key] = v[0 if end == "min" else 1] if end else v
        return key
    text = REF.sub(ref, formula)

    def finite(v):
        if type(v) is not float or not math.isfinite(v):
            _where(line, f"formula '{formula}': a step's value is {v!r}, not a finite real number")
        return v

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Name) and node.id in values:
            return values[node.id]
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            if abs(node.value) > EXACT:
                _where(line, f"formula '{formula}': {node.value} is beyond 2**53, where a float loses digits")
            return finite(float(node.value))
        if isinstance(node, ast.BinOp) and type(node.op) in OPS:
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Div) and right == 0:
                _where(line, f"formula '{formula}' divides by zero")
            if isinstance(node.op, ast.Pow) and abs(right) > 64:
                _where(line, f"formula '{formula}': exponent over 64")
            v = finite(OPS[type(node.op)](left, right))
            if abs(v) > EXACT:
                _where(line, f"formula '{formula}': a step's value {v:.17g} is beyond 2**53, where a float "
                       "loses digits")
            return v
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        _where(line, f"formula '{formula}' is not arithmetic ({ARITHMETIC})")
    try:
        return ev(ast.parse(text, mode="eval"))
    except SyntaxError:
        _where(line, f"formula '{formula}' is not arithmetic ({ARITHMETIC})")
    except (OverflowError, ZeroDivisionError, RecursionError, MemoryError) as e:
        _where(line, f"formula '{formula}': {type(e).__name__} ({e}): not a finite real number")


def figures(runs_dir, table=TABLE):
    """[(name, value text, from text)] of a quoted table (plots/quoted),
    in its order."""
    out, known, seen = [], {}, set()
    _table[0] = table
    rows = fact_rows(table)
    if rows and list(rows[0][1]) != COLUMNS:
        die(f"{table}: the columns must be {' '.join(COLUMNS)}")
    for line, r in rows:
        if not NAME.match(r["name"]) or r["name"] in seen:
            _where(line, f"name '{r['name']}' is not a new name of [a-z0-9-]")
        seen.add(r["name"])
        if r["kind"] not in KINDS:
            _where(line, f"kind '{r['kind']}' is none of {', '.join(KINDS)}")
        if r["unit"] not in ("", *SCALE):
            _where(line, f"unit '{r['unit']}' is none of ns, us, ms, s, hms, '-'")
        if not re.fullmatch(r"[0-6]", r["digits"]):
            _where(line, f"digits '{r['digits']}' is not 0-6")
        digits = int(r["digits"])
        if r["kind"] == "measured":
            if r["value"] or r["source"]:
                _where(line, "a measured figure has no value or source (it is computed from its run)")
            vals, n, is_count = measured(r, runs_dir, line)
            unit = "" if is_count else r["unit"]
            texts = [fmt(v, "", 0 if is_count else digits) for v in vals]
            if len(texts) == 2 and texts[0] == texts[1]:
                texts = texts[:1]
            value = "-".join(texts) + (f" {unit}" if unit and unit != "hms" else "")
            if unit == "hms":
                value = "-".join(fmt(v, "hms", 0) for v in vals)
            where = f" where {r['rows']}" if r["rows"] else ""
            src = f"{r['stat']} of {r['column']} in {r['run']}/{r['file']}{where} (n={n})"
            known[r["name"]] = tuple(vals) if r["stat"] == "range" else vals[0]
        else:
            for col in ("run", "file", "rows", "column", "stat"):
                if r[col]:
                    _where(line, f"a {r['kind']} figure has no {col} (only a measured one reads a run)")
            if not r["value"]:
                _where(line, f"a {r['kind']} figure needs its value ({'a formula' if r['kind'] == 'computed' else 'the number'})")
            if r["kind"] == "computed":
                if r["source"]:
                    _where(line, "a computed figure's source is its formula (value); source is '-'")
                v = evaluate(r["value"], known, line)
                src = "computed: " + r["value"]
            else:
                if not r["source"]:
                    _where(line, "a cited figure needs its source")
                v = number(r["value"], "value", line)
                src = "cited: " + r["source"]
            known[r["name"]] = v
            value = fmt(v, r["unit"], digits)
        out.append((r["name"], value, src))
    return out


def table(runs_dir, path=TABLE):
    """The Markdown of REPORT.md's block tables:quoted."""
    out = ["Every figure the prose quotes that no table above holds, from `plots/quoted` (`plots/quoted.py`): "
           "a measured one is recomputed from the committed run each time; a computed one from the formula "
           "shown (names are figures above it); a cited one is given with its source.\n",
           row("figure", "value", "from"), "|---|---|---|"]
    for name, value, src in figures(runs_dir, path):
        out.append(row(code(name), md(value), md(src)))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: plots/quoted.py RUNS_DIR [TABLE] (studies, plots/quoted)")
    print(table(sys.argv[1], os.path.abspath(sys.argv[2]) if len(sys.argv) == 3 else TABLE), end="")
