#!/usr/bin/env bash
# test: the runner against tests/lib/fake-qemu: how boots end
# runs: beside
# How a boot's processes and console end, against tests/lib/fake-qemu (out of
# tests/fast/fake_boots.sh, so that the mutation check's breakages of
# bench/boot/leftovers.c and bench/boot/slot.c are caught in seconds, not minutes):
#  - QEMU fails (exit 1, SIGSEGV) while a daemon it double-forked keeps its
#    pipes open: the row follows QEMU, the daemon is ended with a warning,
#    and a child the runner inherited is left alone (bench/boot/leftovers.c);
#  - a guest that floods its console: the boot is corrupt and console.log
#    cut at 16 MiB (bench/boot/slot.c).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "fake boots, ends"
runner=${CRNGBENCH_RUNNER:-build/crngbench-run}
get() { tests/lib/csvget.py "$@"; }
k=$tmp/kernels
for s in fail-daemon crash-daemon console-flood; do scen "$s" "$s"; done
touch "$tmp/image"
run=(timeout 120 "$runner" --qemu tests/lib/fake-qemu --kernels "$k" --image "$tmp/image" --quiet
	--kvm-canary 1)

# QEMU fails (exit 1, SIGSEGV) while a daemon it double-forked into a
# session of its own keeps its pipes open: the row follows what QEMU did,
# well before the timeout; the daemon is ended, with a warning. A child the
# runner inherited (a shell exec'd it from a process with a child) is not.
SECONDS=0
bash -c 'sleep 60 & echo $! >"$1"; shift; exec "$@"' _ "$tmp/inherited" "${run[@]}" --out "$tmp/daemon" \
	--parallel-jobs 2 --set accel=icount --set timeout=30 --set reps=1 --set variant=fail-daemon,crash-daemon \
	>"$tmp/daemon.log" 2>&1
took=$SECONDS
inherited=$(cat "$tmp/inherited")
kill -0 "$inherited" 2>/dev/null && kill "$inherited" && ok "a child the runner inherited is not taken for a leftover" ||
	bad "the runner's inherited child (pid $inherited) was ended"
for v in fail-daemon:"status 1: qemu-system-x86_64: something went wrong" crash-daemon:"signal 11"; do
	st=$(get "$tmp/daemon/raw.csv" status variant="${v%%:*}")
	re=$(get "$tmp/daemon/raw.csv" reason variant="${v%%:*}")
	[ "$st" = qemu-failed ] && grep -q -- "${v#*:}" <<<"$re" && [ "$took" -lt 30 ] &&
		ok "${v%%:*}: a failed QEMU whose daemon holds its pipes is qemu-failed ($re) in ${took} s, not a timeout" ||
		bad "${v%%:*}: status '$st', reason '$re', the run took ${took} s (timeout 30)"
done
left=0
for d in $(grep -ho 'daemon pid [0-9]*' "$tmp"/daemon/boots/*/console.log | awk '{print $3}'); do
	kill -0 "$d" 2>/dev/null && left=$((left + 1)) && kill "$d"
done
[ "$(grep -ho 'daemon pid [0-9]*' "$tmp"/daemon/boots/*/console.log | wc -l)" -eq 2 ] && [ $left -eq 0 ] &&
	[ "$(grep -c 'outlived QEMU' "$tmp/daemon.log")" -ge 2 ] &&
	ok "daemons that outlive QEMU in a session of their own are ended, with a warning" ||
	bad "daemons: $left of 2 left running; warnings: $(grep -c 'outlived QEMU' "$tmp/daemon.log")"

# A guest that floods its console: the boot ends as corrupt and
# console.log is cut at 16 MiB, as the result channel is. The timeout is
# ~15x what the cut takes on the idle reference machine (1 s): enough for
# a busy one, and a console left uncapped (the mutation check's breakage)
# is caught in 15 s, with 15 s of console on disk, not a minute's.
SECONDS=0
"${run[@]}" --out "$tmp/cflood" --set variant=console-flood --set reps=1 --set timeout=15 >/dev/null 2>&1
took=$SECONDS
size=$(stat -c %s "$tmp"/cflood/boots/*/console.log)
re=$(get "$tmp/cflood/raw.csv" reason)
[ "$(get "$tmp/cflood/raw.csv" status)" = corrupt ] && grep -q "console" <<<"$re" && [ "$size" -le $((16 << 20)) ] &&
	[ "$took" -lt 15 ] && ok "a flooding console is cut at 16 MiB and the boot is corrupt ($re)" ||
	bad "console flood: status '$(get "$tmp/cflood/raw.csv" status)', reason '$re', console.log $size bytes, ${took} s"

