#!/usr/bin/env python3
"""The numbers in REPORT.md's prose that no generated table holds.

    plots/prose_numbers.py [PAGE...] [--count]

PAGE: a page of the report; without one, REPORT.md and its pages beside
it (studies/README.md, studies/<name>/README.md: runlib.pages()), read as
one text: a prose figure may be in a block of any page.

REPORT.md's generated blocks (between "<!-- tables:NAME:begin -->" and
"<!-- tables:NAME:end -->") are made from the committed runs
(plots/report_tables.py); everything else is prose. A number in the prose
should appear in a generated table; one that no table of a run holds is
a row of plots/quoted (measured: a statistic of a committed run's file;
computed: a formula; cited: a number with its source), which
plots/quoted.py makes into the block tables:quoted. This lists, per prose
line, the numbers that appear in no generated block; tests/fast/prose_numbers.sh
requires none in REPORT.md. A number matches any generated block's, so a
figure can pass by coincidence: the name the prose gives it (a row of
plots/quoted) is what a reader checks.

Not counted as numbers: kernel, QEMU, glibc, systemd and Debian versions
(a digit group after "Linux", "QEMU", "glibc", "systemd", "Debian", "v" or in
"6.1"-like release forms listed in RELEASES), commit ids (hex of 12), dates
(years 1990-2099, month days after a month name), markdown section
anchors, exponents (2^32), bit widths ("64-bit"), processors named by number (68040), and
the integers 0-10 unless a percentage (counts like "4 of 5" are numerous
and usually checked against n by the tables' own columns; "7%" is a
figure). Of the block tables:quoted only the value column counts; a
paragraph that names a row of it (`name`) must give its value, and every
row must be named by the prose or used by another row's formula.
--count prints only how many numbers were listed.
"""
import os
import re
import signal
import sys

BLOCK = re.compile(r"<!-- tables:([a-z0-9_-]+):(begin|end) -->")
# a number: 1234, 1.5, 0.003, 12,345 is not used in this report
NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.]*\d)")
RELEASES = {"5.17", "5.18", "5.19", "6.0", "6.1", "6.2", "6.11", "6.12", "7.2", "2.41", "2.36", "252",
            "6.1.192", "6.12.118"}
MODELS = {"68000", "68020", "68030", "68040", "68060", "6502", "8086"}  # processors named by number
HEX = re.compile(r"\b[0-9a-f]{7,40}\b")
MONTHS = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
DATE = re.compile(MONTHS + r"\s+\d{1,2}(?!\d)|\d{1,2}\s+" + MONTHS)
CODE = re.compile(r"`[^`]*`")


QUOTED_ROW = re.compile(r"\| `([a-z0-9][a-z0-9-]*)` \| (.*?) \| (.*) \|\Z")


def split(text):
    """(prose lines as (number, text), the generated blocks' text, the
    quoted figures {name: value text}). Of the block tables:quoted only
    the values count as table text: its "from" column holds formulas and
    sources, whose digits are not figures of the report."""
    prose, tables, quoted, inside, fence = [], [], {}, None, False
    used = set()
    for i, line in enumerate(text.splitlines(), 1):
        m = BLOCK.search(line)
        if m:
            inside = m.group(1) if m.group(2) == "begin" else None
            continue
        if inside == "quoted":
            q = QUOTED_ROW.match(line)
            if q:
                quoted[q.group(1)] = q.group(2)
                tables.append(q.group(2))
                # a formula's {name} or {name.min}: that row is used
                used.update(re.findall(r"\{([a-z0-9-]+)(?:\.(?:min|max))?\}", q.group(3)))
            continue
        if inside:
            tables.append(line)
            continue
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if not fence:
            prose.append((i, line))
    return prose, "\n".join(tables), quoted, used


def numbers(line):
    """The numbers of a prose line that count (see the module's doc)."""
    line = CODE.sub(" ", line)  # file names, options, code: not figures
    line = HEX.sub(" ", line)
    line = DATE.sub(" ", line)
    line = re.sub(r"\]\([^)]*\)", "]", line)  # link targets
    out = []
    for m in NUMBER.finditer(line):
        v = m.group(1)
        percent = line[m.end():m.end() + 1] == "%"  # a small percentage is a figure
        if line[m.end():m.end() + 4] == "-bit" or v in MODELS:  # a width or a part, no figure
            continue
        if v in RELEASES or (v.isdigit() and ((int(v) <= 10 and not percent) or 1990 <= int(v) <= 2099)):
            continue
        before = line[max(0, m.start() - 8):m.start()]
        if re.search(r"(Linux|QEMU|glibc|systemd|Debian|\bv)\s*$", before) or before.endswith("^"):
            continue  # a version, or an exponent (2^32)
        out.append(v)
    return out


