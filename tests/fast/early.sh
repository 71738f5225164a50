#!/usr/bin/env bash
# test: the early axis (the early reads in a child of PID 1)
# The early axis (who makes the early reads), against tests/lib/fake-qemu and
# stand-in kernels:
#   early  pid1 (PID 1, then it execs systemd: the command line as before)
#          or child (crngbench_early=child: a child of PID 1 reads while
#          PID 1 execs systemd at once); an unknown value names the
#          accepted ones; child refused, before any boot, on the
#          probe-only machines, naming those that take it
# and a boot of each replayed from real channels: the child's records,
# which come with the report segment, reach reads.csv and raw.csv as PID
# 1's do; host_first_urandom is left empty for them (they reach the host
# with the report, not when the read returned); the early column in
# raw.csv and summary.csv; studies/systemd/systemd.matrix plans both values.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "early"
root=$PWD
runner=$root/${CRNGBENCH_RUNNER:-build/crngbench-run}
# every machine's QEMU is tests/lib/fake-qemu (no real QEMU)
# shellcheck source=tests/lib/fake-qemu-path.sh
. tests/lib/fake-qemu-path.sh
fake_qemu_path "$tmp/fake" || { echo "FAIL: cannot link tests/lib/fake-qemu"; exit 0; }
get() { "$root/tests/lib/csvget.py" "$@"; }

empty_files "$tmp" k/stock-hz250/bzImage k/stock-hz100-armv5/zImage k/stock-hz100-armv5/versatile-pb.dtb \
	k/stock-hz100-m68k/vmlinux image probe-armv5.cpio probe-m68k.cpio
# shellcheck source=tests/lib/refused.sh
. "$root/tests/lib/refused.sh"
refused_args=(--dry-run)

refused "an unknown early value names the accepted ones" \
	"early=init: accepted values are pid1 (PID 1 makes the early reads, then execs systemd), child (a child of PID 1 makes them while PID 1 execs systemd at once; x86_64 only)" \
	--set early=init
for m in armv5-versatilepb m68k-virt; do
	refused "early=child on $m (probe-only: no systemd) is refused, naming the machines that take it" \
		"arch=$m with early=child: its guest is probe-only, with no systemd for PID 1 to exec while a child reads, so its PID 1 makes the reads itself; early=child is accepted on arch=x86_64; exclude it with: exclude = arch=$m early=child" \
		--set arch="$m" --set early=child "${probe[@]}"
