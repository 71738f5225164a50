#!/usr/bin/env python3
"""Write a patch series for the list: git format-patch --cover-letter
--thread=shallow's own output. The machinery of every mail make post
writes; its command line is the project's own series (make post
FROM=committed), plots/runmail.py a run's (make post RUN=...).

    plots/series.py RUNS_DIR OUT_DIR

Git makes the series. In a scratch repository holding the base's
pristine copies of the files the patches touch (kernel/build.sh --tree
keeps them beside the tree, as TREE.orig), git am applies the patches,
each with its own date and message, and git format-patch writes
OUT_DIR/0000-cover-letter.patch and 000k-*.patch. The patches therefore
differ from the files in the base's series only in what rebasing onto
the pristine base changes: the diff's index line (the pristine file's
blob) and the hunks' line numbers (the base's series makes them on top
of the test-only patches), besides the headers. So a maintainer's git am
-3 on the released tree applies them exactly.

From and Signed-off-by are the sender's: the user's git identity (git
var GIT_AUTHOR_IDENT, nothing guessed from the host name), else a
refusal before anything is written. Each patch's author becomes the
sender, its Signed-off-by of its own author is dropped, and git am
--signoff adds the sender's. No placeholder identity is written.

Here the patches are kernel/series' and the cover letter's Subject and
body are plots/cover-letter.txt with every figure recomputed from the
committed runs in RUNS_DIR (plots/quoted, plots/cover-quoted) and the
answer table written from tables_runs.ANSWER's cells (given to git as
the branch description, --cover-from-description=subject); git adds its
shortlog, diffstat and signature. To and Cc come from the base tree's
own scripts/get_maintainer.pl run on the patches; In-Reply-To and
References name the 2022 RFC (REPLY_TO, as the list archive has it), the
patches reply to the cover letter. Same runs, patches and sender, same
bytes: git's dates are the patches', and the time git puts in each
Message-Id is rewritten to the newest patch's Date.
"""
import email.errors
import email.header
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
from tables_runs import ANSWER, answer_cell
from runlib import (CONTROL, MEASURED, ROOT, all_variants, die, fact_rows, fact_table, open_new, read_meta, read_table, refuse_link,
                    releases, run_main, study_run, summary_rows, value)

# The RFC's Message-ID, as the list archive gives it (the References of
# every reply in the thread): "[PATCH RFC v0] random: block in
# /dev/urandom", Jason A. Donenfeld, 11 Feb 2022.
REPLY_TO = "<20220211210757.612595-1-Jason@zx2c4.com>"
WIDTH = 72
TEMPLATE = os.path.join(ROOT, "plots", "cover-letter.txt")
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
    out = [head]
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
        out.append(f"  {SHORT[words]:<22} {one['hz']:>4} {clock:>5} {texts[0]:>7} {texts[1]:>7} {texts[2]:>7}  {boots}")
    return ["6.1, the first read's wait, median; 'identical': every boot's the",
            "same to the ns. knob: our test-only random.no_cycle_counter (not sent)."] + out


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


def fill(text, figures):
    """The template's body with its figures: paragraphs refilled to WIDTH
    ('- ' items each on its own), a figure never split across lines, and
    a paragraph that is only {answer-table} kept as it is, one whose lines
    all start with two spaces kept line for line; a {name} that is no
    figure, or a brace that makes none, is refused."""
    def sub(m):
        if m.group(1) not in figures:
            die(f"{TEMPLATE}: {{{m.group(1)}}} is no figure of plots/quoted or plots/cover-quoted")
        # a number stays on the line of its unit
        return re.sub(r"(?<=[0-9]) (?=[a-z])", "\0", figures[m.group(1)])

    def wrap(words, first="", rest=""):
        return [l.replace("\0", " ") for l in textwrap.wrap(" ".join(words.split()), WIDTH, initial_indent=first,
                                                              subsequent_indent=rest, break_long_words=False,
                                                              break_on_hyphens=False)]
    out = []
    for para in text.strip("\n").split("\n\n"):
        block = re.fullmatch(r"\{([a-z-]+)\}", para.strip())
        for m in re.finditer(r"\{[^}]*\}?", para):
            if m.group(0) != para.strip() and m.group(0)[1:-1] in BLOCKS:
                die(f"{TEMPLATE}: {m.group(0)} is a paragraph of its own, alone")
            if not re.fullmatch(r"\{[a-z0-9-]+\}", m.group(0)):
                die(f"{TEMPLATE}: '{m.group(0)}' is no figure: a figure is {{name}}, name of a-z, 0-9 and '-' "
                    "(a row of plots/quoted or plots/cover-quoted)")
        if block and block.group(1) in BLOCKS:
            out += figures[block.group(1)].splitlines()
        elif all(l.startswith("  ") for l in para.splitlines()):
            # kept line for line, its figures filled
            out += [re.sub(r"\{([a-z0-9-]+)\}", sub, l).replace("\0", " ") for l in para.splitlines()]
        else:
            para = re.sub(r"\{([a-z0-9-]+)\}", sub, para)
            if para.startswith("- "):
                for it in re.split(r"\n(?=- )", para):
                    out += wrap(it[2:], "- ", "  ")
            else:
                out += wrap(para)
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


def as_sender(p, who, path):
    """Patch p rewritten into path for git am: its From the sender's (who:
    (name, address)), and no Signed-off-by of its own author's address in
    its message (git am --signoff then adds the sender's, last)."""
    with open(p["path"], "rb") as f:
        head, sep, rest = f.read().partition(b"\n\n")
    head = re.sub(rb"^From: .*(?:\n[ \t].*)*", lambda m: b"From: " + email.utils.formataddr(
        who, charset="utf-8").encode(), head, count=1, flags=re.M)
    msg, cut, diff = rest.partition(b"\n---\n")
    own = re.escape(p["from"][1].encode())
    msg = re.sub(rb"(?im)^Signed-off-by:[^\n]*<" + own + rb">[ \t]*\n?", b"", msg)
    with open(path, "wb") as f:
        f.write(head + sep + msg + cut + diff)
    return path


