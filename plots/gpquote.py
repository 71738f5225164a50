"""Text from a run as gnuplot strings and data labels that gnuplot never
runs or expands: the one definition, for plots/prepare.py and the
studies' chart modules (studies/<name>/charts.py)."""
from runlib import CONTROL, die


Q2 = "''"  # two single quotes in a row


def gp_str(text):
    """A string literal for vars.gp and series.gp that gnuplot never expands:
    single quotes (no backslash escape, no `command` substitution, no @macro
    inside them), a quote doubled. Control characters were refused when the
    run was read; one here is a bug, refused all the same."""
    if CONTROL.search(text):
        die(f"a control character in a chart string: {text!r}")
    # gnuplot 5.4 reads a doubled quote in a single-quoted string, but not
    # two of them in a row (4 quotes: a syntax error): the tools' own
    # fragments write an empty string as "", and a label holding two
    # single quotes in a row is refused rather than drawn wrong.
    if Q2 in text:
        die(f"two single quotes in a row in a chart string: {text!r}; gnuplot cannot carry them")
    return "'" + text.replace("'", "''") + "'"


def tic_str(text):
    """A tick label for 'set xtics add (label pos)' (charts 1, 6, 7), which
    gnuplot also uses as a printf format for pos: a '%' doubled, so that a
    cell named max%g is drawn max%g (not max1.5, nor a label of gigabytes
    from a width of 999999999)."""
    return gp_str(text.replace("%", "%%"))


def label(text):
    """A label in a data file, double-quoted as gnuplot reads data (it runs
    and expands nothing there). gnuplot cannot carry a double quote inside
    one (the label ends there and the row's columns shift): refused."""
    if CONTROL.search(text):
        die(f"a control character in a chart label: {text!r}")
    if '"' in text:
        die(f"the chart label {text!r} holds a double quote, which gnuplot's data files cannot carry: "
            "a label (a cell's axis values in raw.csv/summary.csv, the guest's text in "
            "reads.csv/traces.csv) accepts printable text without '\"'")
    return '"' + text.replace("\\", "\\\\") + '"'
