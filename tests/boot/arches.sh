#!/usr/bin/env bash
# test: the revert's architectures: cross kernels, probe-only boots
# The revert's architectures (studies/arches/arches.matrix), one machine per kernel
# architecture: armv5-versatilepb (the machine of the 2022 report),
# m68k-virt, mipsel-malta. Builds block for each (tests/run.sh calls this
# after the x86 kernels), checks that the running kernel names arch and
# variant, then boots block:
#   - bootseed=on (the boot-loader seed credited), under TCG: ready, the
#     read returns; not booted where there is none to credit
#     (bench/machines/arch.c): m68k's kernel never credits it, QEMU gives
#     versatilepb none. TCG because the outcome does not depend on the
#     clock and malta's boot costs ~60 s of host time under icount (its
#     kernel calibrates the CP0 count against the RTC for 1-2 guest
#     seconds of port I/O before the clock starts) and ~10 s under TCG;
#   - bootseed=off, under icount: the outcome REPORT.md's "revert's architectures" table
#     states for a 60 s budget: armv5-versatilepb still waiting (the SP804
#     fallback clocksource fails the jitter test under icount), m68k-virt
#     and mipsel-malta ready (goldfish timer, CP0 count) and the read back;
#     the kernel's own log of that jitter trial (patch 0005) says the same,
#     and each machine's clocksource rate comes from its kernel log.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "arches"
kernels=$(kernel/build.sh --kernels-dir)
out=tests/out/arches
rm -rf "$out" "$out.log" "$out".build*.log
mkdir -p "$(dirname "$out")"
machines=armv5-versatilepb,m68k-virt,mipsel-malta
karches=$(build/crngbench-run --matrix studies/arches/arches.matrix --set arch=$machines --print-axis kernel_arch)

built=1
for a in ${karches//,/ }; do
	blog=$out.build-$a.log
	if ! make -s kernels MATRIX=arches KERNEL_ARCH="$a" SETS="--set variant=block --set arch=$machines" \
		>"$blog" 2>&1; then
		bad "block does not build for $a: $(tail -n 3 "$blog" | tr '\n' ' ')"
		built=0
	elif [ -n "${CRNGBENCH_KERNEL_LEDGER:-}" ]; then
		# under make check: this step built or found exactly these kernels
		read -r b _ h _ < <(build/crngbench-run --matrix studies/arches/arches.matrix --set arch=$machines \
			--set variant=block --print-axis kernels | awk -v a="$a" '$2 == a')
		tests/lib/kernel_accounting.sh account "$blog" "$b" "$a" "$h" block
	fi
done
[ "$built" = 1 ] || exit 0
ok "the patch series applies and block builds for ${karches//,/, }"

# malta's boot loader passes at most 209 bytes of our command line: a cell
# whose line is longer (here: five reads and the knob) is refused before
# any boot, results dir untouched.
rm -rf "$out.long"
msg=$(timeout 60 build/crngbench-run --kernels "$kernels" --out "$out.long" --set arch=mipsel-malta --set hz=100 \
	--set trace=off --set cpu=default --set variant=block --set nocounter=on --set accel=tcg \
	--set reads=urandom:urandom-nb:random:getrandom:getrandom-nb 2>&1)
rc=$?
[ $rc -eq 2 ] && [ ! -e "$out.long" ] && grep -q "this machine's boot loader passes at most 209" <<<"$msg" &&
	ok "a malta cell whose command line QEMU would cut is refused before the sweep" ||
	bad "malta's command-line limit: rc=$rc, $(tail -n 1 <<<"$msg")"

if ! build/crngbench-run --matrix studies/arches/arches.matrix --kernels "$kernels" --quiet --out "$out" --seed 7 \
	--set arch=$machines --set variant=block --set accel=icount,tcg --set bootseed=off,on --set nocounter=off \
	--set 'exclude=accel=icount bootseed=on' --set 'exclude=accel=tcg bootseed=off' \
	--set reps=1 --set read_timeout.icount=60 --set ready_timeout.icount=60 --set timeout.icount=120 \
	>"$out.log" 2>&1; then
	bad "the run failed: $(tail -n 3 "$out.log" | tr '\n' ' ')"
	exit 0
fi

/usr/bin/python3 - "$out/raw.csv" <<'PY'
import csv, sys
rows = {(r["arch"], r["bootseed"]): r for r in csv.DictReader(open(sys.argv[1]))}
karch = {"armv5-versatilepb": "armv5", "m68k-virt": "m68k", "mipsel-malta": "mipsel"}
# bootseed=off: what REPORT.md's table says for a 60 s budget
expect_off = {"armv5-versatilepb": "waiting", "m68k-virt": "ready", "mipsel-malta": "ready"}
# and the kernel's jitter trial (patch 0005's log line, as the probe read it)
expect_trial = {"armv5-versatilepb": "gives up", "m68k-virt": "runs", "mipsel-malta": "runs"}


def say(ok, what):
    print(("PASS: " if ok else "FAIL: ") + "arches: " + what)


def outcome(r):
    if r["status"] != "ok":
        return f"status {r['status']} ({r['reason']})"
    if r["first_urandom_censored"] == "1":
        return "waiting"
    return "ready" if r["crng_ready_ns"] and r["first_urandom_end_ns"] else "no data"


for m, a in karch.items():
    r = rows.get((m, "off"))
    if r is None:
        say(False, f"{m}: no bootseed=off boot in raw.csv")
        continue
    want = f"-crngbench-block-hz100-{a}"
    say(r["release"].endswith(want), f"{m}: the running kernel's release '{r['release']}' names arch and variant ({want})")
    got = outcome(r)
    say(got == expect_off[m], f"{m}, block, no boot-loader seed: {got} at a 60 s budget "
        f"(REPORT.md: {expect_off[m]}; clocksource {r['clocksource'] or '?'})")
    if r["jitter_per_bit"] and r["jitter_max_per_bit"]:
        trial = "runs" if int(r["jitter_per_bit"]) <= int(r["jitter_max_per_bit"]) else "gives up"
        trial_words = f"{trial} ({r['jitter_per_bit']} samples per bit, at most {r['jitter_max_per_bit']})"
    else:
        trial = trial_words = "not logged"
    say(trial == expect_trial[m], f"{m}, block, no seed: the kernel's jitter trial {trial_words} "
        f"(REPORT.md: {expect_trial[m]})")
    say(bool(r["clocksource_hz"]), f"{m}: the rate of its clocksource '{r['clocksource']}' comes from the guest's "
        f"kernel log ({r['clocksource_hz'] or 'missing'} Hz)")
    on = rows.get((m, "on"))
    if m in ("m68k-virt", "armv5-versatilepb"):
        say(on is None, f"{m}: bootseed=on is not booted (no seed to credit, bench/machines/arch.c)")
        continue
    got = outcome(on) if on else "not booted"
    say(got == "ready", f"{m}, block, boot-loader seed credited: {got} (expected ready, the read returned)")
PY
