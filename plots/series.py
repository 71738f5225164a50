#!/usr/bin/env python3
"""Write the mail for the list as a patch series, as git format-patch
--cover-letter --thread=shallow would (make post FROM=committed).

    plots/series.py RUNS_DIR OUT_DIR

OUT_DIR/0000-cover-letter.patch is [PATCH 0/N]: plots/cover-letter.txt
with every figure recomputed from the committed runs in RUNS_DIR
(plots/quoted, plots/cover-quoted) and the answer table written from
tables_runs.ANSWER's cells. OUT_DIR/000k-*.patch is [PATCH k/N]: the
patches of kernel/series, byte for byte as in the base's series but for
the Subject's numbering and the added headers. To and Cc come from the
base tree's own scripts/get_maintainer.pl run on those patches (the tree
kernel/build.sh --tree names); In-Reply-To and References name the 2022
RFC (REPLY_TO, as the list archive has it), the patches reply to the
cover letter. Date is the newest of the patches' own dates and every
Message-ID is made from the series' text, so the same runs and patches
give the same bytes. Bodies are plain text: the cover letter within 72
columns, the patches as they are (checkpatch.pl's rules).
"""
import email.parser
import email.policy
import email.utils
import hashlib
import os
import re
import statistics
import subprocess
import sys
import textwrap

import quoted
from cells import US_BELOW_MS, us
from entropy import cpu_mhz
from tables_runs import ANSWER, answer_cell
from runlib import (MEASURED, ROOT, all_variants, die, fact_rows, fact_table, open_new, read_meta, read_table, refuse_link,
                    releases, run_main, summary_rows, value)

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
        d = os.path.join(runs_dir, run)
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
    return ["The first read's wait, median; 'identical': every boot's the same",
            "to the ns. knob: our test-only random.no_cycle_counter (not sent)."] + out


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


def read_patch(path):
    with open(path, "rb") as f:
        raw = f.read()
    first, _, rest = raw.partition(b"\n")
    if not first.startswith(b"From "):
        die(f"{path}: not a git format-patch file (no 'From <sha>' line first)")
    msg = email.parser.BytesParser(policy=email.policy.compat32).parsebytes(rest)
    for h in ("From", "Date", "Subject"):
        if not msg[h]:
            die(f"{path}: no {h} header")
    title = re.sub(r"\s+", " ", re.sub(r"^\[PATCH[^]]*\]\s*", "", str(msg["Subject"])))
    head, _, body = rest.partition(b"\n\n")
    return {"path": path, "from_line": first.decode(), "from": str(msg["From"]), "date": str(msg["Date"]),
            "title": title, "head": head.decode("utf-8"), "body": body.decode("utf-8")}


def tree_of(base):
    """The base's unpacked tree (kernel/build.sh --tree unpacks it first)."""
    env = dict(os.environ, KERNEL_BASE=base)
    variant = all_variants()[0]
    p = subprocess.run([os.path.join(ROOT, "kernel", "build.sh"), "--tree", variant], env=env,
                       capture_output=True, text=True)
    tree = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    if p.returncode != 0 or not os.path.isfile(os.path.join(tree, "scripts", "get_maintainer.pl")):
        die(f"base {base}'s kernel tree is needed for scripts/get_maintainer.pl: kernel/build.sh --tree "
            f"failed: {(p.stderr.strip().splitlines() or ['?'])[-1]} (scripts/deps.sh --matrix bases installs "
            "the base's source package)")
    return tree


def maintainers(tree, paths):
    """(To, Cc) as the tree's get_maintainer.pl gives them for the patches:
    the maintainers, then the reviewers and the lists."""
    def ask(*flags):
        p = subprocess.run(["perl", "scripts/get_maintainer.pl", "--nogit", "--nogit-fallback", "--norolestats",
                            *flags, *paths], cwd=tree, capture_output=True, text=True)
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


def shortlog(patches):
    """git format-patch's cover letter summary: who, how many, the titles,
    and the diffstat lines of every patch."""
    authors = {}
    for p in patches:
        authors.setdefault(email.utils.parseaddr(p["from"])[0] or p["from"], []).append(p["title"])
    out = []
    for who, titles in authors.items():
        out.append(f"{who} ({len(titles)}):")
        out += [f"  {t}" for t in titles] + [""]
    for p in patches:
        stat = p["body"].split("\n---\n", 1)[1].split("\n\n", 1)[0] if "\n---\n" in p["body"] else ""
        out += [l for l in stat.splitlines() if l.strip()]
    return out


BLOCKS = ("answer-table", "shortlog")  # written by this script, kept line for line


