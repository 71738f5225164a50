#!/usr/bin/env bash
# test: determinism: the same inputs, the same boot
# What "ready" holds, checked against REPORT.md: two real icount boots of
# one x86 cell (block, -cpu qemu64, the TSC as counter) with rtc=fixed, and
# two with rtc=host, and their first blocking /dev/urandom reads' digests
# compared as the committed entropy run (studies/entropy/run, whose tables
# REPORT.md quotes) says they compare: a cell whose n boots gave 1 distinct
# output must give two equal digests here; a cell with more than one must
# give two different ones. rtc=host boots run one after the other, over a
# second apart: under icount the RTC's date (seconds) is the input that
# differs between them (REPORT.md, "What ready holds").
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "determinism"
out=tests/out/determinism
rm -rf "$out".fixed* "$out".host*
committed=studies/entropy/run/summary.csv
if [ ! -f "$committed" ]; then
	bad "no committed entropy run ($committed): REPORT.md's claim cannot be checked"
	exit 0
fi
# The committed run's k distinct of n for the cell (icount, shift auto, HZ 250).
claim() {
	/usr/bin/python3 - "$committed" "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if (r["arch"], r["variant"], r["accel"], r["cpu"], r["nocounter"], r["virtio_rng"], r["rtc"], r["hz"], r["shift"]) == \
       ("x86_64", "block", "icount", "qemu64", "off", "off", sys.argv[2], "250", "auto") and r["digests_n"]:
        print(r["digests_distinct"], r["digests_n"]); break
PY
}
boots() { # OUT RTC PARALLEL
	build/crngbench-run --image build/guest.cpio --quiet --out "$1" --seed 11 --parallel-jobs "$3" \
		--set variant=block --set accel=icount --set cpu=qemu64 --set nocounter=off \
		--set reads=urandom --set trace=off --set reps=2 --set rtc="$2" --set timeout=120 \
		>"$1.log" 2>&1
}
for rtc in fixed host; do
	o=$out.$rtc
	read -r k n <<<"$(claim $rtc)"
	if [ -z "${k:-}" ]; then
		bad "the committed entropy run has no digests for the x86 icount cell with rtc=$rtc"
		continue
	fi
	# rtc=host: one boot at a time (a boot takes seconds of host time)
	if ! boots "$o" "$rtc" "$([ $rtc = host ] && echo 1 || echo 2)"; then
		bad "the rtc=$rtc run failed: $(tail -n 3 "$o.log" | tr '\n' ' ')"
		continue
	fi
	d=$(tests/lib/csvget.py "$o/raw.csv" urandom_digest | sort -u | grep -c .)
	want=$([ "$k" = 1 ] && echo 1 || echo 2)
	[ "$d" = "$want" ] &&
		ok "rtc=$rtc: two icount boots gave $d distinct first outputs, as the committed run ($k distinct of $n) says" ||
		bad "rtc=$rtc: two icount boots gave $d distinct first outputs; the committed run says $k of $n"
done