done
# an exclude line takes the combination out
out=$("$runner" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/ex" --set arch=armv5-versatilepb \
	--set early=pid1,child --set 'exclude=arch=armv5-versatilepb early=child' "${probe[@]}" \
	--set accel=icount --set reps=1 --dry-run 2>&1) && [ "$(grep -c '^c[0-9]*-r0: ' <<<"$out")" = 1 ] && ! grep -q -- 'crngbench_early' <<<"$out" &&
	ok "early=child excluded on a probe-only machine: the pid1 cell runs, without crngbench_early" ||
	bad "exclude of early=child: $(head -c 400 <<<"$out")"

# pid1 keeps the command line of a matrix without the axis; child adds one word
for acc in icount tcg; do
	out=$("$runner" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/d" --seed 1 --set early=pid1,child \
		--set accel=$acc --set cpu=qemu64 --set reps=1 --dry-run 2>&1)
	plain=$("$runner" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/d" --seed 1 \
		--set accel=$acc --set cpu=qemu64 --set reps=1 --dry-run 2>&1 | grep '^c0-r0: ')
	pid1=$(grep '^c0-r0: ' <<<"$out") child=$(grep '^c1-r0: ' <<<"$out")
	# TCG's TSC hint is the host's, measured per run
	norm() { sed -E 's/tsc_early_khz=[0-9]+ /tsc_early_khz=N /; s/c[01]-r0/cX-r0/g'; }
	[ -n "$pid1" ] && [ "$(norm <<<"$pid1")" = "$(norm <<<"$plain")" ] &&
		[ "$(norm <<<"${child% crngbench_early=child\'}'")" = "$(norm <<<"$pid1")" ] &&
		grep -q " crngbench_early=child'\$" <<<"$child" &&
		ok "$acc: early=pid1 is the line without the axis; early=child adds crngbench_early=child alone" ||
		bad "$acc: plain '$plain', pid1 '$pid1', child '$child'"
done

# Two boots replayed by the fake: PID 1's reads (block, the probe segment)
# and a child's (stock, no counter, icount: its reads in the report segment).
mkdir -p "$tmp/f/stock-hz250" "$tmp/f/block-hz250"
echo "ok $root/tests/fixtures/block-qemu64.result" >"$tmp/f/block-hz250/bzImage"
echo "ok $root/tests/fixtures/stock-qemu64-nocounter-child.result" >"$tmp/f/stock-hz250/bzImage"
out=$(timeout 120 "$runner" --qemu "$root/tests/lib/fake-qemu" --kernels "$tmp/f" --image "$tmp/image" --quiet \
	--out "$tmp/run" --seed 2 --set variant=stock,block --set early=pid1,child \
	--set 'exclude=variant=stock early=pid1' --set 'exclude=variant=block early=child' \
	--set accel=icount --set cpu=qemu64 --set reps=1 2>&1)
rc=$?
raw=$tmp/run/raw.csv
if [ $rc -ne 0 ] || [ ! -f "$raw" ]; then
	bad "the replayed run exited $rc: $(tail -n 3 <<<"$out" | tr '\n' ' ')"
else
	c=$(get "$raw" boot_id early=child) p=$(get "$raw" boot_id early=pid1)
	[ -n "$c" ] && [ -n "$p" ] && [ "$(get "$raw" variant boot_id="$c")" = stock ] &&
		[ "$(get "$raw" status boot_id="$c")" = ok ] && [ -z "$(get "$raw" reason boot_id="$c")" ] &&
		grep -q " crngbench_early=child'\$" "$tmp/run/boots/$c/cmd" && ! grep -q crngbench_early "$tmp/run/boots/$p/cmd" &&
		ok "raw.csv's early column: child for the child's boot (crngbench_early=child), pid1 for PID 1's; the child's boot ok" ||
		bad "raw.csv early column: child '$c', pid1 '$p', status '$(get "$raw" status early=child)'"
	ifaces=$(get "$tmp/run/reads.csv" iface boot_id="$c" | paste -sd:)
	[ "$ifaces" = "urandom:urandom-nb:getrandom-nb:getrandom-insecure:random:getrandom" ] &&
		[ "$(get "$tmp/run/reads.csv" dur_ns boot_id="$c" iface=random)" = 259956673852 ] &&
		ok "the child's reads (from the report segment) are reads.csv rows in order, as PID 1's" ||
		bad "the child's reads.csv rows: '$ifaces'"
	[ "$(get "$raw" first_urandom_end_ns boot_id="$c")" = $((236150012 + 25218)) ] &&
		[ "$(get "$raw" urandom_digest boot_id="$c")" = ed0c99659dd47c6c ] &&
		ok "the child's first urandom read is raw.csv's first_urandom_*" ||
		bad "first urandom of the child: $(get "$raw" first_urandom_end_ns boot_id="$c")"
	[ -z "$(get "$raw" host_urandom_ns boot_id="$c")" ] && [ -n "$(get "$raw" host_urandom_ns boot_id="$p")" ] &&
		ok "host_first_urandom: empty for the child's read (it came with the report), set for PID 1's" ||
		bad "host_urandom_ns: child '$(get "$raw" host_urandom_ns boot_id="$c")', pid1 '$(get "$raw" host_urandom_ns boot_id="$p")'"
	cells=$(paste -d/ <(get "$tmp/run/summary.csv" variant measure=crng_ready) \
		<(get "$tmp/run/summary.csv" early measure=crng_ready) | sort | paste -sd' ')
	[ "$cells" = "block/pid1 stock/child" ] && ok "summary.csv has the early column, a cell per value" ||
		bad "summary.csv cells: '$cells'"
	# REPORT.md's systemd block: a row per variant and early value, each
	# figure summary.csv's median as printed (worked out here).
	tab=$(python3 "$root/plots/report_tables.py" - - --systemd "$tmp/run" 2>&1)
	printf '%s\n' "$tab" >"$tmp/systemd.md"
	why=$(cd "$root" && python3 - "$tmp/run" "$tmp/systemd.md" 2>&1 <<'PY'
import sys
from tests.lib.expect import table, median
run, md = sys.argv[1:]
summ = table(run)
lines = [l for l in open(md).read().splitlines() if l.startswith("| ") and "---" not in l]
head = [c.strip() for c in lines[0].strip("|").split(" | ")]
assert head[:3] == ["condition", "variant", "reads in"], head
body = {(c[1], c[2]): c for c in ([x.strip() for x in l.strip().strip("|").split(" | ")] for l in lines[1:])}
assert set(body) == {("block", "PID 1"), ("stock", "a child")}, body.keys()
for (v, who), c in body.items():
    e = "pid1" if who == "PID 1" else "child"
    for col, m in ((3, "crng_ready"), (4, "userspace_finished"), (5, "game_seeded"), (6, "first_urandom_return")):
        r = next(r for r in summ if r["variant"] == v and r["early"] == e and r["measure"] == m)
        want = f"{median(r)}" if r["n"] != "0" and r["median_ms"] else ""
        assert c[col].startswith(want) and (want or c[col] in ("", "no data")), (v, who, m, c[col], want)
PY
)
	[ $? -eq 0 ] && ok "REPORT's systemd table: a row per variant and who reads, each figure summary.csv's" ||
		bad "systemd table: $(tail -n 2 <<<"$why" | tr '\n' ' ') $(head -c 300 <<<"$tab")"
	# A run of both readers is tables only: charts 1-6 would set PID 1's
	# cells and the child's on one another (prepare.py refused it).
	out=$(CRNGBENCH_RUNNER=$runner "$root/plots/render.sh" "$tmp/run" 2>&1)
	[ $? -eq 0 ] && [ ! -s "$tmp/run/plots/data/charts" ] && ! ls "$tmp/run/plots/"*.png >/dev/null 2>&1 &&
		ok "a run of both readers draws no chart (its tables only), without an error" ||
		bad "rendering the replayed run of both readers: $(tail -n 2 <<<"$out" | tr '\n' ' ')"
fi
out=$(python3 "$root/plots/report_tables.py" - - --systemd "$root/tests/fixtures/run" 2>&1)
[ $? -ne 0 ] && grep -q "has no early=child cell" <<<"$out" && ok "--systemd refuses a run without early=child" ||
	bad "--systemd on a run without a child: $(head -c 200 <<<"$out")"

# studies/systemd/systemd.matrix: x86 only, both values in every planned cell's pair
if ! plan=$("$runner" --image "$tmp/image" --kernels "$tmp/k" --matrix "$root/studies/systemd/systemd.matrix" --print-axis plan 2>&1); then
	bad "studies/systemd/systemd.matrix does not plan: $(head -c 300 <<<"$plan")"
else
	n=$(tail -n +2 <<<"$plan" | wc -l)
	e=$(get <(printf '%s\n' "$plan") early | sort | uniq -c | awk '{print $2 "=" $1}' | paste -sd' ')
	[ "$n" -gt 0 ] && [ "$e" = "child=$((n / 2)) pid1=$((n / 2))" ] &&
		ok "studies/systemd/systemd.matrix plans $n cells, half with early=child" || bad "studies/systemd/systemd.matrix plan: $n cells, $e"
fi
