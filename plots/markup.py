"""Markdown primitives: a run's text as Markdown that shows it as it is
(md), a table row (row), a code span (code), a titled table (titled). The ground floor of REPORT.md's
tables (like hyperfine's export/markup.rs): it imports nothing of plots/.
A run's text (cell names, meta.json, the guest's words) is text, never
Markdown or HTML: md() escapes it wherever it enters REPORT.md, and a table
cell's '|' is escaped ('\\|'); a code span is fenced so that it holds any
backquote."""
import re


MD_ESCAPES = {"\\": "\\\\", "`": "\\`", "[": "\\[", "]": "\\]", "&": "&amp;", "<": "&lt;", ">": "&gt;",
              "*": "\\*", "~": "\\~"}
# '_' opens or closes emphasis only at a word's edge: escaped there alone
# (x86_64 stays as it is, _x_ does not turn italic)
EDGE_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")


def md(text):
    """A run's text as Markdown that shows it as it is: no HTML (<, >, &
    as entities), no link or image ([, ] escaped), no code span, no
    emphasis or strike-through (*, _, ~ escaped); a backslash stays a
    backslash. Free text of a run (host_cpu, qemu) goes in code() instead:
    a bare URL in it would still become a link here."""
    return EDGE_UNDERSCORE.sub(r"\\_", "".join(MD_ESCAPES.get(ch, ch) for ch in str(text)))


def row(*cells):
    """A Markdown table row; a '|' in a cell is escaped, so it stays one cell."""
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"


def code(text):
    """A Markdown code span holding text as it is, backquotes included."""
    ticks = "`" * (max((len(t) for t in re.findall("`+", text)), default=0) + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def titled(t, head):
    """A table t (its header row first) as Markdown under the lines of head."""
    return "\n".join(head + [row(*t[0]), "|" + "---|" * len(t[0])] + [row(*(md(c) for c in r)) for r in t[1:]]) + "\n"
