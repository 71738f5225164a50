#!/usr/bin/env python3
"""Write the mail of a patch series for the list: git format-patch's own
output. The machinery of every mail make post writes; its command line
is the project's own mail (make post FROM=committed), plots/runmail.py a
run's (make post RUN=...), which keeps the cover letter.

    plots/series.py RUNS_DIR OUT_DIR

Git makes the patches. In a scratch repository holding the base's
pristine copies of the files the patches touch (kernel/build.sh --tree
keeps them beside the tree, as TREE.orig), git am applies the patches,
each with its own date and message, and git format-patch writes them.
The patches therefore differ from the files in the base's series only in
what rebasing onto the pristine base changes: the diff's index line (the
pristine file's blob) and the hunks' line numbers (the base's series
makes them on top of the test-only patches), besides the headers. So a
maintainer's git am -3 on the released tree applies them exactly.

From and Signed-off-by are the sender's: the user's git identity (git
var GIT_AUTHOR_IDENT, nothing guessed from the host name), else a
refusal before anything is written. Each patch's author becomes the
sender, its Signed-off-by of its own author is dropped, and git am
--signoff adds the sender's. No placeholder identity is written.

The project's mail (main) is two threads of their own, no In-Reply-To:

- OUT_DIR/000k-*.patch, one mail per row of kernel/series: git
  format-patch without a cover letter, [PATCH] (--no-numbered) when
  there is one, [PATCH k/N] threaded under the first when there are
  more. Each commit message may quote {name} figures (rows of
  plots/quoted and plots/cover-quoted), recomputed from the committed
  runs in RUNS_DIR and filled before git am (fill(): paragraphs refilled
  to 72 columns; lines starting with a tab or two spaces and trailer
  lines, Fixes:, Cc:, Signed-off-by: ..., kept as they are). After the
  '---' line, before git's diffstat, comes plots/patch-notes.txt, filled
  the same way: the numbers and the machine, and the base. The base is
  named as Debian's package and the upstream release it holds: with no
  network and Debian's tarballs only, nothing here knows an upstream
  commit id, so there is no base-commit: line.
- OUT_DIR/rfc.mbox, one [RFC] mail, no patch, no attachment:
  plots/rfc-letter.txt filled (its figures, and the answer table written
  from tables_runs.ANSWER's cells), Date the newest patch's, a
  Message-Id of git's form (<rfc.TIME.git.EMAIL>); To get_maintainer.pl
  -f's maintainers of the files the patches touch, Cc its lists and
  plots/rfc-cc (the 2022 RFC's own Cc list, and more), each address
  once. git send-email takes OUT_DIR/*.patch and OUT_DIR/rfc.mbox
  separately, each a thread of its own.

To and Cc of the patches come from the base tree's own
scripts/get_maintainer.pl run on them. Same runs, patches and sender,
same bytes: git's dates are the patches', and the time git puts in each
Message-Id is rewritten to the newest patch's Date.
"""
import email.errors
import email.header
import email.message
import email.parser
import email.policy
import email.utils
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap

import quoted
from cells import US_BELOW_MS, us
from entropy import cpu_mhz
from tables_runs import ANSWER, answer_cell, run_fact
from runlib import (CONTROL, MEASURED, ROOT, all_variants, die, fact_rows, fact_table, open_new, read_meta, read_table, refuse_link,
                    releases, run_main, study_run, summary_rows, value)

WIDTH = 72
TEMPLATE = os.path.join(ROOT, "plots", "rfc-letter.txt")
NOTES = os.path.join(ROOT, "plots", "patch-notes.txt")
RFC_CC = os.path.join(ROOT, "plots", "rfc-cc")
COVER_QUOTED = os.path.join(ROOT, "plots", "cover-quoted")
# The answer table's columns: machine words, then the three variants'
# first /dev/urandom read (5.17's, 6.1's, the RFC's).
VARIANTS = ("legacy", "stock", "block")
# The cover letter's short name of each ANSWER cell (its words there are
# REPORT.md's, too long for 72 columns); every ANSWER cell needs one.
SHORT = {
    "x86_64, RDRAND trusted (-cpu max)": "x86 RDRAND",
    "x86_64, virtio-rng, no RDRAND": "x86 virtio-rng",
    "armv7-virt, QEMU's boot-loader seed credited": "armv7-virt boot seed",
    "x86_64, -cpu qemu64, TSC": "x86 TSC",
    "m68k-virt, goldfish timer": "m68k-virt goldfish",
    "armv5-versatilepb emulated at 125 MHz (icount shift 3), SP804": "versatilepb SP804",
    "armv5-versatilepb emulated at 1 GHz (icount shift 0), SP804": "versatilepb SP804",
    "m68k-q800 emulated at 31.25 MHz (icount shift 5), VIA": "m68k-q800 VIA",
    "x86_64 without a counter (knob: trial skipped), PIT tick": "x86 knob, PIT tick",
    "x86_64 without a counter (knob), LAPIC tick": "x86 knob, LAPIC tick",
}


