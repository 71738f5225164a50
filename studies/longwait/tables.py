"""The longwait study's block: minutes without a counter or RDRAND, under
icount, by guest tick: CRNG ready and the first blocking urandom read
(cells.table), and the guest's interrupts (cells.interrupts_table)."""
from cells import interrupts_table, run_name, summary_rows, table


def tables(run):
    """Minutes without a counter, under icount, by guest tick (the longwait matrix)."""
    rows = summary_rows(run)
    name = run_name(run)
    return "\n".join([
        table(rows, "crng_ready",
              f"Without a counter or RDRAND, under icount: CRNG ready, from kernel start (run {name})",
              accel="icount"),
        table(rows, "first_urandom_latency",
              f"Without a counter or RDRAND, under icount: the first blocking urandom read (run {name})",
              accel="icount"),
        interrupts_table(run, "icount"),
    ])
