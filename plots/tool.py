"""What every tool of plots/ stands on: the checkout's root, the runner
(CRNGBENCH_RUNNER, else build/crngbench-run) and its own description of
its axes and columns (crngbench-run --describe, asked on first use, once: what only the
runner knows, such as its plan and default jobs; a run's files are read
without it),
the one way a tool stops (die), a helper program's output, how a file is
rewritten whole (replacing: a fresh file beside it, renamed over it), and
the fact tables (kernel/arches, kernel/bases, a study file, ...) as
scripts/table.sh reads them, and the studies (studies/<name>/). It imports nothing of plots/."""
import contextlib
import functools
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile


ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
RUNNER = os.environ.get("CRNGBENCH_RUNNER", os.path.join(ROOT, "build", "crngbench-run"))


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


@contextlib.contextmanager
def replacing(path):
    """The one way a tool rewrites a file whole (REPORT.md, post.mbox):
    yields the name of a new, empty file beside path, which mkstemp made
    (O_EXCL, under a name no one chose in advance: nothing planted there,
    such as a symbolic link a checkout or a run carries, is written
    through), its mode what open() gives (0666 less the umask); when the
    block ends it is renamed over path (a link at path is replaced, never
    followed). On an error it is removed, and path is left as it was."""
    d, name = os.path.split(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=f".{name}.")
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)
        os.close(fd)
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


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


# Nothing runs when this module is imported: the runner's description is
# asked for on first use, once per process.

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


def fact_rows(name):
    """A fact table's rows, as scripts/table.sh reads it: '#' comments, the
    first other line names the columns, '-' is empty; [(line number,
    {column: value})], in the table's order, for a table keyed by more
    than its first column (kernel/build-cost). A row with another number
    of fields than the header is an error naming the file and line. name:
    one of kernel/ (arches, bases), or a path from the checkout's root
    (studies/quick/study), or an absolute path."""
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


STUDY_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")


def pages(report):
    """The report's pages: REPORT.md (report) and, beside it, the studies'
    pages (studies/README.md, then studies/<name>/README.md in name order)
    that exist. A generated block lives in the one page holding its
    markers (plots/report_tables.py); plots/prose_numbers.py reads them
    as one text. A page that is a link is an error naming it (a page is a
    file of the checkout)."""
    top = os.path.join(os.path.dirname(os.path.abspath(report)), "studies")
    out = [report]
    if os.path.isdir(top) and not os.path.islink(top):
        out.append(os.path.join(top, "README.md"))
        out += [os.path.join(top, n, "README.md") for n in sorted(os.listdir(top))]
    out = [p for p in out if p == report or os.path.lexists(p)]
    for p in out:
        if os.path.islink(p) or (p != report and not os.path.isfile(p)):
            die(f"{p} is a link or not a regular file: refused (a page of the report is a file of the checkout)")
    return out


def studies(top=None):
    """The studies: each folder of top (studies/), a study (its fields:
    studies/README.md), {name: {field: value}} in the order their study
    files give, as scripts/studies.sh lists them. A folder without a
    study file, or a link, is an error naming it."""
    top = top or os.path.join(ROOT, "studies")
    out = []
    for name in sorted(os.listdir(top)):
        d = os.path.join(top, name)
        if not os.path.isdir(d) or name.startswith("."):
            continue
        f = os.path.join(d, "study")
        if os.path.islink(d) or os.path.islink(f) or not os.path.isfile(f) or not STUDY_NAME.match(name):
            die(f"{d}: not a study's folder (a name of [a-z0-9_-], not a link, holding a study file: "
                "studies/README.md)")
        fields = {k: r["value"] for k, r in fact_table(os.path.abspath(f)).items()}
        if not fields.get("order", "").isdigit():
            die(f"{f}: order '{fields.get('order', '')}' is not a whole number")
        out.append((int(fields["order"]), name, fields))
    return {name: fields for _, name, fields in sorted(out)}


def study_code(name, file="tables.py"):
    """A study's own code, studies/<name>/<file> (tables.py: its
    tables(run) and an optional chart(run, dir); charts.py: its chart),
    as a module, or None where the folder has no such file. Its imports
    of plots/ resolve as a tool's of plots/ do."""
    path = os.path.join(ROOT, "studies", name, file)
    if not os.path.isfile(path):
        return None
    spec = importlib.util.spec_from_file_location(f"study_{name.replace('-', '_')}_{file[:-3]}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def study_run(top, run):
    """A committed run's directory in the studies folder top (studies/,
    or a copy of it): "quick" is top/quick/run, "parallel/jobs1"
    top/parallel/run/jobs1 (a study of several runs), "." top itself (the
    files of make reproduce as a whole: reproduce-time.csv). The one
    place that knows where a study keeps its run."""
    if run == ".":
        return top
    name, _, sub = run.partition("/")
    return os.path.join(top, name, "run", *([sub] if sub else []))


def run_label(path):
    """A run's name as tables and the mail say it: its directory's, but
    for a study's committed run (studies/<name>/run) the study's."""
    p = os.path.normpath(os.path.abspath(path))
    up, base = os.path.split(p)
    if base == "run" and os.path.basename(os.path.dirname(up)) == "studies":
        return os.path.basename(up)
    return base


@functools.lru_cache(maxsize=None)
def fact_table(name):
    """A fact table by column name (fact_rows), keyed by its first column:
    {first column: {column: value}}, in the table's order."""
    return {row[next(iter(row))]: row for _, row in fact_rows(name)}
