#!/usr/bin/env python3
"""Boot the kernel variants under TCG and assert behaviour, never timings.

Each check compares events of one boot with each other (which came first,
which read waited, which errno came back), so a slow or loaded machine can
make a boot slower but not make a check pass or fail.

Usage: boot_behaviour.py RUNNER IMAGE KERNELS OUTDIR
Prints PASS:/FAIL:/SKIP: lines for tests/run.sh to count.
"""
import csv
import os
import subprocess
import sys
import time

runner, image, kernels, outdir = sys.argv[1:5]
os.makedirs(outdir, exist_ok=True)
results = []


def report(ok, name, why=""):
    line = ("PASS: " if ok else "FAIL: ") + name + ("" if ok else ": " + why)
    print(line, flush=True)
    results.append(ok)


def run(name, sets, extra=()):
    """One runner invocation (its own results directory); returns rows."""
    out = os.path.join(outdir, name)
    subprocess.run(["rm", "-rf", out], check=True)
    cmd = [runner, "--out", out, "--image", image, "--kernels", kernels,
           "--seed", "7", "--quiet", "--set", "reps=1"]
    for s in sets:
        cmd += ["--set", s]
    cmd += list(extra)
    t = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        report(False, name + " (runner)", p.stderr.strip()[-500:])
        return [], [], time.monotonic() - t, p.stderr
    with open(os.path.join(out, "raw.csv")) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(out, "reads.csv")) as f:
        reads = list(csv.DictReader(f))
    return rows, reads, time.monotonic() - t, p.stderr


def num(row, key):
    v = row.get(key, "")
    return int(v) if v not in ("", None) else None


def ready(row):
    """The runner's one definition of CRNG ready (raw.csv crng_ready_ns)."""
    return num(row, "crng_ready_ns")


def reads_of(reads, boot):
    return [r for r in reads if r["boot_id"] == boot]


def by_variant(rows):
    return {r["variant"]: r for r in rows}


ALL = "stock,legacy,block,block-v0"

# 1. RDRAND trusted: ready before init, whatever the variant.
rows, reads, _, _ = run("max-trusted", ["variant=" + ALL, "cpu=max", "trust_cpu=on",
                                        "reads=urandom"])
for v, r in sorted(by_variant(rows).items()):
    report(r["status"] == "ok" and r["crng_ready_before_init"] == "1",
           f"max+trust_cpu: CRNG ready before init ({v})",
           f"status={r['status']} ready={ready(r)} init={r['init_ns']} {r['reason']}")
report(len(rows) == 4, "max+trust_cpu: all four variants booted", f"{len(rows)} rows")

# 2. qemu64 (no RDRAND): who waits, who returns early, who says EAGAIN.
rows, reads, _, _ = run("qemu64", ["variant=" + ALL, "cpu=qemu64",
                                   "reads=getrandom-insecure:urandom-nb:urandom"])
V = by_variant(rows)
for v in ALL.split(","):
    r = V.get(v)
    if not r or r["status"] != "ok":
        report(False, f"qemu64 boot ({v})", r["reason"] if r else "no row")
        continue
    rd = {x["iface"]: x for x in reads_of(reads, r["boot_id"])}
    t_ready = ready(r)
    u = rd.get("urandom")
    u_end = int(u["start_ns"]) + int(u["dur_ns"]) if u else None
    nb = rd.get("urandom-nb")
    ins = rd.get("getrandom-insecure")
    ins_end = int(ins["start_ns"]) + int(ins["dur_ns"]) if ins else None
    if v == "legacy":
        report(u is not None and t_ready is not None and u_end < t_ready or
               (t_ready is None and u is not None and u["errno"] == "0"),
               "qemu64: legacy returns the first urandom read before the CRNG is ready",
               f"urandom end {u_end} ready {t_ready}")
    else:
        report(u is not None and t_ready is not None and u_end >= t_ready,
               f"qemu64: {v} returns the first urandom read only after the CRNG is ready",
               f"urandom end {u_end} ready {t_ready}")
    if v == "block":
        report(nb is not None and nb["errno"] == "11" and nb["bytes"] == "0",
               "qemu64: block gives EAGAIN for an O_NONBLOCK urandom read", str(nb))
        report(ins is not None and t_ready is not None and ins_end < t_ready,
               "qemu64: block returns GRND_INSECURE before the CRNG is ready",
               f"insecure end {ins_end} ready {t_ready}")
    if v == "stock":
        report(nb is not None and nb["errno"] == "0" and int(nb["bytes"]) > 0,
               "qemu64: stock does not give EAGAIN for an O_NONBLOCK urandom read", str(nb))
    if v == "block-v0":
        report(ins is not None and t_ready is not None and ins_end >= t_ready,
               "qemu64: block-v0 makes GRND_INSECURE wait until the CRNG is ready",
               f"insecure end {ins_end} ready {t_ready}")
    if v == "stock":
        # The guest's two independent readiness clocks agree: both fall in the
        # read that ran the jitter loop (a 1% margin for the kmsg clock
        # mapping, relative to that read's own duration).
        p, k = num(r, "crng_ready_poll_ns"), num(r, "crng_ready_kmsg_ns")
        start, end = int(nb["start_ns"]), int(nb["start_ns"]) + int(nb["dur_ns"])
        slack = int(nb["dur_ns"]) // 100
        ok = p is not None and k is not None and all(start - slack <= t <= end + slack for t in (p, k))
        report(ok, "watcher and kernel log agree on CRNG-ready time (stock, qemu64)",
               f"poll {p} kmsg {k} read [{start}, {end}]")
        report(r["status"] == "ok" and num(r, "finish_ns") and num(r, "report_ns"),
               "systemd reaches the report unit and the report parses (stock, qemu64)",
               str(r["reason"]))