def variants(v):
    """The forms a table may print v in: as is, and without trailing zeros
    (a table's milliseconds are also offered as seconds, to 0-3 decimals)."""
    forms = {v}
    if "." in v:
        forms.add(v.rstrip("0").rstrip("."))
    return forms


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # | head: no traceback
    args = [a for a in argv if not a.startswith("--")]
    count = "--count" in argv
    if not args:  # REPORT.md and its pages: one text (a figure's block may be in any)
        from runlib import pages
        args = [os.path.relpath(p) for p in pages(os.path.join(os.path.dirname(__file__), "..", "REPORT.md"))]
    prose, tables, quoted, used = [], [], {}, set()
    for path in args:
        try:
            text = open(path, encoding="utf-8").read()
        except OSError as e:
            sys.exit(f"prose_numbers.py: {path}: {e.strerror}")
        p, t, q, u = split(text)
        prose += [(f"{path}:{i}", line) for i, line in p]
        tables.append(t)
        quoted.update(q)
        used |= u
    tables = "\n".join(t for t in tables if t)
    path = args[0] + (f" and its {len(args) - 1} pages" if len(args) > 1 else "")
    if not tables:
        sys.exit(f"prose_numbers.py: {path} has no generated block (<!-- tables:NAME:begin -->): nothing to check against")
    in_tables = set()
    for t in NUMBER.findall(tables):
        in_tables.add(t)
        # the tables print milliseconds; the prose often says seconds
        for d in range(4):
            in_tables.add(f"{float(t) / 1000:.{d}f}")
    n = 0
    for i, line in prose:
        missing = [v for v in numbers(line) if not variants(v) & in_tables]
        if missing:
            n += len(missing)
            if not count:
                print(f"{i}: {' '.join(dict.fromkeys(missing))}")
    n += named(path, prose, quoted, count)
    n += orphans(path, prose, quoted, used, count)
    print(n if count else f"{n} prose numbers in no generated table of {path}")

def paragraphs(prose):
    """The prose's paragraphs (a blank line or a new list item or heading
    starts one), each as its [(line number, text)]."""
    out, cur = [], []
    for i, line in prose:
        new = not line.strip() or re.match(r"\s*([-*]|\d+\.|#+|\|) ", line)
        if new and cur:
            out.append(cur)
            cur = []
        if line.startswith("#"):  # a heading is a paragraph of its own
            out.append([(i, line)])
            continue
        if line.strip():
            cur.append((i, line))
    if cur:
        out.append(cur)
    return out


def orphans(path, prose, quoted, used, count):
    """A row of tables:quoted that the prose never names and no formula
    uses quotes nothing: its figure is tied to no sentence, so a change
    of it would go unread. Returns how many."""
    text = "\n".join(t for _, t in prose)
    lost = [name for name in quoted if name not in used and f"`{name}`" not in text]
    if lost and not count:
        print(f"{path}: tables:quoted rows named nowhere in the prose and used by no formula: {' '.join(lost)}")
    return len(lost)


def named(path, prose, quoted, count):
    """A paragraph that names a quoted figure (`name`, a row of
    tables:quoted) must give that figure's value: every number of the
    row's value appears in the paragraph (in one of its forms), so a
    re-run that changes a figure makes the prose that quotes it fail here
    instead of going stale. Returns how many did not."""
    n = 0
    for lines in paragraphs(prose):
        para = "\n".join(t for _, t in lines)
        text = CODE.sub(" ", para)
        said = set()
        for v in NUMBER.findall(text):
            said |= variants(v)
        for name in dict.fromkeys(re.findall(r"`([a-z0-9][a-z0-9-]*)`", para)):
            if name not in quoted:
                continue
            want = [v for v in NUMBER.findall(quoted[name]) if not variants(v) & said]
            if want:
                n += 1
                if not count:
                    at = next(i for i, t in lines if f"`{name}`" in t)
                    print(f"{at}: names `{name}` ({quoted[name]}) but does not give {' '.join(want)}")
    return n


if __name__ == "__main__":
    main(sys.argv[1:])
