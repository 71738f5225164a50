"""The one reader of a results directory. A results directory is untrusted
input (runs are mailed and copied between machines): every file of it is
read here, by the runner's own row rules (bench/rows/row.c), never through a
symbolic link; anything that breaks them is an error naming the file, line
and column (die()), never a traceback; and the files the tools write into
it are opened with open_new(), which refuses a symbolic link."""
import csv
import errno
import functools
import json
import math
import os
import re
import stat
from array import array
from collections.abc import Mapping

from formats import axis_defaults, axis_names, raw_int_columns, run_limits
from tool import die


# A results file holds printable text: the runner writes a newline in a
# value as a space, and no label (chart, table, mail) can carry a control
# character safely.
# C0, DEL, C1, the line and paragraph separators, and the bidirectional
# controls (U+061C, U+200E-F, U+202A-E, U+2066-9): each changes how the
# text after it reads (a line break, or a line shown reversed)
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
# at most 19 digits (and within int64, read_table checks): the runner's
# integers are int64, and a 400-digit one is a hostile file, not a number
INTEGER = re.compile(r"-?[0-9]{1,19}\Z")
COUNT = re.compile(r"[0-9]{1,19}\Z")
DURATION = re.compile(r"[0-9]{1,15}(\.[0-9]{1,9})?\Z")
INT64 = (-2**63, 2**63 - 1)
DECIMAL = re.compile(r"-?([0-9]+(\.[0-9]+)?|nan|inf)\Z")
# What a read returned, as the guest's record has it (guest-image/record.h:
# digest=): 16 lowercase hex digits; and a read's status (only "unavailable").
DIGEST = re.compile(r"[0-9a-f]{16}\Z")
READ_STATUS = re.compile(r"unavailable\Z")


# Per file: the columns every tool reads, and what a value may be: "int"
# (an integer or empty), "int!" (an integer), "dec" (a decimal or empty),
# "digest" (a digest or empty), "read_status" ("unavailable" or empty).
# raw.csv's number columns are the runner's (bench/rows/row.h, read by
# formats.py), hence a function: its other columns are text (boot_id,
# status, reason, release, crng_ready_src, clocksource), the axes and
# urandom_digest (a digest). A column a run is older than (no digest, no
# status) is not checked: it reads as missing, not as an error.
@functools.cache
def _tables():
    return {
        "raw.csv": {
            "need": ("boot_id", "rep", "status", "crng_ready_censored", "first_urandom_censored"),
            "kind": dict({c: "int" for c in raw_int_columns()},
                         run_index="int!", cell="int!", rep="int!", hz="int", urandom_digest="digest"),
        },
        "summary.csv": {
            "need": ("measure", "n", "censored", "median_ms", "median_censored", "ci95_lo_ms", "ci95_hi_ms", "note"),
            "kind": {"hz": "int", "n": "int!", "censored": "int", "failed": "int", "skipped": "int", "median_censored": "int",
                     "outliers": "int", "median_ms": "dec", "mean_ms": "dec", "sd_ms": "dec", "min_ms": "dec",
                     "max_ms": "dec", "p10_ms": "dec", "p90_ms": "dec", "ci95_lo_ms": "dec", "ci95_hi_ms": "dec",
                     "digests_distinct": "int", "digests_n": "int", "boots": "int"},
        },
        "reads.csv": {
            "need": ("boot_id", "iface", "start_ns", "dur_ns", "errno"),
            "kind": {"seq": "int", "start_ns": "int!", "dur_ns": "int!", "bytes": "int", "errno": "int",
                     "timed_out": "int", "digest": "digest", "status": "read_status", "ready_before": "int",
                     "ready_after": "int"},
        },
        # the runner's host time per accelerator (bench/boot/progress.c) and
        # make reproduce's stage times (scripts/reproduce.sh): counts and
        # durations, never negative
        "host_time.csv": {
            "need": ("accel", "boots", "skipped", "host_s"),
            "kind": {"boots": "count", "skipped": "count", "host_s": "dur"},
        },
        "reproduce-time.csv": {
            "need": ("commit", "runs", "stage", "seconds"),
            "kind": {"seconds": "dur"},
        },
        "traces.csv": {
            "need": ("boot_id", "comm", "pid", "func", "start_ns", "dur_ns"),
            "kind": {"pid": "int!", "start_ns": "int!", "dur_ns": "int!"},
        },
    }


