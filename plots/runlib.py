"""What plots/prepare.py and scripts/report_tables.py share about a run:
the variant order and colours, and how a cell's entropy condition is named,
so a chart and the table beside it always say the same thing."""

VARIANTS = ["stock", "legacy", "block", "block-v0"]  # order, every chart and table
COLOURS = ["#1b9e77", "#7570b3", "#d95f02", "#e7298a"]  # one per variant


def condition(r):
    """What distinguishes entropy conditions, in the words of the thread."""
    parts = [f"cpu={r['cpu']}"]
    if r["nocounter"] == "on":
        parts.append("no counter")
    if r["virtio_rng"] == "on":
        parts.append("virtio-rng")
    if r["trust_cpu"] == "off":
        parts.append("trust_cpu=off")
    if r["seed"] == "saved":
        parts.append("saved seed")
    if r["hz"] != "250":
        parts.append(f"HZ={r['hz']}")
    if r["smp"] != "1":
        parts.append(f"smp={r['smp']}")
    return ", ".join(parts)