def human(ms, censored=False):
    """A duration for the table: us under 1 ms, ms under 10 s, else s."""
    mark = ">" if censored else ""
    if ms < US_BELOW_MS:
        return mark + us(round(ms * 1e6, 3), sep="")  # back to ns (a median of ints: whole or half)
    if ms < 10000:
        return f"{mark}{ms:.0f}ms"
    return f"{mark}{ms / 1000:.1f}s"


def _boots(raw, want, variant):
    return [r for r in raw if r["variant"] == variant and r["status"] in MEASURED
            and all(value(r, a) == v for a, v in want.items())]


def cell_text(rows, raw, want, variant):
    """A variant's first read in a cell: (text, boots, identical), or None
    where the run did not boot the variant. The median is raw.csv's, in
    ns, so a read of a few us keeps its digits (summary.csv has 1 us)."""
    s = answer_cell(rows, want, variant, "first_urandom_latency")
    if s is None:
        return None
    boots = _boots(raw, want, variant)
    if len(boots) != int(s["n"]):
        die(f"the answer's cell {want} {variant}: raw.csv has {len(boots)} measured boots, summary.csv n={s['n']}")
    censored = s["median_censored"] == "1"
    col = "first_urandom_dur_ns"
    vals = [int(b[col]) for b in boots if b.get(col)]
    if censored or len(vals) != len(boots):
        return human(float(s["median_ms"]), censored), len(boots), False
    return human(statistics.median(vals) / 1e6), len(vals), min(vals) == max(vals)


def answer_table(runs_dir):
    """The answer's rows in 72 columns: machine, HZ, emulated MHz (or the
    clock when it is not icount), and the three variants' medians."""
    head = f"  {'machine':<22} {'HZ':>4} {'MHz':>5} {'legacy':>7} {'stock':>7} {'block':>7}  boots"
    out, notes = [head], []
    cache = {}
    for _, words, run, want in ANSWER:
        if words not in SHORT:
            die(f"plots/series.py: the answer's cell '{words}' has no short name in SHORT")
        d = study_run(runs_dir, run)
        if run not in cache:
            cache[run] = (summary_rows(d), read_table(d, "raw.csv"))
        rows, raw = cache[run]
        cells = {v: cell_text(rows, raw, want, v) for v in VARIANTS}
        if cells["block"] is None:
            die(f"{d}: no block cell for the answer's {want}")
        one = _boots(raw, want, "block")[0]
        if one["accel"] != "icount":
            continue  # the mail's table is instruction time only (TCG is the host's)
        mhz = cpu_mhz(one, d)
        clock = f"{mhz:g}" if mhz is not None else one["accel"].upper()
        texts = [c[0] if c else "-" for c in cells.values()]
        shown = [c for c in cells.values() if c]
        ns = sorted({c[1] for c in shown})
        n = "-".join(str(x) for x in (ns[0], ns[-1]) if x) if len(ns) > 1 else str(ns[0])
        boots = f"{n} identical" if all(c[2] for c in shown) else f"n={n}"
        # block below stock: not blocking's doing; said with the counts
        quick, name = below(raw, want), SHORT[words]
        if quick:
            name += "*"
            notes.append(f"  *{clock} MHz: block's trial counted {quick[1]} samples per bit, stock's {quick[0]}:")
            notes.append("   two kernel images timing one loop (build noise), not blocking.")
        out.append(f"  {name:<22} {one['hz']:>4} {clock:>5} {texts[0]:>7} {texts[1]:>7} {texts[2]:>7}  {boots}")
    return ["6.1, the first read's wait, median; 'identical': every boot's the",
            "same to the ns. knob: our test-only random.no_cycle_counter, which",
            "skips the jitter trial (not sent)."] + out + notes