KIND_WORDS = {"int": "an integer of at most 19 digits, within int64, or nothing",
              "int!": "an integer of at most 19 digits, within int64",
              "count": "a whole number of at most 19 digits, within int64 (never negative)",
              "dur": "a duration in seconds (digits, optionally '.' and up to 9 decimals; never negative)",
              "dec": "a decimal number or nothing",
              "digest": "a digest (16 lowercase hex digits) or nothing",
              "read_status": "'unavailable' or nothing"}
KIND_RE = {"int": INTEGER, "int!": INTEGER, "count": COUNT, "dur": DURATION, "dec": DECIMAL, "digest": DIGEST,
           "read_status": READ_STATUS}
INT_KINDS = ("int", "int!", "count")
LINK = ("is a symbolic link: refused (a results directory's files are its own; "
        "a link in one could point anywhere on this machine)")


def check_path(path):
    """A path the tools read or write, and name in charts and mail: no
    control character (the runner's own paths have none)."""
    m = CONTROL.search(path)
    if m:
        die(f"the path {path!r} holds a control character (U+{ord(m.group()):04X}): "
            "give a results directory whose path is printable text")
    return path


def open_run_file(path, binary=False, missing_ok=False):
    """A file of a results directory for reading: a regular file, never
    through a symbolic link (O_NOFOLLOW), never a FIFO that would block.
    None when it is missing and missing_ok."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        if e.errno == errno.ENOENT and missing_ok:
            return None
        if e.errno == errno.ELOOP:
            die(f"{path} {LINK}")
        if e.errno == errno.ENOENT:
            die(f"{path} not found (a results directory holds raw.csv, summary.csv, meta.json)")
        die(f"cannot read {path}: {e.strerror}")
    return os.fdopen(_regular(fd, path), "rb" if binary else "r", encoding=None if binary else "utf-8", errors=None)


def _regular(fd, path):
    """fd, if it is a regular file; else closed and refused (a FIFO or a
    device in a run is never read from or written to)."""
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        die(f"{path} is not a regular file: refused")
    return fd


def refuse_link(path):
    """A directory or file the tools write into: never a symbolic link."""
    if os.path.islink(path):
        die(f"{path} {LINK}")
    return path


def open_new(path, binary=False):
    """A file the tools write (charts' data, text charts, the mail): created
    or truncated in place, never through a symbolic link (O_NOFOLLOW), and
    a regular file: a FIFO in its place is refused, not waited on
    (O_NONBLOCK: no reader, ENXIO)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                     0o666)
    except OSError as e:
        if e.errno == errno.ELOOP:
            die(f"{path} {LINK}")
        if e.errno == errno.ENXIO:
            die(f"{path} is not a regular file: refused")
        die(f"cannot write {path}: {e.strerror}")
    os.set_blocking(_regular(fd, path), True)
    return os.fdopen(fd, "wb" if binary else "w")


def _split(path, lineno, text):
    """One line's fields: split at commas where the line has no quote (the
    runner quotes only a value that needs it), else by the csv module."""
    if '"' not in text and "\r" not in text and text:
        return text.split(",")
    try:
        return next(csv.reader([text], strict=True))
    except (csv.Error, StopIteration) as e:
        die(f"{path} line {lineno} is not a CSV row ({e}): fix or move that line")


def _limits(f, path, name):
    """A table within the runner's limits (bench/ground/runlimits.h, read by
    formats.run_limits()): its size, then its rows (lines after the
    header; a torn last line is none), counted before any is read; f left
    at its start."""
    lim = run_limits()
    size = os.fstat(f.fileno()).st_size
    if size > lim["MAX_RUN_BYTES"]:
        die(f"{path}: {size} bytes, over the limit of {lim['MAX_RUN_BYTES']} bytes (256 MiB) a table of a run "
            "may hold (MAX_RUN_BYTES in bench/ground/runlimits.h); nothing was read: split the run into smaller ones")
    lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    f.seek(0)
    key, what = (("MAX_RUN_BOOTS", "a run may hold") if name == "raw.csv" else
                 ("MAX_RUN_ROWS", "a table of a run may hold"))
    if lines - 1 > lim[key]:
        die(f"{path}: {lines - 1} rows, over the limit of {lim[key]} rows {what} ({key} in bench/ground/runlimits.h); "
            "nothing was read: split the run into smaller ones")


