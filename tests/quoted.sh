#!/usr/bin/env bash
# plots/quoted.py: the figures REPORT.md's prose quotes (plots/quoted).
# A measured figure is recomputed from the committed run, so changing one
# number of the data changes it; a computed one is its formula's value,
# and a formula that is not arithmetic is refused, never run; a row that
# names no run, file or column the data has, or selects no row, stops the
# table naming its line and what is accepted. REPORT.md's block
# tables:quoted is what plots/quoted.py makes of plots/runs now.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "PASS: quoted: $*"; }
bad() { echo "FAIL: quoted: $*"; }
q() { python3 plots/quoted.py "$tmp/runs" "$tmp/q" 2>&1; }
mkdir -p "$tmp/runs"
cp -r plots/runs/longwait "$tmp/runs/"
head -n 9 plots/quoted | grep -v '^#' >"$tmp/head"
[ "$(wc -l <"$tmp/head")" = 1 ] || bad "plots/quoted's header is not on line 9"
row() { { cat "$tmp/head"; printf '%s\n' "$@"; } >"$tmp/q"; }

# measured, and what a changed number does
row "first measured longwait raw.csv timer=lapic host_first_byte_ns range s 1 - -" \
	"pitmax measured longwait raw.csv timer=pit,variant=block|stock irq_timer max - 0 - -" \
	"n measured longwait raw.csv variant!=block irq_timer count - 0 - -" \
	"gap measured longwait raw.csv timer=pit crng_ready_ns-init_ns min s 0 - -" \
	"dance computed - - - - - s 1 256*6/100 -" \
	"per computed - - - - - - 2 {first}/{pitmax}*1000 -" \
	"jiffies cited - - - - - s 0 300 include/linux/jiffies.h:INITIAL_JIFFIES"
want=$(python3 - "$tmp/runs/longwait/raw.csv" <<'PY'
import csv, sys
rs = list(csv.DictReader(open(sys.argv[1])))
lap = [int(r["host_first_byte_ns"]) / 1e9 for r in rs if r["timer"] == "lapic"]
pit = max(int(r["irq_timer"]) for r in rs if r["timer"] == "pit" and r["variant"] in ("block", "stock"))
n = sum(1 for r in rs if r["variant"] != "block")
gap = min(int(r["crng_ready_ns"]) - int(r["init_ns"]) for r in rs if r["timer"] == "pit")
print(f"{min(lap):.1f}-{max(lap):.1f} s|{pit}|{n}|{gap / 1e9:.0f} s|15.4 s|{min(lap) / pit * 1000:.2f}|300 s")
PY
)
got=$(q | awk -F' \\| ' '/^\| `/ {printf "%s%s", sep, $2; sep="|"}')
[ "$got" = "$want" ] && ok "range, max over alternatives, count with !=, a-b columns, a formula of numbers and of earlier figures, a cited number: $got" ||
	bad "got '$got', want '$want' ($(q | head -c 400))"
q | grep -q 'computed: {first}/{pitmax}\*1000' && q | grep -q 'cited: include/linux/jiffies.h:INITIAL_JIFFIES' &&
	ok "a computed figure shows its formula, a cited one its source" || bad "from column: $(q | tail -3)"
before=$(q)
python3 - "$tmp/runs/longwait/raw.csv" <<'PY'
import csv, sys
p = sys.argv[1]
rs = list(csv.DictReader(open(p)))
for r in rs:
    if r["timer"] == "lapic":
        r["host_first_byte_ns"] = str(int(r["host_first_byte_ns"]) + 3_000_000_000)
        break
w = csv.DictWriter(open(p, "w", newline=""), fieldnames=list(rs[0]), lineterminator="\n")
w.writeheader(); w.writerows(rs)
PY
after=$(q)
[ "$before" != "$after" ] && ok "a changed number in the committed data changes the quoted figure" || bad "the table did not change: $after"
cp -r plots/runs/longwait "$tmp/runs/"

# refused rows: each names its line and what is accepted
refuse() { # want-text row...
	local want=$1
	shift
	row "$@"
	local out
	if out=$(q); then
		bad "accepted: $* -> $out"
	elif grep -q "line 2: .*$want" <<<"$out"; then
		ok "refused ($want): $*"
	else
		bad "message for $*: $out"
	fi
}
refuse "not arithmetic" "x computed - - - - - - 0 __import__('os').system('id') -"
refuse "not arithmetic" "x computed - - - - - - 0 (1).real -"
refuse "not a figure of an earlier row" "x computed - - - - - - 0 {later}+1 -"
refuse "divides by zero" "x computed - - - - - - 0 1/(2-2) -"
refuse "exponent over 64" "x computed - - - - - - 0 9**999999 -"
refuse "none of measured, computed, cited" "x guessed - - - - - - 0 1 -"
refuse "no such column" "x measured longwait raw.csv nosuch=1 init_ns max ms 0 - -"
refuse "not in longwait/raw.csv" "x measured longwait raw.csv - nosuch_ns max ms 0 - -"
refuse "nothing to quote" "x measured longwait raw.csv variant=nosuch init_ns max ms 0 - -"
refuse "not found" "x measured nosuch raw.csv - init_ns max ms 0 - -"
refuse "not a run directory" "x measured ../../etc raw.csv - init_ns max ms 0 - -"
refuse "none of min, max" "x measured longwait raw.csv - init_ns p99 ms 0 - -"
refuse "a time column" "x measured longwait raw.csv - init_ns max - 0 - -"
refuse "a time column" "x measured longwait raw.csv - irq_timer max ms 0 - -"
refuse "needs its source" "x cited - - - - - - 0 42 -"
refuse "has no value or source" "x measured longwait raw.csv - init_ns max ms 0 7 -"
refuse "has no run" "x cited longwait - - - - - 0 42 src"
refuse "is not a new name" "Bad computed - - - - - - 0 1 -"

# REPORT.md's block is plots/quoted.py of the committed runs
now=$(python3 plots/quoted.py plots/runs 2>&1)
have=$(sed -n '/<!-- tables:quoted:begin -->/,/<!-- tables:quoted:end -->/p' REPORT.md | sed '1d;$d')
[ "$have" = "$now" ] && ok "REPORT.md's tables:quoted is what plots/quoted.py makes of plots/runs" ||
	bad "REPORT.md's tables:quoted differs from plots/quoted.py plots/runs (make report FROM=committed)"