def below(raw, want):
    """(stock's, block's) median samples per bit where a cell's block read
    was shorter than stock's and their trials counted differently, else
    None."""
    dur, pb = {}, {}
    for v in ("stock", "block"):
        boots = _boots(raw, want, v)
        ds = [int(b["first_urandom_dur_ns"]) for b in boots if b.get("first_urandom_dur_ns")]
        ps = [int(b["jitter_per_bit"]) for b in boots if b.get("jitter_per_bit", "").isdigit()]
        if not ds or not ps:
            return None
        dur[v], pb[v] = statistics.median(ds), statistics.median(ps)
    if dur["block"] < dur["stock"] and pb["block"] != pb["stock"]:
        return f"{pb['stock']:g}", f"{pb['block']:g}"
    return None


def series_rows():
    """kernel/series: [(base, path)], every row of one base."""
    rows = [r for _, r in fact_rows("series")]
    if not rows:
        die("kernel/series names no patch: the series would be a cover letter alone")
    bases = {r["base"] for r in rows}
    if len(bases) != 1:
        die(f"kernel/series names bases {', '.join(sorted(bases))}: a series is mailed against one base")
    base = bases.pop()
    known = fact_table("bases")
    if base not in known:
        die(f"kernel/series: base '{base}' is not a row of kernel/bases ({', '.join(known)})")
    out = []
    for r in rows:
        if "/" in r["patch"] or not r["patch"].endswith(".patch"):
            die(f"kernel/series: '{r['patch']}' is not a file name ending in .patch")
        path = os.path.join(ROOT, known[base]["patches"], r["patch"])
        refuse_link(path)
        if not os.path.isfile(path):
            die(f"kernel/series: {path} does not exist (the base's series is {known[base]['patches']})")
        out.append(path)
    return base, out


def when(date):
    """An RFC 2822 Date as seconds since the epoch, its zone applied: one
    dated -0000 (UTC, the sender's zone unknown) and one +0000 compare as
    any two do (datetime made the first naive, the second aware: a
    TypeError when compared)."""
    return email.utils.mktime_tz(email.utils.parsedate_tz(date))


def identity(path, text):
    """(name, address) of a patch's From as git am reads it: unfolded, its
    RFC 2047 encoded words decoded. Refused: a From of more than one
    address, or whose name decodes to more than one line or to an address
    (git am put an encoded newline's next line, an address, in the mail's
    From)."""
    text = re.sub(r"\r?\n(?=[ \t])", "", text)
    pairs = email.utils.getaddresses([text])
    if len(pairs) != 1 or pairs[0][1].count("@") != 1:
        die(f"{path}: From '{text}' is not one address (a From names the one author: 'Name <address>')")
    raw, addr = pairs[0]
    try:
        name = str(email.header.make_header(email.header.decode_header(raw)))
    except (UnicodeDecodeError, LookupError, email.errors.HeaderParseError) as e:
        die(f"{path}: From '{text}': its name does not decode ({e})")
    m = CONTROL.search(name + addr)
    if m or set("<>@") & set(name):
        die(f"{path}: From '{text}': its name decodes to {name!r}, "
            + (f"which holds a control character (U+{ord(m.group()):04X}): more than one line" if m else
               "which holds an address") + ": a From is one line, a name and one address")
    return name, addr


# What make post says when git knows no identity of the user's.
NO_IDENTITY = ("git knows no identity of yours (git var GIT_AUTHOR_IDENT: {why}): the mail's From and "
               "Signed-off-by are yours, and make post writes no placeholder in their place. Set it with "
               "git config --global user.name 'Your Name' and git config --global user.email you@example.org "
               "(or export GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL), then run make post again")


def sender():
    """(name, address): the user's git identity, as git var
    GIT_AUTHOR_IDENT gives it in the checkout (GIT_AUTHOR_NAME and
    GIT_AUTHOR_EMAIL, else user.name and user.email), with
    user.useConfigOnly: nothing guessed from the host's name
    (root@host.(none), crngbench@localhost). Checked as a patch's From is
    (identity); none is a refusal, NO_IDENTITY."""
    p = subprocess.run(["git", "-C", ROOT, "-c", "user.useConfigOnly=true", "var", "GIT_AUTHOR_IDENT"],
                       capture_output=True, encoding="utf-8", errors="replace")
    m = re.fullmatch(r"(.*) <([^<>]*)> [0-9]+ [+-][0-9]{4}", p.stdout.strip())
    if p.returncode != 0 or not m or not m.group(1).strip():
        why = (p.stderr.strip().splitlines() or ["no name"])[-1].removeprefix("fatal: ")
        die(NO_IDENTITY.format(why=why))
    return identity("git var GIT_AUTHOR_IDENT", email.utils.formataddr((m.group(1).strip(), m.group(2)),
                                                                       charset="utf-8"))


