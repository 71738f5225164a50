#!/usr/bin/env bash
# A small run of the entropy matrix's shape, made in seconds:
#   tests/lib/entropy_run.sh DIR
# The runner boots a cut-down studies/entropy/entropy.matrix (x86_64 and versatilepb;
# icount at two speeds and TCG; the counter, the knob and RDRAND; both rtc
# values) against tests/lib/fake-qemu, which replays the recorded boots of
# tests/fixtures; then each boot's first read's digest, clocksource and
# jitter trial are set here, as such a run's guests would report them
# (those recordings predate the digests and the trial's log), and the
# runner summarizes the result (--summarize). What is set: one digest for
# both boots of a cell under icount with rtc=fixed and the counter (a
# determinism), a boot with no digest, versatilepb's trial giving up at
# shift=auto (the icount setting's shift=1: 500 MHz; 24-25 per bit, cap 6)
# and passing at shift=3 (125 MHz: 3 per bit), under TCG its first trial
# over the cap then a later pass in one boot and a pass at the cap itself
# (6 per bit) in the other, the knob's trial skipped, none under RDRAND.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
synth_begin entropy "${1:-}"
mkdir -p "$work/k/block-hz250" "$work/k/block-hz100-armv5"
echo "ok $fx/block-qemu64.result" >"$work/k/block-hz250/bzImage"
echo "ok $fx/block-versatilepb.result" >"$work/k/block-hz100-armv5/zImage"
: >"$work/k/block-hz100-armv5/versatile-pb.dtb"
cat >"$work/entropy-mini.matrix" <<'EOF'
name = entropy-mini
arch = x86_64,armv5-versatilepb
variant = block
hz = 100,250
accel = icount,tcg
shift = auto,3
cpu = default,qemu64,max
trust_cpu = on
nocounter = off,on
rtc = host,fixed
reads = urandom
trace = off
reps = 2
icount = sleep=off,shift=1
exclude = arch=x86_64 cpu=default
exclude = arch=armv5-versatilepb cpu=qemu64,max
exclude = arch=armv5-versatilepb rtc=fixed
exclude = arch=x86_64 hz=100
exclude = arch=armv5-versatilepb hz=250
exclude = cpu=max nocounter=on
exclude = accel=tcg shift=3
exclude = accel=tcg nocounter=on
exclude = shift=3 cpu=max
exclude = shift=3 nocounter=on
exclude = shift=3 rtc=fixed
timeout = 20
EOF
synth_boot "$work" "$work/entropy-mini.matrix" "$out" --kernels "$work/k"
edit "$out" raw.csv "$(cat <<'PY'
import hashlib
digest = lambda s: hashlib.blake2s(s.encode()).hexdigest()[:16]
for r in rows:
    x86, rep = r["arch"] == "x86_64", int(r["rep"])
    counter = r["nocounter"] == "off" and r["cpu"] != "max"
    r["clocksource"] = "tsc" if x86 else "arm,sp804"
    same = r["accel"] == "icount" and r["rtc"] == "fixed" and counter
    r["urandom_digest"] = digest(r["cell"] if same else r["boot_id"])
    if r["accel"] == "tcg" and r["cpu"] == "max" and r["rtc"] == "host" and rep == 1:
        r["urandom_digest"] = ""
    for k in ("jitter_per_bit", "jitter_differed", "jitter_max_per_bit", "jitter_run_ns", "jitter_skipped"):
        r[k] = ""
    cap = int(r["hz"]) // 15
    if r["nocounter"] == "on":
        r["jitter_skipped"] = "1"
    elif counter:
        if x86:
            per_bit, run_ns = 1, 5000000
        elif r["accel"] == "icount":
            per_bit = {"auto": 24 + rep, "3": 3}[r["shift"]]
            run_ns = 9000000 if per_bit <= cap else None
        else:
            per_bit, run_ns = (8, 300000000) if rep == 0 else (6, 200000000)
        r["jitter_per_bit"], r["jitter_max_per_bit"] = str(per_bit), str(cap)
        r["jitter_run_ns"] = str(run_ns or "")
PY
)"
"$runner" --summarize "$out" --seed 7 >/dev/null
