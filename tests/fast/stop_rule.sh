#!/usr/bin/env bash
# test: the stop rule against fake-qemu (identical, precise, limit, the same-second trap)
# The stop rule (bench/summary/stop.h) against tests/lib/fake-qemu: boots that agree
# and got different inputs stop as identical at min_reps; boots that
# differ run until precise or to reps; boots that agree with nothing varied
# between them (rtc=fixed, no saved seed: the same-second trap) run to
# reps. summary.csv says boots and why; --resume, shards, --merge and
# runstate go by the same rule; bad settings are refused by name. Seconds.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "stop rule"
fx=$PWD/tests/fixtures/block-qemu64.result
runner=${CRNGBENCH_RUNNER:-build/crngbench-run}
get() { tests/lib/csvget.py "$@"; }
k=$tmp/kernels
scen ok "ok $fx"
scen slow "slow-ok $fx 0.3"
scen tight "vary $fx 1"
scen wide "vary $fx 60"
touch "$tmp/image"
run=(timeout 120 "$runner" --qemu tests/lib/fake-qemu --kernels "$k" --image "$tmp/image" --quiet --kvm-canary 1
	--set accel=icount)
# boots DIR VARIANT [KEY=VALUE...]: "boots,stop" of the cell in summary.csv
verdict() {
	local d=$1 v=$2
	shift 2
	echo "$(get "$d/summary.csv" boots measure=crng_ready variant="$v" "$@"),$(get "$d/summary.csv" stop measure=crng_ready variant="$v" "$@")"
}
rows() { get "$1/raw.csv" boot_id "${@:2}" | wc -l; }

# 1. Identical boots with different inputs (a saved seed each) stop at
# min_reps; with nothing varied (rtc=fixed, seed=none) they run to reps.
"${run[@]}" --out "$tmp/same" --seed 3 --parallel-jobs 1 --set variant=ok --set reps=6 --set rtc=fixed \
	--set seed=saved,none >"$tmp/same.log" 2>&1 || bad "the identical run failed: $(tail -n 2 "$tmp/same.log")"
[ "$(verdict "$tmp/same" ok seed=saved)" = "2,identical" ] && [ "$(rows "$tmp/same" seed=saved)" -eq 2 ] &&
	ok "boots alike to the nanosecond with different seeds stop as identical at min_reps (2)" ||
	bad "identical with different seeds: $(verdict "$tmp/same" ok seed=saved), $(rows "$tmp/same" seed=saved) rows"
[ "$(verdict "$tmp/same" ok seed=none)" = "6,limit" ] && [ "$(rows "$tmp/same" seed=none)" -eq 6 ] &&
	ok "the same-second trap: boots alike with no input varied run to reps (6), never 'identical'" ||
	bad "same inputs: $(verdict "$tmp/same" ok seed=none), $(rows "$tmp/same" seed=none) rows"
[ "$(get "$tmp/same/raw.csv" input_seed seed=saved | sort -u | wc -l)" -eq 2 ] &&
	[ -z "$(get "$tmp/same/raw.csv" input_seed seed=none | tr -d '\n')" ] &&
	[ -z "$(get "$tmp/same/raw.csv" input_rtc_s | tr -d '\n')" ] &&
	ok "raw.csv records each boot's inputs (input_seed under seed=saved; no RTC second under rtc=fixed)" ||
	bad "inputs recorded: seeds $(get "$tmp/same/raw.csv" input_seed | tr '\n' ' ') rtc $(get "$tmp/same/raw.csv" input_rtc_s | tr '\n' ' ')"
"${run[@]}" --out "$tmp/min" --seed 3 --parallel-jobs 1 --set variant=ok --set reps=6 --set min_reps=4 \
	--set seed=saved >/dev/null 2>&1
[ "$(verdict "$tmp/min" ok)" = "4,identical" ] && ok "min_reps=4 holds the stop back to 4 boots" ||
	bad "min_reps=4: $(verdict "$tmp/min" ok)"

# 2. Boots that differ: within 1% of each other precise at 5 boots; 60%
# apart, to reps. Several at once: boots started before the stop are kept.
"${run[@]}" --out "$tmp/vary" --seed 3 --parallel-jobs 1 --set variant=tight,wide --set reps=8 --set rtc=fixed \
	>"$tmp/vary.log" 2>&1 || bad "the varying run failed: $(tail -n 2 "$tmp/vary.log")"
[ "$(verdict "$tmp/vary" tight)" = "5,precise" ] && [ "$(verdict "$tmp/vary" wide)" = "8,limit" ] &&
	ok "boots that differ: 1% apart stop as precise at 5 boots, 60% apart run to the limit (8)" ||
	bad "varying boots: tight $(verdict "$tmp/vary" tight), wide $(verdict "$tmp/vary" wide)"
"${run[@]}" --out "$tmp/par" --seed 3 --parallel-jobs 4 --set variant=ok --set reps=8 --set seed=saved \
	>/dev/null 2>&1
n=$(rows "$tmp/par")
[ "$(get "$tmp/par/summary.csv" stop measure=crng_ready)" = identical ] && [ "$n" -ge 2 ] &&
	[ "$(get "$tmp/par/summary.csv" boots measure=crng_ready)" = "$n" ] &&
	ok "4 boots at once: the cell stops as identical; the $n boots run are kept and counted" ||
	bad "parallel stop: $n rows, $(verdict "$tmp/par" ok)"