def read_patch(path):
    """A patch file's mail headers: {path, from (name, address), date,
    subject, files (the diff's (a, b) paths)}; it
    must be git format-patch's (a 'From <sha>' line, then From, Date and
    Subject)."""
    with open(path, "rb") as f:
        raw = f.read()
    first, _, rest = raw.partition(b"\n")
    if not first.startswith(b"From "):
        die(f"{path}: not a git format-patch file (no 'From <sha>' line first): a mailed patch has its "
            "author, date and message; write it with git commit and git format-patch -1")
    msg = email.parser.BytesParser(policy=email.policy.compat32).parsebytes(rest)
    for h in ("From", "Date", "Subject"):
        if not msg[h]:
            die(f"{path}: no {h} header")
    try:
        when(str(msg["Date"]))  # a year past 9999 parses, then fails here
    except (TypeError, ValueError, OverflowError):
        die(f"{path}: Date '{msg['Date']}' is not an RFC 2822 date of years 1 to 9999")
    return {"path": path, "from": identity(path, str(msg["From"])), "date": str(msg["Date"]),
            "subject": re.sub(r"\r?\n(?=[ \t])", "", str(msg["Subject"])),
            "files": re.findall(rb"^diff --git a/(\S+) b/(\S+)$", raw, re.M)}


def tree_of(base):
    """The base's unpacked tree (kernel/build.sh --tree unpacks it first)."""
    env = dict(os.environ, KERNEL_BASE=base)
    variant = all_variants()[0]
    p = subprocess.run([os.path.join(ROOT, "kernel", "build.sh"), "--tree", variant], env=env,
                       capture_output=True, encoding="utf-8", errors="replace")
    tree = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    if p.returncode != 0 or not os.path.isfile(os.path.join(tree, "scripts", "get_maintainer.pl")):
        die(f"base {base}'s kernel tree is needed for scripts/get_maintainer.pl: kernel/build.sh --tree "
            f"failed: {(p.stderr.strip().splitlines() or ['?'])[-1]} (scripts/deps.sh --matrix bases installs "
            "the base's source package)")
    return tree


def maintainers(tree, paths, files=False):
    """(To, Cc) as the tree's get_maintainer.pl gives them for the patches
    (files: for files of the tree, get_maintainer.pl -f): the
    maintainers, then the reviewers and the lists."""
    def ask(*flags):
        p = subprocess.run(["perl", "scripts/get_maintainer.pl", "--nogit", "--nogit-fallback", "--norolestats",
                            *flags, *(["-f"] if files else []), *paths], cwd=tree, capture_output=True,
                           encoding="utf-8", errors="replace")
        lines = [l.strip() for l in p.stdout.splitlines() if l.strip()]
        if p.returncode != 0 or not lines:
            die(f"{tree}/scripts/get_maintainer.pl {' '.join(flags)} gave nothing: {p.stderr.strip()[:200]}")
        for l in lines:
            name, addr = email.utils.parseaddr(l)
            if "@" not in addr:
                die(f"get_maintainer.pl gave '{l[:80]}', not an address")
        return lines
    to = ask("--nol", "--nor")
    return to, [a for a in ask("--nom") if a not in to]


BLOCKS = ("answer-table",)  # written by this script, kept line for line
# A trailer line of a commit message (git interpret-trailers' kind, the
# kernel's names): kept as it is, never refilled.
TRAILER = re.compile(r"(?:[A-Z][A-Za-z]*(?:-[A-Za-z]+)*-by|Fixes|Cc|Link|Closes|base|base-commit): \S")


