#!/usr/bin/env bash
# A small run of the bases matrix's shape, made in seconds:
#   tests/lib/bases_run.sh DIR
# The runner boots both kernel bases (6.1, 6.12; kernels in a scratch
# CRNGBENCH_CACHE) on x86_64 (the counter with and without RDRAND, the
# knob) and versatilepb against tests/lib/fake-qemu, which replays the
# recorded boots of tests/fixtures; then each 6.12 boot's first read is
# made later (x1.5) and one cell's 6.12 read censored, and the runner
# summarizes the result (--summarize).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
synth_begin bases "${1:-}"
for b in 6.1 6.12; do
	k=$work/cache/kernels/$b
	mkdir -p "$k/block-hz250" "$k/block-hz100-armv5"
	echo "ok $fx/block-qemu64.result" >"$k/block-hz250/bzImage"
	echo "ok $fx/block-versatilepb.result" >"$k/block-hz100-armv5/zImage"
	: >"$k/block-hz100-armv5/versatile-pb.dtb"
done
cat >"$work/bases-mini.matrix" <<'M'
name = bases-mini
base = 6.1,6.12
arch = x86_64,armv5-versatilepb
variant = block
hz = 100,250
accel = icount
cpu = default,qemu64,max
trust_cpu = on
nocounter = off,on
reads = urandom
trace = off
reps = 2
exclude = arch=x86_64 cpu=default
exclude = arch=armv5-versatilepb cpu=qemu64,max
exclude = arch=x86_64 hz=100
exclude = arch=armv5-versatilepb hz=250
exclude = arch=armv5-versatilepb nocounter=on
exclude = cpu=max nocounter=on
timeout = 20
M
CRNGBENCH_CACHE=$work/cache synth_boot "$work" "$work/bases-mini.matrix" "$out"
edit "$out" raw.csv "$(cat <<'PY'
for r in rows:
    if r["base"] == "6.12" and r["first_urandom_end_ns"]:
        r["first_urandom_end_ns"] = str(int(r["first_urandom_end_ns"]) * 3 // 2 + 1000 * int(r["rep"]))
        if r["nocounter"] == "on":
            r["first_urandom_censored"] = "1"
PY
)"
"$runner" --summarize "$out" --seed 7 >/dev/null
