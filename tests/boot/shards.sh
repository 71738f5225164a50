#!/usr/bin/env bash
# test: shards of a run, booted and merged
# Two shards of one matrix boot disjoint halves; merged, they are the matrix.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "shards"
base=tests/out/shards
rm -rf "$base"; mkdir -p "$base"
# Every QEMU runs under perf stat (--perf): the shards of one run are
# started alike (--merge compares their run.args).
r=(build/crngbench-run --image build/guest.cpio --quiet --seed 11 --set variant=stock,block
	--set cpu=max --set reads=urandom --set trace=off --set reps=1 --perf)
ok=1
"${r[@]}" --shard 1/2 --out "$base/s1" >/dev/null 2>&1 || ok=0
"${r[@]}" --shard 2/2 --out "$base/s2" >/dev/null 2>&1 || ok=0
a=$(tests/lib/csvget.py "$base/s1/raw.csv" boot_id 2>/dev/null | sort)
b=$(tests/lib/csvget.py "$base/s2/raw.csv" boot_id 2>/dev/null | sort)
if [ $ok = 1 ] && [ -n "$a" ] && [ -n "$b" ] && [ -z "$(comm -12 <(echo "$a") <(echo "$b"))" ]; then
	echo "PASS: shards 1/2 and 2/2 boot disjoint parts of the matrix"
else
	bad "s1={$a} s2={$b}"
fi
if build/crngbench-run --quiet --merge "$base/merged" "$base/s1" "$base/s2" >/dev/null 2>&1 &&
	[ "$(tail -n +2 "$base/merged/raw.csv" | wc -l)" -eq 2 ] && [ -s "$base/merged/summary.csv" ]; then
	echo "PASS: merged shards hold the whole matrix (2 boots) and a summary"
else
	echo "FAIL: --merge did not produce the whole matrix"
fi
if build/crngbench-run --quiet --merge "$base/twice" "$base/s1" "$base/s1" >/dev/null 2>&1; then
	echo "FAIL: merging a shard with itself was accepted"
else
	echo "PASS: merging the same boots twice is refused"
fi
tc=$(tests/lib/csvget.py "$base/s1/raw.csv" host_task_clock_ns 2>/dev/null | head -n 1)
if [ -n "$tc" ] && [ "$tc" -gt 0 ] 2>/dev/null; then
	echo "PASS: --perf records QEMU's task-clock from perf stat"
else
	echo "FAIL: --perf: no task-clock in raw.csv ('$tc')"
fi