# An integer column's empty value, as it is held (-2**63 itself, or an
# integer written other than as str(int) would, holds the column as text)
_EMPTY = INT64[0]
# distinct values of a text column held once each, up to this many (an id
# column, distinct in every row, is not worth a dictionary)
_SHARED = 4096


class _Const:
    """A column a run is older than (an axis): its default in every row."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __getitem__(self, i):
        return self.value


class _Table:
    """A results file's values by column: each integer column as int64
    (array 'q'), each text column a list whose repeated values are one
    string; a key the tools set on its rows (r["_cond"] = ...) is a column
    too (extra), _UNSET where a row has none. A row of it is a Row. Held
    so, a large raw.csv takes under twice the file's size in memory (a
    50 MB one: 82 MiB), where a dict per row took 11 times it."""
    __slots__ = ("names", "text", "ints", "extra", "n")

    def __init__(self):
        self.names, self.text, self.ints, self.extra, self.n = [], {}, {}, {}, 0


_UNSET = object()


class Row(Mapping):
    """One row of a results file, read as a dict is (r["col"], r.get(),
    "col" in r, dict(r)); a key set on it (r["_cond"] = ...) is the row's
    own, beside the file's columns (and before them)."""
    __slots__ = ("_t", "_i")

    def __init__(self, table, i):
        self._t, self._i = table, i

    def _own(self, k):
        x = self._t.extra.get(k)
        return _UNSET if x is None else x[self._i]

    def __getitem__(self, k):
        t = self._t
        if t.extra:
            v = self._own(k)
            if v is not _UNSET:
                return v
        s = t.text.get(k)
        if s is not None:
            return s[self._i]
        v = t.ints[k][self._i]
        return "" if v == _EMPTY else str(v)

    def get(self, k, default=None):
        try:
            return self[k]
        except KeyError:
            return default

    def __setitem__(self, k, v):
        x = self._t.extra.get(k)
        if x is None:
            x = self._t.extra[k] = [_UNSET] * self._t.n
        x[self._i] = v

    def __contains__(self, k):
        return k in self._t.text or k in self._t.ints or self._own(k) is not _UNSET

    def __iter__(self):
        t = self._t
        yield from t.names
        yield from (k for k in t.extra if k not in t.text and k not in t.ints and self._own(k) is not _UNSET)

    def __len__(self):
        return sum(1 for _ in self)

    def __repr__(self):
        return repr(dict(self))


def read_table(run, name, missing_ok=False):
    """A results file's rows (Row: read as dicts are), by the runner's
    rules (bench/rows/row.c row_read_file): the first line is the header; every
    later line is one row with the header's number of fields; a last line
    without its newline is an interrupted write, not a row; a number column
    holds a number, a digest column a digest (or nothing); text is
    printable; the file within the runner's limits (bench/ground/runlimits.h). An
    axis without a column (a run older than the axis) reads as the axis's
    default, as in the runner; another column a run is older than (a
    digest) is absent from its rows: r.get(). Anything else is an error
    naming the file, the line and the column."""
    path = os.path.join(check_path(run), name)
    spec = _tables().get(name, {"need": (), "kind": {}})
    f = open_run_file(path, binary=True, missing_ok=missing_ok)
    if f is None:
        return []
    with f:
        _limits(f, path, name)
        t, n = _read_columns(f, path, name, spec)
    t.n = n
    return [Row(t, i) for i in range(n)]


def _columns(t, header, spec, defaults):
    """Per column of the header: [name, kind, store, shared values, held
    as int64, default]; an axis the header lacks, its default (_Const). A
    name the header repeats is its last copy's, as the runner reads it
    (row_parse_why): an earlier copy is checked, not stored (store None)."""
    cols = []
    last = {col: j for j, col in enumerate(header)}
    for j, col in enumerate(header):
        kind = spec["kind"].get(col)
        if last[col] != j:
            cols.append([col, kind, None, None, False, defaults.get(col)])
            continue
        if kind in INT_KINDS:
            t.ints[col] = store = array("q")
        else:
            t.text[col] = store = []
        cols.append([col, kind, store, {}, kind in INT_KINDS, defaults.get(col)])
    t.names = list(dict.fromkeys(header))
    for a, v in defaults.items():
        if a not in t.text and a not in t.ints:
            t.text[a] = _Const(v)
            t.names.append(a)
    return cols


