"""What plots/prepare.py and plots/report_tables.py share about a run, so
a chart and the table beside it always say the same thing: the variant
order (kernel/variants, through scripts/variants.sh), their colours, how a
cell's condition is named, and the runner's own description of its axes
and measures (crngbench-run --describe). Nothing here computes a statistic:
those are the runner's, in summary.csv.

A results directory is untrusted input (runs are mailed and copied between
machines): every file of it is read here, by the runner's own row rules
(bench/row.c), never through a symbolic link; anything that breaks them is
an error naming the file, line and column (die()), never a traceback; and
the files the tools write into it are opened with open_new(), which refuses
a symbolic link."""
import csv
import errno
import functools
import json
import math
import os
import re
import stat
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
RUNNER = os.environ.get("CRNGBENCH_RUNNER", os.path.join(ROOT, "build", "crngbench-run"))
PALETTE = ["#1b9e77", "#7570b3", "#d95f02", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"]


def die(msg):
    """The one way a tool stops on bad input: its name, the message, exit 1."""
    sys.exit(f"{os.path.basename(sys.argv[0]) or 'runlib'}: error: {msg}")


def run_main(main):
    """main(), with a write that fails (disk full, a read-only directory)
    said in one line naming the file, never a traceback; the caller's
    partly written files are its own to remove (render.sh removes a chart
    that did not draw whole)."""
    try:
        main()
    except OSError as e:
        die(f"cannot write or read {e.filename or 'a file'}: {e.strerror or e}")


def _output(cmd):
    """A helper program's stdout; a clean error when it cannot run or fails."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        die(f"cannot run {cmd[0]}: {e.strerror}")
    if p.returncode != 0:
        why = (p.stderr.strip().splitlines() or ["no message"])[-1]
        die(f"{' '.join(cmd)} failed (exit status {p.returncode}): {why}")
    return p.stdout


# Nothing runs when this module is imported: the variant list and the
# runner's description are asked for on first use, once per process.

@functools.cache
def all_variants():
    """Every variant kernel/variants defines, in its order."""
    return _output([os.path.join(ROOT, "scripts", "variants.sh"), "--lines"]).split()


def variants():
    """The variants in order (kernel/variants): every chart's slots and
    colours (a table's columns are run_variants())."""
    return all_variants()


def run_variants(rows):
    """The variants rows hold, in kernel/variants' order (one it does not
    define last): a run's tables and charts show those, never a column or
    slot for a variant it did not boot (stock-fix in a run of stock)."""
    have = {r.get("variant") for r in rows} - {None, ""}
    known = all_variants()
    return [v for v in known if v in have] + sorted(have - set(known))


@functools.cache
def colours():
    """One colour per variant, in variants() order."""
    return [PALETTE[i % len(PALETTE)] for i in range(len(variants()))]


@functools.cache
def describe():
    """The runner's axes, measures and columns (crngbench-run --describe)."""
    if not os.access(RUNNER, os.X_OK):
        die(f"{RUNNER} not found: build it with 'make runner'")
    try:
        d = json.loads(_output([RUNNER, "--describe"]))
        if not all(isinstance(a.get("name"), str) and "default" in a for a in d["axes"]) or \
                not isinstance(d["raw_columns"], list):
            raise ValueError
    except (ValueError, KeyError, TypeError, AttributeError):
        die(f"{RUNNER} --describe did not print the runner's description (an older or foreign build? "
            "make runner)")
    return d


@functools.cache
def _axes():
    return [a["name"] for a in describe()["axes"]]


@functools.cache
def _defaults():
    return {a["name"]: a["default"] for a in describe()["axes"]}


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
}
SHOWN_APART = ("variant", "accel")  # a chart's series and panels, not its labels


def varying(rows):
    """The axes whose value differs between rows (cells) of a run."""
    return [a for a in _axes() if a not in SHOWN_APART and len({value(r, a) for r in rows}) > 1]


def value(r, axis):
    """A row's value of axis; an axis newer than the run reads as its default."""
    return r.get(axis) or _defaults()[axis]


def condition(r, axes):
    """A cell's entropy condition in the words of the thread: its value of
    every axis in axes (the ones that vary in the run), cpu always."""
    names = ["cpu"] + [a for a in axes if a != "cpu"]
    parts = [WORDS.get(a, lambda v, a=a: f"{a}={v}")(value(r, a)) for a in names]
    return ", ".join(p for p in parts if p)


# --- reading a results directory ---------------------------------------------

# A results file holds printable text: the runner writes a newline in a
# value as a space, and no label (chart, table, mail) can carry a control
# character safely.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
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
# raw.csv's text columns; every other column the runner describes is a
# number (urandom_digest a digest). A column a run is older than (no digest,
# no status) is not checked: it reads as missing, not as an error.
RAW_TEXT = {"boot_id", "status", "reason", "release", "crng_ready_src", "clocksource", "urandom_digest"}


# Per file: the columns every tool reads, and what a value may be: "int"
# (an integer or empty), "int!" (an integer), "dec" (a decimal or empty),
# "digest" (a digest or empty), "read_status" ("unavailable" or empty).
# raw.csv's number columns are the runner's (describe()), hence a function.
@functools.cache
def _tables():
    return {
        "raw.csv": {
            "need": ("boot_id", "rep", "status", "crng_ready_censored", "first_urandom_censored"),
            "kind": dict({c: "int" for c in describe()["raw_columns"] if c not in RAW_TEXT and c not in _axes()},
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
        # the runner's host time per accelerator (bench/progress.c) and
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
    try:
        return next(csv.reader([text], strict=True))
    except (csv.Error, StopIteration) as e:
        die(f"{path} line {lineno} is not a CSV row ({e}): fix or move that line")


def read_table(run, name, missing_ok=False):
    """A results file's rows as dicts, by the runner's rules (bench/row.c
    row_read_file): the first line is the header; every later line is one
    row with the header's number of fields; a last line without its newline
    is an interrupted write, not a row; a number column holds a number, a
    digest column a digest (or nothing); text is printable. An axis without
    a column (a run older than the axis) reads as the axis's default, as in
    the runner; another column a run is older than (a digest) is absent
    from its rows: r.get(). Anything else is an error naming the file, the
    line and the column."""
    path = os.path.join(check_path(run), name)
    spec = _tables().get(name, {"need": (), "kind": {}})
    f = open_run_file(path, binary=True, missing_ok=missing_ok)
    if f is None:
        return []
    with f:
        lines = f.read().split(b"\n")[:-1]  # the last piece: empty, or an interrupted write
    if not lines:
        die(f"{path} is empty: no header line (the runner writes one before the first row)")
    header, rows = None, []
    for lineno, raw in enumerate(lines, 1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            die(f"{path} line {lineno} is not UTF-8 text: fix or move that line")
        fields = _split(path, lineno, text)
        cols = header or fields
        for col, v in zip(cols, fields):
            m = CONTROL.search(v)
            if m:
                die(f"{path} line {lineno}, column {col}: {v!r} holds a control character "
                    f"(U+{ord(m.group()):04X}); a results file holds printable text only")
        if header is None:
            header = fields
            missing = [c for c in spec["need"] if c not in header]
            if missing:
                die(f"{path} has no column {', '.join(repr(c) for c in missing)} "
                    f"(its header: {', '.join(header)}): not a file the runner wrote")
            continue
        if len(fields) != len(header):
            die(f"{path} line {lineno} has {len(fields)} fields where its header has {len(header)}: "
                "not a row (the runner refuses it too; fix or move that line)")
        r = dict(zip(header, fields))
        for col, kind in spec["kind"].items():
            v = r.get(col)
            if v is None or (v == "" and kind not in ("int!", "count", "dur")):
                continue
            if not KIND_RE[kind].match(v) or (kind in INT_KINDS and not INT64[0] <= int(v) <= INT64[1]):
                die(f"{path} line {lineno}, column {col}: {v[:40]!r}{'...' if len(v) > 40 else ''} "
                    f"is not {KIND_WORDS[kind]}")
        if "boot_id" in spec["need"] and not r["boot_id"]:
            die(f"{path} line {lineno}: an empty boot_id (the runner refuses such a row)")
        if name in ("raw.csv", "summary.csv"):
            for a in _axes():
                if not r.get(a):
                    r[a] = _defaults()[a]
        rows.append(r)
    return rows


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


# summary.csv's stop column (bench/stop.h): why a cell took the boots it
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
    reader is bench/matrixfile.c), or None when it has no such line. Read
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
        seen.setdefault(r, tuple(int(p) if p.isdigit() else 0 for p in r.replace("-", ".").split(".")))
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


# A boot that measured something: its status ok, or censored (still
# waiting at its bound, which is a measurement). The runner's rule is
# add_row() in bench/summary.c; tests/plots.sh checks on every status that
# the two agree.
MEASURED = ("ok", "censored")


def measured(rows):
    """The raw.csv rows of boots that measured something."""
    return [r for r in rows if r["status"] in MEASURED]


def headline_accel(rows):
    """The clock of the headline charts and tables: instruction time
    (icount) where the run measured it, else TCG. rows: raw.csv's (with a
    status) or summary.csv's (with an n)."""
    seen = {r["accel"] for r in rows if r.get("status", MEASURED[0]) in MEASURED
            and r.get("n", "1") not in ("", "0")}
    return "icount" if "icount" in seen else "tcg"


CLOCK_WORDS = {"icount": "instruction time (icount)", "tcg": "emulation time (TCG)", "kvm": "KVM"}


def fact_rows(name):
    """A fact table's rows, as scripts/table.sh reads it: '#' comments, the
    first other line names the columns, '-' is empty; [(line number,
    {column: value})], in the table's order, for a table keyed by more
    than its first column (kernel/build-cost). A row with another number
    of fields than the header is an error naming the file and line. name:
    one of kernel/ (arches, bases), or a path from the checkout's root
    (bench/report-runs), or an absolute path."""
    rows, head = [], None
    path = os.path.join(ROOT, name if "/" in name else os.path.join("kernel", name))
    shown = name if "/" in name else os.path.join("kernel", name)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        die(f"cannot read {shown}: {getattr(e, 'strerror', None) or e}")
    for lineno, line in enumerate(lines, 1):
        if line.startswith("#") or not line.split():
            continue
        cells = [c if c != "-" else "" for c in line.split()]
        if head is None:
            head = cells
        elif len(cells) != len(head):
            die(f"{shown} line {lineno} has {len(cells)} fields where its header has {len(head)} "
                f"({' '.join(head)}): fix that line")
        else:
            rows.append((lineno, dict(zip(head, cells))))
    if head is None:
        die(f"{shown} has no header line (the first line that is not a '#' comment names the columns)")
    return rows


@functools.lru_cache(maxsize=None)
def fact_table(name):
    """A fact table by column name (fact_rows), keyed by its first column:
    {first column: {column: value}}, in the table's order."""
    return {row[next(iter(row))]: row for _, row in fact_rows(name)}


def committed_runs():
    """The committed runs (plots/runs/<name>/ of each row of
    bench/report-runs that holds one): a run's directory, or for a row of
    several runs (bench-parallel: jobs1/, jobs2/) each of its
    subdirectories that holds a raw.csv, in the table's order.
    A committed run is untrusted: a symbolic link at <name>, at a
    multi-run <name>/<sub> or at its raw.csv is refused before anything
    reads through it (make report FROM=committed once deleted and drew
    through such a link, outside the checkout)."""
    out = []
    for name in fact_table("bench/report-runs"):
        d = os.path.join(ROOT, "plots", "runs", name)
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
    "entropy" (both kinds of guest in one run, as bench/entropy.matrix
    boots: chart 8). Decided by the machines the run booted, a fact of its
    rows that no setting renames (run.matrix's name can be anything) and
    that no other axis fakes (a shift or rtc=fixed fits any run): charts
    1-6 read what only the systemd guest reports, chart 7 sets the x86
    guest's cells beside none, so a run of both fits neither. A run of
    more than one kernel base (bench/bases.matrix) is "bases" (chart 9),
    whichever machines it booted: the others' charts set one base's cells
    beside each other, and would merge the bases' (checked first). A run
    of both values of the early axis (bench/systemd.matrix) is "systemd":
    no chart, its tables only."""
    if len({value(r, "base") for r in rows}) > 1:
        return "bases"
    # A run of both early readers (bench/systemd.matrix) is tables only:
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
    urandom read's duration (it runs the jitter loop) under TCG, qemu64
    (no RDRAND), a cycle counter present, and no other source of entropy
    or waiter (the axes' defaults: no virtio-rng, no seed, one vCPU, PID 1
    reading), so a run with such cells beside (bench/sources.matrix) draws
    chart 5 from its plain cells instead of merging them."""
    return [r for r in rows if r["measure"] == "first_urandom_latency" and r["accel"] == "tcg"
            and r["cpu"] == "qemu64" and r["nocounter"] == "off"
            and all(value(r, a) == _defaults()[a] for a in JITTER_PLAIN_AXES)]


# The axes whose default is the plain condition chart 5 measures.
JITTER_PLAIN_AXES = ("virtio_rng", "seed", "bootseed", "smp", "early")


# Every chart, once: its name (plots/<name>.gp, RUN/plots/<name>.png, .svg,
# .txt), the runs it fits (run_kind(): "x86": a run of the systemd guest;
# "arches": a run of the other machines; "entropy": a run of both;
# "bases": a run of two kernel bases) and its
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
}


def accel_title(rows):
    """Chart 3's title (the PNG's and the text chart's), from its accel.dat
    rows split into columns (4th: KVM's median or NaN, 5th: KVM's state):
    KVM is named as compared only where some cell measured it. Within the
    mail's 80 columns (tests/post.sh)."""
    if any(r[3] != "NaN" for r in rows):
        return "Median CRNG ready: TCG, icount and KVM for the same cells"
    why = "KVM not measured" if any(r[4] == "not_measured" for r in rows) else "no KVM cells"
    return f"Median CRNG ready: TCG and icount for the same cells ({why})"


def charts_for(rows):
    """The charts that fit a run of these rows, in number order."""
    fits = run_kind(rows)
    return [c for c, (kind, _) in CHARTS.items() if kind == fits]


# The jitter loop credits at most one bit per timer tick and the CRNG needs
# 256 bits, so the loop should take 256/HZ s: chart 5's reference line
# (prepare.py hands it to 5-jitter-vs-hz.gp), the HZ table's and the mail's.
JITTER_TICKS = 256


def jitter_ticks_ms(hz):
    """256/HZ in ms: the jitter loop's expected time at CONFIG_HZ=hz."""
    return JITTER_TICKS * 1000 / hz
