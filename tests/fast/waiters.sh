#!/usr/bin/env bash
# test: the waiters axis (more getrandom(0) waiters beside the early reads)
# The waiters axis (more getrandom(0) waiters beside the early reads),
# against tests/lib/fake-qemu and stand-in kernels:
#   waiters  0 (the default: the command line as before) to 7
#            (crngbench_waiters=N: PID 1 forks N processes, each blocked
#            in getrandom(0) until the CRNG is ready); anything else is
#            refused naming what is accepted; every machine takes it
# and boots replayed from real channels with waiter records added to the
# report segment (some a hostile guest's): raw.csv's waiters column,
# waiters_done (only the cell's waiters, each once) and
# waiters_last_end_ns, on x86 and on a probe-only machine; a waiters=0
# boot keeps them empty; a run from before the axis reads as waiters=0;
# studies/waiters/tables.py refuses a waiters value the runner would not write.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "waiters"
root=$PWD
runner=$root/${CRNGBENCH_RUNNER:-build/crngbench-run}
# every machine's QEMU is tests/lib/fake-qemu (no real QEMU)
# shellcheck source=tests/lib/fake-qemu-path.sh
. tests/lib/fake-qemu-path.sh
fake_qemu_path "$tmp/fake" || { echo "FAIL: cannot link tests/lib/fake-qemu"; exit 0; }
get() { "$root/tests/lib/csvget.py" "$@"; }

empty_files "$tmp" k/stock-hz250/bzImage k/stock-hz100-armv5/zImage k/stock-hz100-armv5/versatile-pb.dtb \
	image probe-armv5.cpio
# shellcheck source=tests/lib/refused.sh
. "$root/tests/lib/refused.sh"
refused_args=(--dry-run)

for v in -1 8 x 03; do
	refused "waiters=$v is refused, naming the accepted values" \
		"waiters=$v: accepted values are 0 to 7: how many more processes PID 1 forks just before its early reads, each blocked in getrandom(0) until the CRNG is ready (with reads=getrandom, waiters=N makes N + 1 concurrent waiters)" \
		--set "waiters=$v"
done

