#!/usr/bin/env bash
# test: per-machine quirks against fake-qemu
# The per-machine quirks of bench/machines/arch.c, each against tests/lib/fake-qemu
# behaving as that machine does (its docstring), booting the recorded
# probe-only boots of tests/fixtures (versatilepb, q800, malta; m68k virt
# runs q800's: one m68k kernel):
#   halts            malta halts after its report and QEMU stays: the boot
#                    ends at the report's terminator (host_ended=1, ok),
#                    not at the timeout (5 s here, below the 10 s grace a
#                    machine that exits by itself gets)
#   channel_console  q800's report shares the console's line: parsed from
#                    it, and console.log is QEMU's copy of that line
#   rtc_vm           malta and m68k virt clock the guest from the RTC:
#                    under icount it must run on the virtual clock, or
#                    guest times follow the host's; the rows carry the
#                    fixture's own guest times
#   seed_absent      versatilepb gets no boot-loader seed: bootseed=on is
#                    refused before any boot
# Each machine's QEMU is found on PATH (tests/lib/fake-qemu linked under its
# name), as in a run; tests/fast/golden_cmdlines.sh pins their command lines.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "machine quirks"
runner=${CRNGBENCH_RUNNER:-build/crngbench-run}
get() { tests/lib/csvget.py "$@"; }
fx=$PWD/tests/fixtures
# A record's field in a fixture, read here, not by the code under test.
field() { grep -m1 "^$2 " "$fx/$1" | grep -o " $3=[^ ]*" | cut -d= -f2; }

mkdir -p "$tmp/bin" "$tmp/build"
for q in arm m68k mipsel; do ln -s "$PWD/tests/lib/fake-qemu" "$tmp/bin/qemu-system-$q"; done
k=$tmp/kernels
mkdir -p "$k/ok-hz100-armv5" "$k/ok-hz100-m68k" "$k/ok-hz100-mipsel"
echo "ok $fx/block-versatilepb.result" >"$k/ok-hz100-armv5/zImage"
: >"$k/ok-hz100-armv5/versatile-pb.dtb"
echo "ok $fx/block-q800.result" >"$k/ok-hz100-m68k/vmlinux"
echo "ok $fx/block-malta.result" >"$k/ok-hz100-mipsel/vmlinux"
for a in guest probe-armv5 probe-m68k probe-mipsel; do : >"$tmp/build/$a.cpio"; done
run=(timeout 60 "$runner" --kernels "$k" --image "$tmp/build/guest.cpio" --quiet --seed 3 --set variant=ok
	--set hz=100 --set cpu=default --set trace=off --set reads=urandom --set reps=1)

# One run: every machine under TCG and icount, 8 boots; a timeout of 5 s.
PATH="$tmp/bin:$PATH" "${run[@]}" --out "$tmp/q" --parallel-jobs 2 --set timeout=5 \
	--set arch=armv5-versatilepb,m68k-virt,m68k-q800,mipsel-malta --set accel=tcg,icount >"$tmp/q.log" 2>&1 ||
	bad "the run exited $?: $(tail -n 3 "$tmp/q.log" | tr '\n' ' ')"
raw=$tmp/q/raw.csv
[ -f "$raw" ] || exit 1
row() { get "$raw" "$1" arch="$2" accel="$3"; }
boot() { echo "$tmp/q/boots/$(row boot_id "$1" "$2")"; }

# halts: malta ended at its terminator; the others exited by themselves.
for acc in tcg icount; do
	st=$(row status mipsel-malta $acc) he=$(row host_ended mipsel-malta $acc)
	[ "$st" = ok ] && [ "$he" = 1 ] &&
		ok "malta ($acc) halts after its report: the runner ends it at the terminator (host_ended=1, ok)" ||
		bad "malta ($acc) halts after its report: status '$st', host_ended '$he' (want ok, 1: ended at the terminator, not the ${acc} timeout): $(row reason mipsel-malta $acc)"
done
he=$(get "$raw" host_ended accel=tcg | sort | uniq -c | tr -s ' ' | paste -sd,)
[ "$(get "$raw" host_ended arch=m68k-q800 accel=tcg)" = 0 ] &&
	[ "$(get "$raw" qemu_exit arch=armv5-versatilepb accel=tcg)" = 0 ] &&
	ok "a machine that exits by itself is not ended by the runner (host_ended=0, QEMU's exit 0)" ||
	bad "machines that exit: host_ended per TCG row: $he, versatilepb qemu_exit '$(get "$raw" qemu_exit arch=armv5-versatilepb accel=tcg)'"

# channel_console: q800's report is parsed from the console's line.
want=$(field block-q800.result read dur_ns)
for acc in tcg icount; do
	st=$(row status m68k-q800 $acc) dur=$(row first_urandom_dur_ns m68k-q800 $acc)
	con=$(boot m68k-q800 $acc)/console.log
	if [ "$st" = ok ] && [ "$dur" = "$want" ] && grep -q "Linux version" "$con" &&
		grep -q "^crngbench/1 seg=report" "$con" && grep -q "Linux version" "${con%/*}/result.log"; then
		ok "q800 ($acc): the report on the console's line is parsed (first read $dur ns); console.log is QEMU's copy of that line"
	else
		bad "q800 ($acc) report on the console's line: status '$st' ($(row reason m68k-q800 $acc)), first read '$dur' ns (fixture: $want); console.log: $(grep -c . "$con" 2>/dev/null) lines, $(grep -c '^crngbench/1' "$con" 2>/dev/null) segment headers"
	fi
done

# rtc_vm: under icount the guest clocks count instructions, so the rows
# hold the recorded boot's guest times, not ones that follow the host.
for m in mipsel-malta:block-malta.result m68k-virt:block-q800.result; do
	want=$(field "${m#*:}" read dur_ns) rep=$(field "${m#*:}" "event name=report" t_ns)
	dur=$(row first_urandom_dur_ns "${m%%:*}" icount) got=$(row report_ns "${m%%:*}" icount)
	[ "$dur" = "$want" ] && [ "$got" = "$rep" ] &&
		ok "${m%%:*} under icount: the guest's RTC runs on the virtual clock (first read $dur ns, report at $got ns, as recorded)" ||
		bad "${m%%:*} under icount: first read '$dur' ns, report at '$got' ns; recorded $want and $rep (guest time that follows the host: no -rtc clock=vm?)"
done
n=$(get "$raw" status | grep -c '^ok$')
[ "$n" -eq 8 ] && ok "every machine boots through its own QEMU (PATH), its console and result channel: 8 of 8 ok" ||
	bad "$n of 8 boots ok: $(get "$raw" status | paste -sd,) $(get "$raw" reason | grep . | head -n 2 | tr '\n' ' ')"

# seed_absent: versatilepb with bootseed=on is refused before any boot.
msg=$(PATH="$tmp/bin:$PATH" "${run[@]}" --out "$tmp/seed" --set arch=armv5-versatilepb --set bootseed=off,on 2>&1)
rc=$?
[ $rc -eq 2 ] && grep -q "QEMU gives this machine no boot-loader seed" <<<"$msg" && [ ! -e "$tmp/seed" ] &&
	ok "versatilepb with bootseed=on is refused before any boot: no seed to credit" ||
	bad "versatilepb bootseed=on: exit $rc, $(head -c 200 <<<"$msg"), results directory $([ -e "$tmp/seed" ] && echo created || echo absent)"