# 3. No cycle counter: stock returns at once, block waits until the read
# timeout (a censored read), and the runner carries on to the next boot.
rows, reads, _, _ = run("nocounter", ["variant=stock,block", "cpu=qemu64", "nocounter=on",
                                      "reads=urandom", "read_timeout=5", "timeout=60"])
V = by_variant(rows)
s, b = V.get("stock"), V.get("block")
if s and b:
    su = reads_of(reads, s["boot_id"])
    bu = reads_of(reads, b["boot_id"])
    report(s["status"] == "ok" and su and su[0]["timed_out"] == "0" and su[0]["errno"] == "0"
           and s["first_urandom_before_ready"] == "1",
           "nocounter: stock returns the urandom read at once, before the CRNG is ready", str(su))
    report(b["first_urandom_censored"] == "1" and (not bu or bu[0]["timed_out"] == "1"),
           "nocounter: block waits until the timeout (censored row)",
           f"status={b['status']} {b['reason']} {bu}")
    report(b["crng_ready_censored"] == "1", "nocounter: block's CRNG never became ready",
           str(b["crng_ready_censored"]))
else:
    report(False, "nocounter: both boots recorded", str(rows))
report(len(rows) == 2, "nocounter: the runner carried on after the censored boot", f"{len(rows)} rows")

# 4. virtio-rng seeds the CRNG although the jitter loop cannot run.
rows, reads, _, _ = run("virtio-rng", ["variant=block", "cpu=qemu64", "nocounter=on",
                                       "virtio_rng=on", "reads=urandom", "read_timeout=20"])
r = rows[0] if rows else None
report(r is not None and r["status"] == "ok" and r["crng_ready_censored"] == "0"
       and r["first_urandom_censored"] == "0",
       "virtio-rng makes the CRNG ready without the jitter loop (block, no counter)",
       str(r and (r["status"], r["reason"], r["crng_ready_censored"])))

# 5. A saved seed (a machine's later boot): systemd-random-seed credits it,
# so the CRNG becomes ready although neither RDRAND nor the jitter loop can
# help; on a first boot (no seed) the same guest never gets there.
rows, reads, _, _ = run("seed", ["variant=stock", "cpu=qemu64", "nocounter=on", "seed=none,saved",
                                 "reads=none", "read_timeout=5"])
S = {r["seed"]: r for r in rows}
sv, fb = S.get("saved"), S.get("none")
report(sv is not None and sv["status"] == "ok" and sv["crng_ready_censored"] == "0"
       and fb is not None and fb["crng_ready_censored"] == "1",
       "saved seed: systemd-random-seed makes the CRNG ready; a first boot stays unready",
       str([(r["seed"], r["status"], r["crng_ready_censored"], r["reason"][:60]) for r in rows]))

# 6. Two vCPUs boot and report like one.
rows, reads, _, _ = run("smp", ["variant=block", "cpu=max", "smp=2", "reads=urandom"])
report(bool(rows) and rows[0]["status"] == "ok" and rows[0]["crng_ready_before_init"] == "1",
       "smp=2: the guest boots and reports", str(rows and (rows[0]["status"], rows[0]["reason"])))

# 7. A guest that fails reports why and ends the VM by itself (never a hang).
rows, reads, _, _ = run("guest-fail", ["variant=stock", "cpu=max", "reads=urandom"],
                        ["--append", "crngbench_bytes=0"])
r = rows[0] if rows else {}
report(r.get("status") == "guest-failed" and "crngbench_bytes" in r.get("reason", ""),
       "a failing guest reports the cause and powers off (guest-failed row)",
       str((r.get("status"), r.get("reason"))))

# 8. KVM: usable cells run; unusable KVM is detected by the canary and
# every KVM cell is reported skipped with the reason.
rows, reads, secs, err = run("kvm", ["variant=stock", "accel=kvm,tcg", "cpu=max", "reads=urandom"],
                             ["--kvm-canary", "10"])
kv = [r for r in rows if r["accel"] == "kvm"]
tc = [r for r in rows if r["accel"] == "tcg"]
if kv and kv[0]["status"] == "skipped":
    report("KVM" in kv[0]["reason"] and len(kv[0]["reason"]) > 20,
           "KVM unusable here: KVM cells skipped with a reason", kv[0]["reason"])
    report("SKIPPED" in err, "KVM skip is said on screen", err[-300:])
    print("# KVM reason: " + kv[0]["reason"])
else:
    report(bool(kv) and kv[0]["status"] == "ok", "KVM usable here: the KVM cell ran",
           str(kv))
report(bool(tc) and tc[0]["status"] == "ok", "the TCG cell of a KVM matrix still runs", str(tc))

# 9. icount (guest time = instructions executed): the same behaviour, and
# the probe's overhead is recorded on that clock.
rows, reads, _, _ = run("icount", ["variant=stock,block", "accel=icount", "cpu=qemu64",
                                   "reads=urandom"])
for r in rows:
    u = reads_of(reads, r["boot_id"])
    t_ready = ready(r)
    u_end = int(u[0]["start_ns"]) + int(u[0]["dur_ns"]) if u else None
    report(r["status"] == "ok" and t_ready is not None and u_end is not None and u_end >= t_ready
           and (num(r, "probe_overhead_ns") or 0) > 0,
           f"icount: {r['variant']} boots, waits for the CRNG and reports the probe's overhead",
           str((r["status"], r["reason"], u_end, t_ready, r["probe_overhead_ns"])))
report(len(rows) == 2, "icount: both boots recorded", f"{len(rows)} rows")

sys.exit(0 if all(results) else 1)