def _as_text(t, c):
    """Column c, held as int64 until a value that str(int) would not give
    back (a leading zero, -0), held as text from now on."""
    t.text[c[0]] = c[2] = ["" if x == _EMPTY else str(x) for x in c[2]]
    del t.ints[c[0]]
    c[4] = False


def _read_columns(f, path, name, spec):
    """f's rows into a _Table, each value checked as read_table says, and
    the number of rows."""
    t = _Table()
    header, cols, n = None, None, 0
    defaults = axis_defaults() if name in ("raw.csv", "summary.csv") else {}
    need_id = "boot_id" in spec["need"]
    for lineno, raw in enumerate(f, 1):
        if not raw.endswith(b"\n"):
            break  # an interrupted write: not a row
        try:
            text = raw[:-1].decode("utf-8")
        except UnicodeDecodeError:
            die(f"{path} line {lineno} is not UTF-8 text: fix or move that line")
        fields = _split(path, lineno, text)
        if CONTROL.search(text):
            for col, v in zip(header or fields, fields):
                m = CONTROL.search(v)
                if m:
                    die(f"{path} line {lineno}, column {col}: {v!r} holds a control character "
                        f"(U+{ord(m.group()):04X}); a results file holds printable text only")
        if header is None:
            missing = [c for c in spec["need"] if c not in fields]
            if missing:
                die(f"{path} has no column {', '.join(repr(c) for c in missing)} "
                    f"(its header: {', '.join(fields)}): not a file the runner wrote")
            header, cols = fields, _columns(t, fields, spec, defaults)
            id_col = header.index("boot_id") if need_id else None
            continue
        if len(fields) != len(header):
            die(f"{path} line {lineno} has {len(fields)} fields where its header has {len(header)}: "
                "not a row (the runner refuses it too; fix or move that line)")
        for c, v in zip(cols, fields):
            kind = c[1]
            if kind is not None and (v != "" or kind in ("int!", "count", "dur")):
                if not KIND_RE[kind].match(v) or (kind in INT_KINDS and not INT64[0] <= int(v) <= INT64[1]):
                    die(f"{path} line {lineno}, column {c[0]}: {v[:40]!r}{'...' if len(v) > 40 else ''} "
                        f"is not {KIND_WORDS[kind]}")
            if c[2] is None:
                continue  # an earlier copy of a repeated name
            if v == "" and c[5] is not None:
                v = c[5]
            if c[4]:
                if v == "":
                    c[2].append(_EMPTY)
                    continue
                iv = int(v)
                if iv != _EMPTY and str(iv) == v:
                    c[2].append(iv)
                    continue
                _as_text(t, c)
            memo = c[3]
            if memo is not None:
                v = memo.setdefault(v, v)
                if len(memo) > _SHARED:
                    c[3] = None
            c[2].append(v)
        if need_id and not fields[id_col]:
            die(f"{path} line {lineno}: an empty boot_id (the runner refuses such a row)")
        n += 1
    if header is None:
        die(f"{path} is empty: no header line (the runner writes one before the first row)")
    return t, n


