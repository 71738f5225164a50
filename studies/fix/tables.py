"""The fix study's block: 32-bit kernels without and with patch 0008,
CRNG ready and the first fast pool mix per cell (plots/fix.py's table,
raw.csv's boots as they are). Chart 10 is charts.py's chart(run, dir)."""
from cells import run_name
from markup import titled
from runlib import read_table

import fix


def tables(run):
    """A fix for 32-bit kernels (the fix matrix): CRNG ready and the first
    fast pool mix, without and with patch 0008 (plots/fix.py)."""
    t = fix.fix_table(run, read_table(run, "raw.csv"))
    return titled(t, [
        f"### Without and with patch 0008: CRNG ready and the first fast pool mix (run {run_name(run)})\n",
        "Seconds from kernel start under icount, each cell's boots as raw.csv has them: the median, with the range "
        "(\"k identical\": every boot the same nanosecond; '>': not ready at the run's bound); counter \"none (knob)\": `random.no_cycle_counter`, the jitter trial skipped, "
        "so interrupts alone credit; first mix: patch 0007's log of the first mix of a fast pool before the CRNG "
        "was ready, made by 1024 interrupts (count) or by a second since the last mix (time).\n"])
