#!/usr/bin/env bash
# test: resume an interrupted run
# Ctrl-C leaves only complete rows; --resume finishes the run without
# redoing a boot; every table agrees with raw.csv; --rescan re-derives the
# tables from the boots.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "resume"
out=tests/out/resume
rm -rf "$out"
mkdir -p "$(dirname "$out")"
r=(build/crngbench-run --image build/guest.cpio --quiet)
"${r[@]}" --out "$out" --set variant=stock --set cpu=max,qemu64 --set reads=urandom --set reps=2 \
	--set trace=off --seed 3 >/dev/null 2>&1 &
pid=$!
# Interrupt once the first boot is recorded (bounded wait: the run itself
# times out boots, this only avoids waiting for ever if it hangs).
for _ in $(seq 600); do
	[ "$(tail -n +2 "$out/raw.csv" 2>/dev/null | wc -l)" -ge 1 ] && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.2
done
kill -INT $pid
wait $pid
rc=$?
rows=$(tail -n +2 "$out/raw.csv" | wc -l)
if [ $rc -eq 130 ] && [ "$rows" -ge 1 ] && [ "$rows" -lt 4 ] && [ -z "$(tail -c 1 "$out/raw.csv" | tr -d '\n')" ]; then
	echo "PASS: interrupted run keeps only complete rows ($rows of 4)"
else
	echo "FAIL: interrupted run: exit $rc, $rows rows"
fi
before=$(tests/lib/csvget.py "$out/raw.csv" boot_id | sort)
"${r[@]}" --out "$out" --resume >/dev/null 2>&1
rc=$?
ids=$(tests/lib/csvget.py "$out/raw.csv" boot_id | sort)
if [ $rc -eq 0 ] && [ "$(wc -l <<<"$ids")" -eq 4 ] && [ -z "$(uniq -d <<<"$ids")" ] &&
	[ "$(comm -23 <(echo "$before") <(echo "$ids"))" = "" ]; then
	echo "PASS: --resume finishes the run without redoing boots (4 rows, no duplicates)"
else
	echo "FAIL: --resume: exit $rc, ids: $(echo $ids)"
fi
orphans=$(tests/lib/csvget.py "$out/reads.csv" boot_id | sort -u | comm -23 - <(echo "$ids"))
if [ -z "$orphans" ] && [ -s "$out/summary.csv" ]; then
	echo "PASS: reads.csv agrees with raw.csv after resume; summary written"
else
	echo "FAIL: reads.csv has rows of unrecorded boots: $orphans"
fi

# --rescan re-derives the tables from boots/ with this build's classifier:
# unchanged inputs give the same bytes; a result.log cut short turns that
# boot into a corrupt row and leaves the others as they were.
rs=tests/out/rescan
rm -rf "$rs" && cp -r "$out" "$rs"
same_tables() {
	local f
	for f in raw.csv reads.csv traces.csv summary.csv; do cmp -s "$1/$f" "$2/$f" || return 1; done
}
if build/crngbench-run --rescan "$rs" --quiet 2>/dev/null && same_tables "$out" "$rs"; then
	echo "PASS: --rescan of an unchanged run rewrites raw, reads, traces and summary byte for byte"
else
	echo "FAIL: --rescan changed an unchanged run: $(diff "$out/raw.csv" "$rs/raw.csv" | head -3 | tr '\n' ' ')"
fi
victim=$(tests/lib/csvget.py "$rs/raw.csv" boot_id | head -n 1)
log="$rs/boots/$victim/result.log"
head -c $(($(stat -c %s "$log") / 2)) "$log" >"$log.half" && mv "$log.half" "$log"
msg=$(build/crngbench-run --rescan "$rs" --quiet 2>&1)
st=$(tests/lib/csvget.py "$rs/raw.csv" status boot_id="$victim")
others=$(diff <(grep -v "^$victim," "$out/raw.csv") <(grep -v "^$victim," "$rs/raw.csv") | wc -l)
if [ "$st" != ok ] && [ "$others" -eq 0 ] && grep -q "1 changed status" <<<"$msg"; then
	echo "PASS: --rescan after a result.log is cut short: that boot becomes '$st', the others stay"
else
	echo "FAIL: --rescan of a cut result.log: status '$st', $others other lines differ, said: $msg"
fi
rm -rf "$rs/boots"
if ! msg=$(build/crngbench-run --rescan "$rs" 2>&1) && grep -q "needs the run's boots/ directory" <<<"$msg" &&
	[ -z "$(ls "$rs" | grep rescan)" ]; then
	echo "PASS: --rescan without boots/ says what is missing and writes nothing"
else
	echo "FAIL: --rescan without boots/: $msg"
fi