def fill(text, figures, source=TEMPLATE, message=False):
    """The template's body with its figures: paragraphs refilled to WIDTH
    ('- ' items each on its own), a figure never split across lines, and
    a paragraph that is only {answer-table} kept as it is, one whose lines
    all start with two spaces kept line for line; a {name} that is no
    figure, or a brace that makes none, is refused naming source.
    message: a commit message's (or the notes') rules instead of the last
    one: every line starting with a tab or two spaces (quoted code, a
    table) is kept line for line, and every trailer line (TRAILER) as it
    is, the lines between them refilled; in the kept lines only a {name}
    is a figure, other braces (C code) stay."""
    def sub(m):
        if m.group(1) not in figures:
            die(f"{source}: {{{m.group(1)}}} is no figure of plots/quoted or plots/cover-quoted")
        # a number stays on the line of its unit
        return re.sub(r"(?<=[0-9]) (?=[a-z])", "\0", figures[m.group(1)])

    def filled(line):
        return re.sub(r"\{([a-z0-9-]+)\}", sub, line).replace("\0", " ")

    def kept(line):
        return line.startswith(("  ", "\t")) if message else line.startswith("  ")

    def wrap(words, first="", rest=""):
        return [l.replace("\0", " ") for l in textwrap.wrap(" ".join(words.split()), WIDTH, initial_indent=first,
                                                              subsequent_indent=rest, break_long_words=False,
                                                              break_on_hyphens=False)]
    out = []
    for para in text.strip("\n").split("\n\n"):
        block = re.fullmatch(r"\{([a-z-]+)\}", para.strip())
        checked = "\n".join(l for l in para.splitlines() if not (message and kept(l)))
        for m in re.finditer(r"\{[^}]*\}?", checked):
            if m.group(0) != para.strip() and m.group(0)[1:-1] in BLOCKS:
                die(f"{source}: {m.group(0)} is a paragraph of its own, alone")
            if not re.fullmatch(r"\{[a-z0-9-]+\}", m.group(0)):
                die(f"{source}: '{m.group(0)}' is no figure: a figure is {{name}}, name of a-z, 0-9 and '-' "
                    "(a row of plots/quoted or plots/cover-quoted)")
        if block and block.group(1) in BLOCKS:
            out += figures[block.group(1)].splitlines()
        elif para.startswith("- "):
            for it in re.split(r"\n(?=- )", re.sub(r"\{([a-z0-9-]+)\}", sub, para)):
                out += wrap(it[2:], "- ", "  ")
        elif message:
            prose = []
            for line in para.splitlines() + [None]:
                if line is not None and not kept(line) and not TRAILER.match(line):
                    prose.append(line)
                    continue
                out += wrap(re.sub(r"\{([a-z0-9-]+)\}", sub, "\n".join(prose))) if prose else []
                prose = []
                if line is not None:
                    out.append(filled(line))
        elif all(kept(l) for l in para.splitlines()):
            out += [filled(l) for l in para.splitlines()]  # kept line for line, its figures filled
        else:
            out += wrap(re.sub(r"\{([a-z0-9-]+)\}", sub, para))
        out.append("")
    return out[:-1]


def git(repo, env, *args, what="in the series' scratch repository"):
    """git's output, or die with what git said."""
    p = subprocess.run(["git", "-C", repo, *args], env=env, capture_output=True, encoding="utf-8", errors="replace")
    if p.returncode != 0:
        die(f"git {' '.join(args[:1])} {what} failed: {' '.join(p.stderr.strip().splitlines()[-3:])}")
    return p.stdout


def seed(repo, env, pristine, patches):
    """Commit the base's pristine copy of every file the patches touch
    (kernel/build.sh keeps them in PRISTINE, the tree's .orig; a file a
    patch creates is marked there NAME.absent)."""
    files = sorted({f.decode("utf-8", "replace") for p in patches for pair in p["files"] for f in pair})
    for f in files:
        parts = f.split("/")
        if f.startswith("/") or any(x in ("", ".", "..") for x in parts) or ".git" in (x.lower() for x in parts):
            die(f"a patch of kernel/series touches '{f}': a file is a path inside the kernel tree, relative, "
                "without '.', '..' or empty parts and outside .git")
        src = os.path.join(pristine, f)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(repo, f)), exist_ok=True)
            shutil.copy(src, os.path.join(repo, f))
        elif not os.path.exists(src + ".absent"):
            die(f"{pristine} has no pristine copy of {f}, which the series touches: kernel/build.sh --tree "
                "keeps one of every file the base's patches touch")
    git(repo, env, "add", "-A")
    git(repo, env, "commit", "-q", "--allow-empty", "-m", "the base's pristine files that the series touches")