# 3. The table says "identical in k boots" where the summary does; a
# varying cell keeps its CI.
PYTHONPATH=plots python3 - "$tmp/same" "$tmp/vary" <<'PY' &&
import sys
import cells, runlib
same = {r["seed"]: cells.fmt(r) for r in runlib.summary_rows(sys.argv[1]) if r["measure"] == "crng_ready"}
vary = [cells.fmt(r) for r in runlib.summary_rows(sys.argv[2]) if r["measure"] == "crng_ready"]
assert same["saved"].endswith("(identical in 2 boots)"), same
assert "[" in same["none"] and "identical" not in same["none"], same
assert all("[" in v for v in vary), vary
PY
	ok "tables: 'identical in 2 boots' for an identical cell, median [CI] for the others" ||
	bad "tables' text for the stop"

# 4. --resume: an interrupted identical cell stops at 2 boots in all;
# resuming a finished run boots nothing.
"${run[@]:2}" --out "$tmp/kill" --seed 7 --parallel-jobs 1 --set variant=slow --set reps=6 --set seed=saved \
	>/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do
	[ "$(tail -n +2 "$tmp/kill/raw.csv" 2>/dev/null | wc -l)" -ge 1 ] && break
	sleep 0.05
done
kill -KILL $pid
wait $pid 2>/dev/null
before=$(rows "$tmp/kill")
"${run[@]:0:3}" --qemu tests/lib/fake-qemu --kernels "$k" --image "$tmp/image" --quiet --out "$tmp/kill" --resume \
	>/dev/null 2>&1
[ "$before" -ge 1 ] && [ "$(verdict "$tmp/kill" slow)" = "2,identical" ] && [ "$(rows "$tmp/kill")" -eq 2 ] &&
	ok "--resume after SIGKILL ($before boot before) judges the boots raw.csv holds: identical at 2" ||
	bad "resume: $before before, $(verdict "$tmp/kill" slow), $(rows "$tmp/kill") rows"
sum=$(md5sum <"$tmp/vary/raw.csv")
out=$("${run[@]:0:3}" --qemu tests/lib/fake-qemu --kernels "$k" --image "$tmp/image" --out "$tmp/vary" --resume 2>&1)
[ "$(md5sum <"$tmp/vary/raw.csv")" = "$sum" ] && grep -q "0/0 boots done" <<<"$out" &&
	[ "$(plots/runstate.py "$tmp/vary")" = "complete 13" ] &&
	ok "--resume of a run whose cells all stopped boots nothing; runstate: complete 13 (of 16 planned)" ||
	bad "resume of a finished run: runstate $(plots/runstate.py "$tmp/vary"); $(tail -n 2 <<<"$out")"

# 5. Shards: a cell's boots in one shard, judged there; --merge asks for
# the boots the rule needs, and refuses a shard that lacks one of them.
for s in 1 2; do
	"${run[@]}" --out "$tmp/s$s" --seed 9 --shard $s/2 --parallel-jobs 1 --set variant=ok,wide --set reps=4 \
		--set seed=saved >/dev/null 2>&1 || bad "shard $s/2 failed"
done
c1=$(get "$tmp/s1/raw.csv" cell | sort -u | tr '\n' ' ')
c2=$(get "$tmp/s2/raw.csv" cell | sort -u | tr '\n' ' ')
[ "$(wc -w <<<"$c1")" -eq 1 ] && [ "$(wc -w <<<"$c2")" -eq 1 ] && [ "$c1" != "$c2" ] &&
	ok "each shard boots one cell of two, all of its boots ($c1/ $c2)" || bad "shards: cells {$c1} {$c2}"
"$runner" --quiet --merge "$tmp/merged" "$tmp/s1" "$tmp/s2" >/dev/null 2>"$tmp/merge.err"
[ "$(verdict "$tmp/merged" ok)" = "2,identical" ] && [ "$(verdict "$tmp/merged" wide)" = "4,limit" ] &&
	ok "--merge of the shards: 2 identical boots of one cell, 4 of the other (the limit)" ||
	bad "merge: $(verdict "$tmp/merged" ok) $(verdict "$tmp/merged" wide) $(head -c 300 "$tmp/merge.err")"
for s in 1 2; do grep -q ',wide,' "$tmp/s$s/raw.csv" && w=$s; done
cp -r "$tmp/s$w" "$tmp/short"
sed -i '$d' "$tmp/short/raw.csv"
msg=$("$runner" --quiet --merge "$tmp/merged2" "$tmp/short" "$tmp/s$((3 - w))" 2>&1)
[ $? -ne 0 ] && grep -q "stop rule still needs" <<<"$msg" && [ ! -e "$tmp/merged2/raw.csv" ] &&
	ok "--merge refuses a shard lacking a boot its cell's stop rule needs" || bad "short shard merged: $msg"

# 6. Bad settings: named, with what is accepted.
for spec in "min_reps=5 reps=3|min_reps=5 is above reps=3" "min_reps=0|min_reps=0: need a whole number" \
	"precision=0|precision=0: need a whole number of percent" "precision=5%|precision=5%"; do
	sets=() && for kv in ${spec%%|*}; do sets+=(--set "$kv"); done
	msg=$("$runner" --print-axis plan "${sets[@]}" 2>&1) && bad "${spec%%|*} accepted" ||
		{ grep -qF "${spec#*|}" <<<"$msg" && ok "${spec%%|*} refused: $(head -c 100 <<<"$msg")" ||
			bad "${spec%%|*}: $msg"; }
done
