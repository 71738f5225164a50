"""What chart 8 (plots/prepare.py, plots/textcharts.py) and REPORT.md's
tables "What ready holds" (plots/report_tables.py --entropy) share about
a run of studies/entropy/entropy.matrix, so the chart and the tables say the same
thing: the emulated CPU's speed of a cell (icount's shift), a cell's
entropy condition in words, and one boot's jitter trial as the kernel
logged it (raw.csv's jitter_* columns, patch 0005).

Nothing here computes a statistic: medians, CIs, n and the number of
distinct first outputs are summary.csv's (the runner's); a boot's samples
per bit and the cap HZ/15 are raw.csv's, shown as they are or as their
range over a cell's boots."""
import functools

from formats import axis_names
from runlib import INTEGER, PALETTE, WORDS, die, probe_only_machines, run_setting, value, varying

# The axes a cell's entropy condition is said in (condition_words()), and
# those the tables show in columns of their own.
CONDITION_AXES = ("cpu", "nocounter", "virtio_rng", "bootseed")
COLUMN_AXES = ("arch", "accel", "shift", "hz", "rtc")


@functools.lru_cache(maxsize=None)
def auto_shift(run):
    """The shift of the run's icount setting (run.matrix), at which its
    shift=auto cells booted (bench/matrix/matrix.c: matrix_cell_shift)."""
    setting = run_setting(run, "icount")
    shifts = [w[len("shift="):] for w in (setting or "").split(",") if w.startswith("shift=")]
    if not shifts or not INTEGER.match(shifts[0]) or not 0 <= int(shifts[0]) <= 10:
        die(f"{run}/run.matrix: the icount setting {setting!r} names no shift=N (0 to 10), "
            "which its shift=auto cells boot at (the runner writes one)")
    return int(shifts[0])


def cpu_mhz(r, run):
    """The emulated CPU's speed of a row under icount, MHz: one
    instruction per 2^shift ns, 1000 MHz >> shift; None under another
    accelerator (TCG's and KVM's speed is the host's)."""
    if r["accel"] != "icount":
        return None
    s = value(r, "shift")
    if s == "auto":
        return 1000 / (1 << auto_shift(run))
    if not INTEGER.match(s) or not 0 <= int(s) <= 10:
        die(f"{run}: a row's shift {s!r} is not auto or 0 to 10 (the runner's accepted values)")
    return 1000 / (1 << int(s))


def seconds(ms):
    """A bound in ms as seconds, to the precision a bound is set in."""
    s = float(ms) / 1000
    return f"{s:.0f}" if s >= 100 else f"{s:.1f}"


def mhz_text(mhz, accel):
    return f"{mhz:g}" if mhz is not None else f"host-paced ({accel})"


def clocksources(boots):
    """The clocksources a cell's boots reported (raw.csv clocksource: the
    guest's current_clocksource at the report), in words."""
    names = sorted({b["clocksource"] for b in boots if b.get("clocksource")})
    return "/".join(names) if names else "not reported"


def condition_words(r, boots, extra=()):
    """A cell's entropy condition in words: what decides readiness there.
    "own clock (NAME)": random_get_entropy() as the machine has it (a
    cycle counter, or the clocksource it falls back to), named by the
    clocksource its boots reported; the others by the axis that adds or
    removes a source. extra: the other axes that vary in the run, in
    runlib's words."""
    words = []
    cpu = value(r, "cpu")
    if value(r, "nocounter") == "on":
        words.append("no counter (knob)")
    if cpu == "max":
        words.append("RDRAND (cpu=max)")
    elif cpu not in ("default", "qemu64"):
        words.append(f"cpu={cpu}")
    if value(r, "virtio_rng") == "on":
        words.append("virtio-rng")
    if value(r, "bootseed") == "on":
        words.append("boot-loader seed")
    if not words:
        words.append(f"own clock ({clocksources(boots)})")
    words += [w for w in (WORDS.get(a, lambda v, a=a: f"{a}={v}")(value(r, a)) for a in extra) if w]
    return ", ".join(words)


def condition_rank(r):
    """The tables' order of conditions: the clock as it is, without it,
    then each source that adds entropy."""
    return (value(r, "nocounter") == "on", value(r, "cpu") == "max", value(r, "virtio_rng") == "on",
            value(r, "bootseed") == "on", value(r, "cpu"))


def extra_axes(rows):
    """The axes that vary in the run but have no column and no word in
    the condition: said after it, so no two cells read alike; but not one
    that the machine and the clock decide (the timer as each guest got it
    with timer=auto: the PIT under icount, the LAPIC under TCG)."""
    out = []
    for a in varying(rows):
        per = {}
        for r in rows:
            per.setdefault((value(r, "arch"), r["accel"]), set()).add(value(r, a))
        if a not in CONDITION_AXES + COLUMN_AXES and any(len(v) > 1 for v in per.values()):
            out.append(a)
    if len({r["variant"] for r in rows}) > 1:
        out.insert(0, "variant")
    return out


def cell_key(r):
    """A cell, as raw.csv's and summary.csv's rows both name it: its
    value of every axis."""
    return tuple(value(r, a) for a in axis_names())


def machines(rows):
    """The run's machines: the systemd guest's first, then the probe-only
    ones, each by name."""
    probe = probe_only_machines()
    return sorted({value(r, "arch") for r in rows}, key=lambda m: (m in probe, m))


def machine_colour(i):
    return PALETTE[i % len(PALETTE)]


ACCEL_ORDER = {"icount": 0, "tcg": 1, "kvm": 2}
RTC_ORDER = {"host": 0, "fixed": 1}


def cell_order(rows, run):
    """A sort key for summary rows: machine, clock, condition, CPU speed
    (fastest first), HZ, rtc."""
    order = {m: i for i, m in enumerate(machines(rows))}

    def key(r):
        mhz = cpu_mhz(r, run)
        return (order[value(r, "arch")], ACCEL_ORDER.get(r["accel"], 9), r["accel"], condition_rank(r),
                -(mhz or 0), int(value(r, "hz") or 0), RTC_ORDER.get(value(r, "rtc"), 9), value(r, "rtc"))
    return key


# One boot's first jitter trial (try_to_generate_entropy(), patch 0005's
# log): it passes when its samples per bit are at most the cap HZ/15.
SKIPPED, PASSED, LATER, GAVE_UP = "skipped", "passed", "passed later", "gave up"


def trial(r):
    """SKIPPED: random.no_cycle_counter made it give up unrun
    (jitter_skipped); PASSED: its samples per bit within the cap; LATER:
    the first over the cap, a later trial within (the jitter loop ran:
    jitter_run_ns); GAVE_UP: over the cap and no later pass; None: no
    trial logged (the CRNG was ready first, or a run before patch 0005)."""
    if r.get("jitter_skipped") == "1":
        return SKIPPED
    per_bit, cap = r.get("jitter_per_bit"), r.get("jitter_max_per_bit")
    if not per_bit or not cap:
        return None
    if int(per_bit) <= int(cap):
        return PASSED
    return LATER if r.get("jitter_run_ns") else GAVE_UP


def chart_boots(boots, run):
    """Chart 8's points: every measured boot under icount whose first
    trial logged its samples per bit, with its CPU speed."""
    return [(b, cpu_mhz(b, run)) for b in boots
            if b["accel"] == "icount" and trial(b) in (PASSED, LATER, GAVE_UP)]