def timestamps(text, stamp):
    """git format-patch puts the time of its run into every Message-ID
    (<cover.TIME.git.EMAIL>, <SHA.TIME.git.EMAIL>): TIME becomes STAMP, in
    the headers only, so the same series gives the same bytes."""
    head, sep, body = text.partition("\n\n")
    head, n = re.subn(r"(<(?:cover|[0-9a-f]{40})\.)[0-9]+(\.git\.)", rf"\g<1>{stamp}\g<2>", head)
    if not n:
        die("git format-patch wrote no Message-Id <cover|SHA.TIME.git.EMAIL>: its form is not the one "
            "plots/series.py knows")
    return head + sep + body


def as_sender(p, who, path, message=None):
    """Patch p rewritten into path for git am: its From the sender's (who:
    (name, address)), and no Signed-off-by of its own author's address in
    its message (git am --signoff then adds the sender's, last); message
    (or None): what the commit message becomes, given it and p's path."""
    with open(p["path"], "rb") as f:
        head, sep, rest = f.read().partition(b"\n\n")
    head = re.sub(rb"^From: .*(?:\n[ \t].*)*", lambda m: b"From: " + email.utils.formataddr(
        who, charset="utf-8").encode(), head, count=1, flags=re.M)
    msg, cut, diff = rest.partition(b"\n---\n")
    own = re.escape(p["from"][1].encode())
    msg = re.sub(rb"(?im)^Signed-off-by:[^\n]*<" + own + rb">[ \t]*\n?", b"", msg)
    if message:
        msg = message(msg.decode("utf-8"), p["path"]).encode("utf-8")
    with open(path, "wb") as f:
        f.write(head + sep + msg + cut + diff)
    return path


def format_patch(tmp, tree, patches, description, reply_to, to, cc, who, rfc=False, message=None, notes=None):
    """[(file name, text)]: the patches applied by git am, each with its
    own date and message (message: what it becomes, as_sender), its author
    and Signed-off-by the sender's (who, as_sender), to a repository of
    the base's pristine files (TREE.orig, beside the base's TREE), and git
    format-patch of them. With a DESCRIPTION, --cover-letter: the cover
    letter's Subject and body are its first paragraph and the rest (git's
    --cover-from-description=subject), then git's shortlog and diffstat;
    without (None), no cover letter: one patch is [PATCH] (--no-numbered,
    a thread of its own), more are [PATCH k/N] threaded under the first. reply_to
    (or None) threads them under a mail; rfc: [RFC PATCH]; notes (or
    None): text put after each patch's '---' line, before git's diffstat.
    Git's configuration is none but the kernel tree's .gitattributes (C
    hunks name their function) and core.abbrev=12, the kernel's."""
    name, addr = who
    first = min((p["date"] for p in patches), key=when)
    last = max((p["date"] for p in patches), key=when)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    # HOME and XDG_CONFIG_HOME: no user's ignore or attributes file either
    env.update(HOME=tmp, XDG_CONFIG_HOME=os.path.join(tmp, ".config"), GIT_CONFIG_NOSYSTEM="1",
               GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C",
               GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=addr, GIT_AUTHOR_DATE=first,
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=addr, GIT_COMMITTER_DATE=first)
    repo, out = os.path.join(tmp, "repo"), os.path.join(tmp, "out")
    git(tmp, env, "init", "-q", "--initial-branch=series", repo)
    attributes = os.path.join(tree, ".gitattributes")
    if os.path.isfile(attributes):
        os.makedirs(os.path.join(repo, ".git", "info"), exist_ok=True)
        shutil.copy(attributes, os.path.join(repo, ".git", "info", "attributes"))
    seed(repo, env, tree + ".orig", patches)
    os.makedirs(os.path.join(tmp, "in"), exist_ok=True)
    for i, p in enumerate(patches):
        git(repo, env, "am", "-q", "--signoff", "--committer-date-is-author-date",
            as_sender(p, who, os.path.join(tmp, "in", f"{i:04d}.patch"), message),
            what=f"of {p['path']} on the base's pristine files (and the series' patches before it)")
    git(repo, env, "config", "core.abbrev", "12")
    if description is not None:
        git(repo, env, "config", "branch.series.description", description)
        shape = ["--cover-letter", "--cover-from-description=subject", "--numbered", "--thread=shallow"]
    else:
        # --thread: git writes a Message-Id only when it threads (one patch: that alone)
        shape = ["--no-numbered" if len(patches) == 1 else "--numbered", "--thread=shallow"]
    git(repo, env, "format-patch", "-q", "-o", out, *shape, *([f"--in-reply-to={reply_to}"] if reply_to else []),
        *(["--rfc"] if rfc else []), *(f"--to={a}" for a in to), *(f"--cc={a}" for a in cc), f"-{len(patches)}")
    stamp = when(last)
    mails = []
    for f in sorted(os.listdir(out)):
        with open(os.path.join(out, f), encoding="utf-8") as fh:
            text = timestamps(fh.read(), stamp)
        if notes and not f.startswith("0000-cover-letter"):
            head, cut, rest = text.partition("\n---\n")
            if not cut:
                die(f"git format-patch wrote {f} without a '---' line: no place for the notes")
            text = head + cut + notes.rstrip("\n") + "\n\n" + rest
        mails.append((f, text))
    cover = [] if description is None else ["0000-cover-letter.patch"]
    if len(mails) != len(patches) + len(cover) or [m[0] for m in mails[:len(cover)]] != cover:
        die(f"git format-patch wrote {', '.join(m[0] for m in mails)}: not {'a cover letter and ' if cover else ''}"
            f"{len(patches)} patch(es)")
    return mails