# 0 keeps the command line of a matrix without the axis; N adds one word,
# on the systemd guest and on a probe-only machine
norm() { sed -E 's/tsc_early_khz=[0-9]+ /tsc_early_khz=N /; s/^c[0-9]+-r0: //; s/c[0-9]+-r0/cX-r0/g'; }
for m in x86_64 armv5-versatilepb; do
	sets=(--set "arch=$m" --set accel=icount --set reps=1)
	[ $m = x86_64 ] || sets+=("${probe[@]}")
	dry() { "$runner" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/d" --seed 1 "${sets[@]}" "$@" --dry-run 2>&1; }
	plain=$(dry | grep '^c0-r0: ' | norm)
	out=$(dry --set waiters=0,1,3,7)
	zero=$(grep '^c0-r0: ' <<<"$out" | norm)
	lines=$(grep -E '^c[1-3]-r0: ' <<<"$out" | norm | sed -E "s/ crngbench_waiters=[137]'\$/'/" | sort -u)
	knobs=$(grep -oE "crngbench_waiters=[0-9]+'\$" <<<"$out" | tr -d "'" | sort | paste -sd' ')
	[ -n "$plain" ] && [ "$zero" = "$plain" ] && [ "$lines" = "$plain" ] &&
		[ "$knobs" = "crngbench_waiters=1 crngbench_waiters=3 crngbench_waiters=7" ] &&
		ok "$m: waiters=0 is the line without the axis; waiters=1,3,7 add crngbench_waiters=N alone" ||
		bad "$m: knobs '$knobs'; zero: $(brief "$zero"); others: $(brief "$lines")"
done

# segment_with FIXTURE OUT RECORD...: FIXTURE's channel with RECORDs added
# at the end of its report segment, count and CRC made anew (record.h).
segment_with() {
	python3 - "$@" <<'PY'
import re, sys, zlib
src, dst, *recs = sys.argv[1:]
text = open(src, encoding="utf-8", errors="surrogateescape").read()
m = re.search(r"(crngbench/1 seg=report\n)(.*?)end n=(\d+) crc=[0-9a-f]{8}\n", text, re.S)
assert m, "no report segment in " + src
body = m.group(1) + m.group(2) + "".join(r + "\n" for r in recs)
seg = body + f"end n={int(m.group(3)) + len(recs)} crc={zlib.crc32(body.encode('utf-8', 'surrogateescape')):08x}\n"
open(dst, "w", encoding="utf-8", errors="surrogateescape").write(text[:m.start()] + seg + text[m.end():])
PY
}

# x86: block's boot with three waiters, two of which returned (i=0, 2)
# before the report; a hostile guest's extra records: i out of bounds, a
# second record of i=0 later, a failed wait, a wait longer than the boot.
segment_with tests/fixtures/block-qemu64.result "$tmp/w3.result" \
	"waiter i=0 end_ns=1880700000 dur_ns=1020000000 errno=0 bytes=16" \
	"waiter i=2 end_ns=1880900000 dur_ns=1020100000 errno=0 bytes=16" \
	"waiter i=3 end_ns=2000000000 dur_ns=1000 errno=0 bytes=16" \
	"waiter i=0 end_ns=2100000000 dur_ns=1000 errno=0 bytes=16" \
	"waiter i=1 end_ns=2200000000 dur_ns=1000 errno=4 bytes=0" \
	"waiter i=1 end_ns=2300000000 dur_ns=2300000001 errno=0 bytes=16" ||
	bad "cannot make the waiters' channel"
# versatilepb: one waiter, which returned
segment_with tests/fixtures/block-versatilepb.result "$tmp/vpb.result" \
	"waiter i=0 end_ns=10373000000 dur_ns=10010000000 errno=0 bytes=16" ||
	bad "cannot make versatilepb's waiters' channel"
mkdir -p "$tmp/f/stock-hz250" "$tmp/f/block-hz250" "$tmp/f/block-hz100-armv5"
echo "ok $tmp/w3.result" >"$tmp/f/stock-hz250/bzImage"
echo "ok $root/tests/fixtures/block-qemu64.result" >"$tmp/f/block-hz250/bzImage"
echo "ok $tmp/vpb.result" >"$tmp/f/block-hz100-armv5/zImage"
: >"$tmp/f/block-hz100-armv5/versatile-pb.dtb"
out=$(timeout 120 "$runner" --qemu "$root/tests/lib/fake-qemu" --kernels "$tmp/f" --image "$tmp/image" --quiet \
	--out "$tmp/run" --seed 2 --set variant=stock,block --set waiters=0,3 \
	--set 'exclude=variant=stock waiters=0' --set 'exclude=variant=block waiters=3' \
	--set accel=icount --set cpu=qemu64 --set reps=1 2>&1)
rc=$?
raw=$tmp/run/raw.csv
if [ $rc -ne 0 ] || [ ! -f "$raw" ]; then
	bad "the replayed run exited $rc: $(brief "$out")"
else
	w=$(get "$raw" boot_id waiters=3) z=$(get "$raw" boot_id waiters=0)
	[ -n "$w" ] && [ -n "$z" ] && [ "$(get "$raw" status boot_id="$w")" = ok ] &&
		grep -q " crngbench_waiters=3'\$" "$tmp/run/boots/$w/cmd" && ! grep -q crngbench_waiters "$tmp/run/boots/$z/cmd" &&
		ok "raw.csv's waiters column: 3 for the boot given crngbench_waiters=3, 0 for the one without; the waiters' boot ok" ||
		bad "raw.csv waiters column: 3 '$w', 0 '$z', status '$(get "$raw" status waiters=3)'"
	[ "$(get "$raw" waiters_done boot_id="$w")" = 2 ] &&
		[ "$(get "$raw" waiters_last_end_ns boot_id="$w")" = 1880900000 ] &&
		ok "waiters_done 2 of 3 (i=1 never returned with its bytes), the last at i=2's end: the out-of-bounds, repeated, failed and impossible records left out" ||
		bad "waiters of the boot: done '$(get "$raw" waiters_done boot_id="$w")', last '$(get "$raw" waiters_last_end_ns boot_id="$w")'"
	[ -z "$(get "$raw" waiters_done boot_id="$z")" ] && [ -z "$(get "$raw" waiters_last_end_ns boot_id="$z")" ] &&
		ok "waiters=0: waiters_done and waiters_last_end_ns empty" ||
		bad "waiters=0 boot: done '$(get "$raw" waiters_done boot_id="$z")'"
	cells=$(paste -d/ <(get "$tmp/run/summary.csv" variant measure=crng_ready) \
		<(get "$tmp/run/summary.csv" waiters measure=crng_ready) | sort | paste -sd' ')
	[ "$cells" = "block/0 stock/3" ] && ok "summary.csv has the waiters column, a cell per value" ||
		bad "summary.csv cells: '$cells'"
fi

# a probe-only machine: its PID 1 reports the waiter it reaped
out=$(timeout 120 "$runner" --qemu "$root/tests/lib/fake-qemu" --kernels "$tmp/f" --image "$tmp/image" --quiet \
	--out "$tmp/vpb" --seed 2 --set variant=block --set waiters=1 --set arch=armv5-versatilepb \
	"${probe[@]}" --set accel=icount --set reps=1 2>&1)
rc=$?
raw=$tmp/vpb/raw.csv
b=$(get "$raw" boot_id 2>/dev/null | head -n 1)
[ $rc -eq 0 ] && [ -n "$b" ] && [ "$(get "$raw" waiters_done boot_id="$b")" = 1 ] &&
	[ "$(get "$raw" waiters_last_end_ns boot_id="$b")" = 10373000000 ] &&
	grep -q " crngbench_waiters=1'\$" "$tmp/vpb/boots/$b/cmd" &&
	ok "armv5-versatilepb (probe-only): crngbench_waiters=1, its waiter's record in raw.csv" ||
	bad "versatilepb's run (exit $rc): done '$(get "$raw" waiters_done 2>/dev/null)' $(brief "$out")"

# a run from before the axis (the fixture: no waiters column) reads as 0
cp -r "$root/tests/fixtures/run" "$tmp/old"
vals=$("$runner" --summarize "$tmp/old" --seed "$(cat "$tmp/old/seed")" >/dev/null 2>&1 &&
	get "$tmp/old/summary.csv" waiters | sort -u)
pyvals=$(cd "$root/plots" && python3 -c '
import sys
from runfiles import read_table
from runlib import value
print(" ".join(sorted({value(r, "waiters") for r in read_table(sys.argv[1], "raw.csv")})))' "$tmp/old" 2>&1)
[ "$vals" = 0 ] && [ "$pyvals" = 0 ] && ! head -n 1 "$tmp/old/raw.csv" | grep -q waiters &&
	ok "a run from before the axis reads as waiters=0 (the runner's summary and plots/runfiles.py)" ||
	bad "an old run's waiters: runner '$vals', plots '$pyvals'"

# studies/waiters/tables.py (REPORT.md's "Several waiters") takes a waiters value
# only as the runner does: one digit 0 to 7 (it raised a ValueError on 'x',
# and read '03', '1_0', '٣' or ' 3' as another number, its cell 'not run')
for v in x 03 1_0 ٣ ' 3' -1; do
	rm -rf "$tmp/wq" && cp -r "$root/studies/quick/run" "$tmp/wq"
	python3 - "$tmp/wq/raw.csv" "$v" <<'PY'
import csv, sys
p, v = sys.argv[1:]
rows = list(csv.DictReader(open(p, newline="")))
for i, r in enumerate(rows):
    r["waiters"] = v if i % 2 else "0"
w = csv.DictWriter(open(p, "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader()
w.writerows(rows)
PY
	out=$(cd "$root/plots" && python3 -c 'import sys, runlib
runlib.study_code("waiters").tables(sys.argv[1])' "$tmp/wq" 2>&1)
	clean_error $? "$out" "waiters '$v' is not one digit from 0 to 7" &&
		ok "studies/waiters/tables.py refuses a raw.csv waiters value '$v', naming it" ||
		bad "studies/waiters/tables.py with waiters '$v': $(brief "$out")"
done