def format_patch(tmp, tree, patches, description, reply_to, to, cc, who, rfc=False):
    """[(file name, text)]: the patches applied by git am, each with its
    own date and message, its author and Signed-off-by the sender's (who,
    as_sender), to a repository of the base's pristine files (TREE.orig,
    beside the base's TREE), and git format-patch --cover-letter of them:
    the cover letter's Subject and body are DESCRIPTION's first paragraph
    and the rest (git's --cover-from-description=subject), then git's
    shortlog and diffstat; reply_to (or None) threads them under a mail;
    rfc: [RFC PATCH]. Git's configuration is none but the kernel tree's
    .gitattributes (C hunks name their function) and core.abbrev=12, the
    kernel's."""
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
            as_sender(p, who, os.path.join(tmp, "in", f"{i:04d}.patch")),
            what=f"of {p['path']} on the base's pristine files (and the series' patches before it)")
    git(repo, env, "config", "core.abbrev", "12")
    git(repo, env, "config", "branch.series.description", description)
    git(repo, env, "format-patch", "-q", "-o", out, "--cover-letter", "--cover-from-description=subject",
        "--numbered", "--thread=shallow", *([f"--in-reply-to={reply_to}"] if reply_to else []),
        *(["--rfc"] if rfc else []), *(f"--to={a}" for a in to), *(f"--cc={a}" for a in cc), f"-{len(patches)}")
    stamp = when(last)
    mails = []
    for f in sorted(os.listdir(out)):
        with open(os.path.join(out, f), encoding="utf-8") as fh:
            mails.append((f, timestamps(fh.read(), stamp)))
    if len(mails) != len(patches) + 1 or mails[0][0] != "0000-cover-letter.patch":
        die(f"git format-patch wrote {', '.join(m[0] for m in mails)}: not a cover letter and "
            f"{len(patches)} patch(es)")
    return mails


def template():
    """The cover letter's title and body. The body's last paragraph may be
    {shortlog}, the place of git format-patch's shortlog and diffstat,
    which git writes after the body: it is dropped here."""
    with open(TEMPLATE, encoding="utf-8") as f:
        lines = [l for l in f.read().splitlines() if not l.startswith("#")]
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines or lines[0].strip().startswith("-"):
        die(f"{TEMPLATE}: the first line that is not a '#' comment is the Subject's title, and it is "
            f"{'missing' if not lines else 'a line starting with -'}")
    paras = "\n".join(lines[1:]).strip("\n").split("\n\n")
    marks = [i for i, para in enumerate(paras) if para.strip() == "{shortlog}"]
    if marks and marks != [len(paras) - 1]:
        die(f"{TEMPLATE}: {{shortlog}} must be the last paragraph, alone: git format-patch writes its "
            "shortlog and diffstat after the cover letter's body")
    if "{" in lines[0] or "}" in lines[0]:
        die(f"{TEMPLATE}: the Subject's title '{lines[0].strip()}' holds a brace: it takes no {{figure}}")
    return lines[0].strip(), "\n\n".join(paras[:-1] if marks else paras)


def cover(runs_dir, base):
    """The cover letter's title and body, every figure from the runs."""
    figures = {}
    for table in (quoted.TABLE, COVER_QUOTED):
        for name, val, _ in quoted.figures(runs_dir, table):
            if name in figures:
                die(f"{table}: figure '{name}' is named twice (plots/quoted and plots/cover-quoted)")
            figures[name] = val
    # the bases run boots every base: its releases are the ones measured
    figures["releases"] = releases(read_meta(study_run(runs_dir, "bases")))
    rels = figures["releases"].split(" and ")
    title, body = template()
    figures["answer-table"] = "\n".join(answer_table(runs_dir))
    figures["base"] = (f"{fact_table('bases')[base]['package']} "
                       f"({', '.join(r for r in rels if r.startswith(base + '.'))})")
    return title, "\n".join(fill(body, figures))


def build(tree, paths, title, body, who, reply_to=None, rfc=False):
    """[(file name, text)]: git format-patch's series of the patch files
    paths, rebased onto the base's pristine files and sent by who, under
    the cover letter TITLE and BODY; To and Cc the tree's
    get_maintainer.pl's for them."""
    patches = [read_patch(p) for p in paths]
    to, cc = maintainers(tree, paths)
    with tempfile.TemporaryDirectory(prefix="crngbench-series.") as tmp:
        return format_patch(tmp, tree, patches, f"{title}\n\n{body}\n", reply_to, to, cc, who, rfc=rfc)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plots/series.py RUNS_DIR OUT_DIR (make post FROM=committed: studies plots/series)")
    runs_dir, out_dir = sys.argv[1], sys.argv[2]
    who = sender()  # first: without one, nothing is written
    base, paths = series_rows()
    tree = tree_of(base)
    title, body = cover(runs_dir, base)
    write_mails(out_dir, build(tree, paths, title, body, who, REPLY_TO))


def write_mails(out_dir, mails):
    """The mails into OUT_DIR, in UTF-8, and no other .patch file there."""
    refuse_link(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(out_dir):
        if name.endswith(".patch") and name not in dict(mails):
            os.unlink(os.path.join(out_dir, name))
    for name, text in mails:
        with open_new(os.path.join(out_dir, name), binary=True) as f:
            f.write(text.encode("utf-8"))  # the mail's charset, whatever the locale
        print(os.path.join(out_dir, name))


if __name__ == "__main__":
    run_main(main)