def template(path, titled=True):
    """A template's lines but its '#' comments: (title, body), the title
    its first line (titled), or (None, body)."""
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f.read().splitlines() if not l.startswith("#")]
    while lines and not lines[0].strip():
        lines.pop(0)
    if not titled:
        return None, "\n".join(lines).strip("\n")
    if not lines or lines[0].strip().startswith("-"):
        die(f"{path}: the first line that is not a '#' comment is the Subject's title, and it is "
            f"{'missing' if not lines else 'a line starting with -'}")
    if "{" in lines[0] or "}" in lines[0]:
        die(f"{path}: the Subject's title '{lines[0].strip()}' holds a brace: it takes no {{figure}}")
    return lines[0].strip(), "\n".join(lines[1:]).strip("\n")


def figures(runs_dir, base, tree):
    """Every figure a template or commit message may quote, from the runs:
    plots/quoted's and plots/cover-quoted's rows, {releases} (the bases
    run's), {answer-table}, {base} (package and release), and the base's
    {base-debian} (package and Debian version, the tree's),
    {base-release} and {other-releases} (the other bases' measured),
    {upstream-commit} (the crngbench commit of the upstream run)."""
    figs = {}
    for table in (quoted.TABLE, COVER_QUOTED):
        for name, val, _ in quoted.figures(runs_dir, table):
            if name in figs:
                die(f"{table}: figure '{name}' is named twice (plots/quoted and plots/cover-quoted)")
            figs[name] = val
    # the bases run boots every base: its releases are the ones measured
    figs["releases"] = releases(read_meta(study_run(runs_dir, "bases")))
    rels = figs["releases"].split(" and ")
    package = fact_table("bases")[base]["package"]
    figs["answer-table"] = "\n".join(answer_table(runs_dir))
    figs["base-release"] = ", ".join(r for r in rels if r.startswith(base + "."))
    figs["base"] = f"{package} ({figs['base-release']})"
    figs["base-debian"] = f"{package} {os.path.basename(tree).removeprefix('linux-')}"
    figs["other-releases"] = " and ".join(r for r in rels if not r.startswith(base + ".")) or "no other"
    # the crngbench commit the mail's own measurement was made from (the
    # upstream study's run), so a reader can check out what made it
    run = study_run(runs_dir, "upstream")
    commit = run_fact(run, "commit") or die(f"{run}/commit: missing (the mail names the commit that made the run)")
    figs["upstream-commit"] = f"commit {commit[:12]}"
    return figs


def build(tree, paths, title, body, who, reply_to=None, rfc=False):
    """[(file name, text)]: git format-patch's series of the patch files
    paths, rebased onto the base's pristine files and sent by who, under
    the cover letter TITLE and BODY; To and Cc the tree's
    get_maintainer.pl's for them."""
    patches = [read_patch(p) for p in paths]
    to, cc = maintainers(tree, paths)
    with tempfile.TemporaryDirectory(prefix="crngbench-series.") as tmp:
        return format_patch(tmp, tree, patches, f"{title}\n\n{body}\n", reply_to, to, cc, who, rfc=rfc)