def fill(text, figures):
    """The template's body with its figures: paragraphs refilled to WIDTH
    ('- ' items each on its own), a figure never split across lines, and
    a paragraph that is only {answer-table} or {shortlog}, or whose lines
    all start with two spaces, kept as it is."""
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
        if block and block.group(1) in BLOCKS:
            out += figures[block.group(1)].splitlines()
        elif all(l.startswith("  ") for l in para.splitlines()):
            out += para.splitlines()
        else:
            para = re.sub(r"\{([a-z0-9-]+)\}", sub, para)
            if para.startswith("- "):
                for it in re.split(r"\n(?=- )", para):
                    out += wrap(it[2:], "- ", "  ")
            else:
                out += wrap(para)
        out.append("")
    return out[:-1]


def template():
    with open(TEMPLATE, encoding="utf-8") as f:
        lines = [l for l in f.read().splitlines() if not l.startswith("#")]
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        die(f"{TEMPLATE} has no title line")
    return lines[0].strip(), "\n".join(lines[1:])


def message_id(date, digest, k, sender):
    local, _, domain = email.utils.parseaddr(sender)[1].partition("@")
    stamp = email.utils.parsedate_to_datetime(date).astimezone(__import__("datetime").timezone.utc)
    return f"<{stamp:%Y%m%d%H%M%S}.{digest}-{k}-{local}@{domain}>"


def header_lines(name, values):
    """A To: or Cc: header folded as git send-email writes it."""
    return [f"{name}: " + ",\n\t".join(values)] if values else []


def build(runs_dir, base, paths, tree):
    patches = [read_patch(p) for p in paths]
    senders = {p["from"] for p in patches}
    if len(senders) != 1:
        die(f"kernel/series: the patches have {len(senders)} authors; the series is sent by one")
    sender = senders.pop()
    date = max((p["date"] for p in patches), key=email.utils.parsedate_to_datetime)
    to, cc = maintainers(tree, paths)
    n = len(patches)
    figures = {}
    for table in (quoted.TABLE, COVER_QUOTED):
        for name, val, _ in quoted.figures(runs_dir, table):
            if name in figures:
                die(f"{table}: figure '{name}' is named twice (plots/quoted and plots/cover-quoted)")
            figures[name] = val
    # the bases run boots every base: its releases are the ones measured
    figures["releases"] = releases(read_meta(os.path.join(runs_dir, "bases")))
    rels = figures["releases"].split(" and ")
    title, body = template()
    figures["answer-table"] = "\n".join(answer_table(runs_dir))
    figures["shortlog"] = "\n".join(shortlog(patches)).rstrip("\n")
    figures["base"] = (f"{fact_table('bases')[base]['package']} "
                       f"({', '.join(r for r in rels if r.startswith(base + '.'))})")
    lines = fill(body, figures)
    cover_body = "\n".join(lines)
    digest = hashlib.sha256((cover_body + "".join(p["body"] for p in patches)).encode()).hexdigest()[:12]
    ids = [message_id(date, digest, k, sender) for k in range(n + 1)]

    def mail(k, subject, body, extra_head=""):
        reply = REPLY_TO if k == 0 else ids[0]
        refs = REPLY_TO if k == 0 else f"{REPLY_TO}\n {ids[0]}"
        head = [f"From {'0' * 40} Mon Sep 17 00:00:00 2001", f"From: {sender}", f"Date: {date}",
                f"Subject: [PATCH {k}/{n}] {subject}", f"Message-ID: {ids[k]}", f"In-Reply-To: {reply}",
                f"References: {refs}", *header_lines("To", to), *header_lines("Cc", cc)]
        return "\n".join(head) + extra_head + "\n\n" + body
    out = [("0000-cover-letter.patch", mail(0, title, cover_body + "\n"))]
    for k, p in enumerate(patches, 1):
        extra = "".join("\n" + l for l in p["head"].splitlines()
                        if not re.match(r"(From|Date|Subject|[ \t])", l, re.I))
        out.append((f"{k:04d}-{os.path.basename(p['path'])[5:]}", mail(k, p["title"], p["body"], extra)))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plots/series.py RUNS_DIR OUT_DIR (make post FROM=committed: plots/runs plots/series)")
    runs_dir, out_dir = sys.argv[1], sys.argv[2]
    base, paths = series_rows()
    tree = tree_of(base)
    mails = build(runs_dir, base, paths, tree)
    refuse_link(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(out_dir):
        if name.endswith(".patch") and name not in dict(mails):
            os.unlink(os.path.join(out_dir, name))
    for name, text in mails:
        with open_new(os.path.join(out_dir, name)) as f:
            f.write(text)
        print(os.path.join(out_dir, name))


if __name__ == "__main__":
    run_main(main)