def summary_rows(run):
    """A run's summary.csv, every row, in the runner's (matrix) order,
    each row consistent with itself: a table never publishes a median
    outside its own [min, max] or CI, a CI upside down, more censored
    boots than n, or more distinct digests than digests compared (a
    hand-edited summary once printed a median of 0.001 inside a CI of
    [1036, 1142] and "7 of 5 distinct"). Checked here, where every table,
    chart and the mail read it; refused naming the file, line and rule."""
    path = os.path.join(check_path(run), "summary.csv")
    rows = read_table(run, "summary.csv")
    for lineno, r in enumerate(rows, 2):
        def num(col):
            v = r.get(col, "")
            return float(v) if v not in ("", None) and math.isfinite(float(v)) else None

        def refuse(why):
            die(f"{path} line {lineno} ({r.get('variant', '?')}, {r.get('measure', '?')}): {why}: "
                "not what the runner writes (crngbench-run --summarize RUN rewrites it from raw.csv)")
        med, lo, hi = num("median_ms"), num("min_ms"), num("max_ms")
        clo, chi = num("ci95_lo_ms"), num("ci95_hi_ms")
        if lo is not None and hi is not None and lo > hi:
            refuse(f"min {lo:g} ms above max {hi:g} ms")
        if r.get("median_censored") in ("", "0") and med is not None:
            if lo is not None and hi is not None and not lo <= med <= hi:
                refuse(f"median {med:g} ms outside its [min, max] of [{lo:g}, {hi:g}] ms")
            if clo is not None and chi is not None and not clo <= med <= chi:
                refuse(f"median {med:g} ms outside its 95% CI [{clo:g}, {chi:g}] ms")
        if clo is not None and chi is not None and clo > chi:
            refuse(f"95% CI [{clo:g}, {chi:g}] ms upside down")
        if r.get("stop") not in STOPS:
            refuse(f"stop {r.get('stop')!r} is not one of {', '.join(repr(s) for s in STOPS if s)} or empty")
        n = int(r["n"])
        for col in ("censored",):
            if r.get(col) not in ("", None) and not 0 <= int(r[col]) <= n:
                refuse(f"{col} {r[col]} is not between 0 and n={n}")
        if r.get("digests_n") not in ("", None):
            k, dn = int(r.get("digests_distinct") or -1), int(r["digests_n"])
            if dn <= 0:
                refuse(f"digests_n {dn}: digests are counted over at least one boot (or the cell is empty)")
            if not 1 <= k <= dn:
                refuse(f"digests_distinct {r.get('digests_distinct')!r} is not between 1 and digests_n={dn}")
    return rows


# summary.csv's stop column (bench/summary/stop.h): why a cell took the boots it
# did; empty for a cell not finished (and None for a run older than it)
STOPS = (None, "", "identical", "precise", "limit")


# meta.json's objects nest at most this deep (the runner writes 3; a
# margin for the fields a later runner adds)
META_DEPTH = 8


def read_meta(run):
    """A run's meta.json ({} when there is none), checked: an object, its
    text printable, "kernels" an object of objects."""
    path = os.path.join(check_path(run), "meta.json")
    f = open_run_file(path, missing_ok=True)
    if f is None:
        return {}
    try:
        with f:
            meta = json.load(f)
    except (ValueError, UnicodeDecodeError) as e:
        die(f"{path} is not JSON ({e}): the runner writes it whole; fix or remove it")
    except RecursionError:
        die(f"{path} is nested deeper than Python's JSON reader goes: the runner writes depth "
            f"{META_DEPTH - 1} at most; refused")

    def walk(v, where, depth=1):
        if isinstance(v, str) and CONTROL.search(v):
            die(f"{path}: {where} holds a control character: {v!r}; meta.json holds printable text only")
        if isinstance(v, (dict, list)) and depth > META_DEPTH:
            die(f"{path}: {where} is nested {depth} deep; the runner writes meta.json at most "
                f"{META_DEPTH - 1} deep: refused")
        for k, x in v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ():
            walk(x, f"{where}.{k}", depth + 1)
    if not isinstance(meta, dict):
        die(f"{path} is not a JSON object")
    walk(meta, "meta")
    if not isinstance(meta.get("kernels", {}), dict) or \
            not all(isinstance(k, dict) for k in meta.get("kernels", {}).values()):
        die(f"{path}: \"kernels\" is not an object of objects (one per kernel variant)")
    return meta


def run_setting(run, key):
    """A setting of a run's run.matrix (the matrix as the runner resolved
    and wrote it: "key = value" lines, '#' starts a comment; the runner's
    reader is bench/matrix/matrixfile.c), or None when it has no such line. Read
    as every file of a run is: a regular file, no link, printable text, a
    key set once."""
    path = os.path.join(check_path(run), "run.matrix")
    f = open_run_file(path)
    with f:
        try:
            lines = f.read().splitlines()
        except UnicodeDecodeError:
            die(f"{path} is not UTF-8 text (the runner writes it): fix or remove it")
    found = None
    for lineno, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if CONTROL.search(text):
            die(f"{path} line {lineno} holds a control character: a run.matrix holds printable text only")
        k, eq, v = text.partition("=")
        if not text or k.strip() != key:
            continue
        if not eq or found is not None:
            die(f"{path} line {lineno}: {'a second' if eq else 'no value for the'} '{key}' line "
                "(the runner writes one 'key = value' line per setting)")
        found = v.strip()
    return found
