"""The sources study's block: seeds and virtio-rng, early entropy sources
without RDRAND: the first blocking urandom read, CRNG ready and systemd's
boot finished, each cells.table's median [CI] per condition and variant."""
from cells import run_name, summary_rows, table


def tables(run):
    """Other early entropy sources without RDRAND (the sources matrix)."""
    rows = summary_rows(run)
    name = run_name(run)
    return "\n".join([
        table(rows, "first_urandom_latency",
              f"Seeds and virtio-rng: the first blocking urandom read's duration (run {name})"),
        table(rows, "crng_ready",
              f"Seeds and virtio-rng: CRNG ready, from kernel start (run {name})"),
        table(rows, "userspace_finished",
              f"Seeds and virtio-rng: systemd's boot finished (run {name})"),
    ])