def patch_mails(tree, paths, who, figs):
    """[(file name, text)]: the patches of paths each a mail of its own,
    sent by who, no cover letter (format_patch), each commit message's
    figures filled (fill's message rules) and plots/patch-notes.txt after
    its '---'; To and Cc the tree's get_maintainer.pl's for them."""
    patches = [read_patch(p) for p in paths]
    for p in patches:
        if re.search(r"[{}]", p["subject"]):
            die(f"{p['path']}: its Subject '{p['subject']}' holds a brace: a Subject takes no {{figure}}")
    to, cc = maintainers(tree, paths)
    notes = "\n".join(fill(template(NOTES, titled=False)[1], figs, source=NOTES, message=True))

    def message(text, path):
        return "\n".join(fill(text, figs, source=path, message=True))
    with tempfile.TemporaryDirectory(prefix="crngbench-series.") as tmp:
        return format_patch(tmp, tree, patches, None, None, to, cc, who, message=message, notes=notes)


def rfc_cc():
    """plots/rfc-cc's addresses ('Cc: Name <address>' lines, '#'
    comments), each one address."""
    out = []
    with open(RFC_CC, encoding="utf-8") as f:
        for n, line in enumerate(f.read().splitlines(), 1):
            if line.startswith("#") or not line.strip():
                continue
            text = line.removeprefix("Cc: ").strip()
            pairs = email.utils.getaddresses([text])
            if not line.startswith("Cc: ") or len(pairs) != 1 or pairs[0][1].count("@") != 1:
                die(f"{RFC_CC} line {n}: '{line}' is not 'Cc: Name <address>' (one address)")
            out.append(text)
    return out


def once(to, cc):
    """cc without the addresses of to, each address once (first kept)."""
    seen = {email.utils.parseaddr(a)[1].lower() for a in to}
    out = []
    for a in cc:
        addr = email.utils.parseaddr(a)[1].lower()
        if addr not in seen:
            seen.add(addr)
            out.append(a)
    return out


def rfc_mail(who, to, cc, title, body, date=None, msgid=None, name="0000-rfc.patch"):
    """[(file name, text)]: one [RFC] mail, no patch, as git send-email
    reads it (an mbox of one message); date and msgid (or None) its Date
    and Message-Id."""
    msg = email.message.EmailMessage(policy=email.policy.default.clone(linesep="\n", max_line_length=78))
    msg["From"] = email.utils.formataddr(who, charset="utf-8")
    if date:
        msg["Date"] = date
    if msgid:
        msg["Message-ID"] = msgid
    msg["To"] = ", ".join(to)
    if cc:
        msg["Cc"] = ", ".join(cc)
    msg["Subject"] = f"[RFC] {title}"
    msg.set_content(body + "\n", cte="7bit" if body.isascii() else "8bit")
    return [(name, "From crngbench Mon Sep 17 00:00:00 2001\n" + msg.as_string())]


def project_rfc(tree, paths, who, figs):
    """The project's [RFC] mail, rfc.mbox: plots/rfc-letter.txt filled,
    Date the newest patch's, Message-Id <rfc.TIME.git.EMAIL> (TIME that
    Date's, as the patches'); To get_maintainer.pl -f's maintainers of the
    files the patches touch, Cc its lists and plots/rfc-cc, each once."""
    patches = [read_patch(p) for p in paths]
    last = max((p["date"] for p in patches), key=when)
    files = sorted({f.decode("utf-8", "replace") for p in patches for pair in p["files"] for f in pair})
    to, cc = maintainers(tree, files, files=True)
    title, body = template(TEMPLATE)
    return rfc_mail(who, to, once(to, cc + rfc_cc()), title, "\n".join(fill(body, figs)), date=last,
                    msgid=f"<rfc.{when(last)}.git.{who[1]}>", name="rfc.mbox")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plots/series.py RUNS_DIR OUT_DIR (make post FROM=committed: studies plots/series)")
    runs_dir, out_dir = sys.argv[1], sys.argv[2]
    who = sender()  # first: without one, nothing is written
    base, paths = series_rows()
    tree = tree_of(base)
    figs = figures(runs_dir, base, tree)
    write_mails(out_dir, patch_mails(tree, paths, who, figs) + project_rfc(tree, paths, who, figs))


def write_mails(out_dir, mails):
    """The mails into OUT_DIR, in UTF-8, and no other .patch or .mbox file
    there."""
    refuse_link(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(out_dir):
        if name.endswith((".patch", ".mbox")) and name not in dict(mails):
            os.unlink(os.path.join(out_dir, name))
    for name, text in mails:
        with open_new(os.path.join(out_dir, name), binary=True) as f:
            f.write(text.encode("utf-8"))  # the mail's charset, whatever the locale
        print(os.path.join(out_dir, name))


if __name__ == "__main__":
    run_main(main)
