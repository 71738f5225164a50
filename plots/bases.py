"""What chart 9 (plots/prepare.py, plots/textcharts.py) and REPORT.md's
table "6.1 against 6.12" (plots/report_tables.py --bases) share about a
run of studies/bases/bases.matrix, so the chart and the table say the same thing:
the run's kernel bases in version order, and a cell (machine, variant,
condition in words, accelerator, vCPUs) that both bases booted.

Nothing here computes a statistic: medians and CIs are summary.csv's (the
runner's); the chart's points are raw.csv's boots as they are."""
from runlib import WORDS, die, probe_only_machines, value, variant_order, varying
import entropy

# The axes a cell is named by (its condition in words, or a column of its
# own); any other that varies within a machine and accelerator is said
# after the condition, so no two cells read alike.
SAID = ("arch", "variant", "accel", "smp", "cpu", "nocounter", "timer", "base")


def version(base):
    """A base ("6.12") as a sortable version; refused if it is not one."""
    parts = base.split(".")
    if not all(p.isdigit() for p in parts):
        die(f"a row's base {base!r} is not a version (kernel/bases' rows are, e.g. 6.1)")
    return tuple(int(p) for p in parts)


def bases(rows):
    """The run's kernel bases, oldest first."""
    return sorted({value(r, "base") for r in rows}, key=version)


def extra_axes(rows):
    out = []
    for a in varying(rows):
        per = {}
        for r in rows:
            per.setdefault((value(r, "arch"), r["accel"], value(r, "base")), set()).add(value(r, a))
        if a not in SAID and any(len(v) > 1 for v in per.values()):
            out.append(a)
    return out


def condition_words(r, extra=()):
    """What decides readiness in a cell: RDRAND (cpu=max), the TSC counter,
    no counter (the knob) with the tick that then feeds the CRNG, or a
    probe-only machine's own clock (kernel/arches names those machines;
    any other is the systemd guest's, x86)."""
    cpu, timer = value(r, "cpu"), value(r, "timer")
    if value(r, "arch") in probe_only_machines():
        words = ["own clock"]
    elif cpu == "max":
        words = ["RDRAND (cpu=max)"]
    elif value(r, "nocounter") == "on":
        words = [f"no counter (knob), {timer.upper() if timer in ('pit', 'lapic') else timer} tick"]
    else:
        words = ["TSC counter" + (f", cpu={cpu}" if cpu not in ("default", "qemu64") else "")]
    words += [w for w in (WORDS.get(a, lambda v, a=a: f"{a}={v}")(value(r, a)) for a in extra) if w]
    return ", ".join(words)


def cell(r, extra=()):
    """A cell without its base: (machine, variant, condition, accel, vCPUs)."""
    return (value(r, "arch"), r["variant"], condition_words(r, extra), r["accel"], value(r, "smp"))


def cell_order(cells):
    """machine (the systemd guest first), accel, condition, variant, vCPUs."""
    names = entropy.machines([{"arch": c[0]} for c in cells]) if cells else []
    return lambda c: (names.index(c[0]), entropy.ACCEL_ORDER.get(c[3], 9), c[3], c[2],
                      variant_order(c[1]), int(c[4]) if c[4].isdigit() else 0)
