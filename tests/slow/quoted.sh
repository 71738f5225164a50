#!/usr/bin/env bash
# test: the figures the prose quotes (plots/quoted)
# plots/quoted.py: the figures REPORT.md's prose quotes (plots/quoted).
# A measured figure is recomputed from the committed run, so changing one
# number of the data changes it; a computed one is its formula's value,
# and a formula that is not arithmetic is refused, never run; a row that
# names no run, file or column the data has, or selects no row, stops the
# table naming its line and what is accepted. The block tables:quoted
# (studies/README.md) is what plots/quoted.py makes of studies now.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "quoted"
q() { python3 plots/quoted.py "$tmp/runs" "$tmp/q" 2>&1; }
mkdir -p "$tmp/runs/longwait"
cp -r studies/longwait/run "$tmp/runs/longwait/"
grep -v '^#' plots/quoted | head -n 1 >"$tmp/head"
grep -q '^name ' "$tmp/head" || bad "plots/quoted's first line that is no comment is not its header: $(cat "$tmp/head")"
row() { { cat "$tmp/head"; printf '%s\n' "$@"; } >"$tmp/q"; }
vals() { q | awk -F' \\| ' '/^\| `/ {printf "%s%s", sep, $2; sep="|"}'; }

# measured, and what a changed number does
row "first measured longwait raw.csv timer=lapic host_first_byte_ns range s 1 - -" \
	"pitmax measured longwait raw.csv timer=pit,variant=block|stock irq_timer max - 0 - -" \
	"n measured longwait raw.csv variant!=block irq_timer count - 0 - -" \
	"gap measured longwait raw.csv timer=pit crng_ready_ns-init_ns min s 0 - -" \
	"dance computed - - - - - s 1 256*6/100 -" \
	"per computed - - - - - - 2 {first.min}/{pitmax}*1000 -" \
	"jiffies cited - - - - - s 0 300 include/linux/jiffies.h:INITIAL_JIFFIES"
want=$(python3 - "$tmp/runs/longwait/run/raw.csv" <<'PY'
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
[ "$got" = "$want" ] && ok "range, max over alternatives, a range's low end {first.min}, count with !=, a-b columns, a formula of numbers and of earlier figures, a cited number: $got" ||
	bad "got '$got', want '$want' ($(q | head -c 400))"
q | grep -qF 'computed: {first.min}/{pitmax}\*1000' && q | grep -q 'cited: include/linux/jiffies.h:INITIAL_JIFFIES' &&
	ok "a computed figure shows its formula, a cited one its source" || bad "from column: $(q | tail -3)"
before=$(q)
python3 - "$tmp/runs/longwait/run/raw.csv" <<'PY'
import csv, sys
p = sys.argv[1]
rs = list(csv.DictReader(open(p)))
# the latest LAPIC row, so the range's top moves whatever the data
top = max((r for r in rs if r["timer"] == "lapic"), key=lambda r: int(r["host_first_byte_ns"]))
top["host_first_byte_ns"] = str(int(top["host_first_byte_ns"]) + 3_000_000_000)
w = csv.DictWriter(open(p, "w", newline=""), fieldnames=list(rs[0]), lineterminator="\n")
w.writeheader(); w.writerows(rs)
PY
after=$(q)
[ "$before" != "$after" ] && ok "a changed number in the committed data changes the quoted figure" || bad "the table did not change: $after"
cp -r studies/longwait/run "$tmp/runs/longwait/"

# a {name} is one value of the formula, not its text: {neg}**2 is 9
row "neg computed - - - - - - 0 0-3 -" "sq computed - - - - - - 0 {neg}**2 -" "nsq computed - - - - - - 0 -{neg}**2 -"
got=$(vals)
[ "$got" = "-3|9|-9" ] && ok "{name} is a value node: {neg}**2 = 9, -{neg}**2 = -9 ($got)" || bad "precedence: got '$got', want '-3|9|-9' ($(q | tail -2))"

# a range's two ends are {x.min} and {x.max}; a row named x-max is its own
row "irq-max cited - - - - - - 0 5 src" "irq measured longwait raw.csv timer=pit irq_timer range - 0 - -" \
	"lo computed - - - - - - 0 {irq.min} -" "width computed - - - - - - 0 {irq.max}-{irq.min} -" \
	"five computed - - - - - - 0 {irq-max} -"
want=$(python3 - "$tmp/runs/longwait/run/raw.csv" <<'PY'
import csv, sys
irq = [int(r["irq_timer"]) for r in csv.DictReader(open(sys.argv[1])) if r["timer"] == "pit"]
print(f"5|{min(irq)}-{max(irq)}|{min(irq)}|{max(irq) - min(irq)}|5")
PY
)
got=$(vals)
[ "$got" = "$want" ] && ok "{irq.min}, {irq.max} of a range; {irq-max} is the row of that name ($got)" ||
	bad "range ends: got '$got', want '$want' ($(q | tail -2))"

# the from column says how many rows a measured figure used; one is one cell
# (the boot picked and the counts read from the committed run itself)
read -r npit birq binit < <(python3 - "$tmp/runs/longwait/run/raw.csv" <<'PY'
import csv, sys
rs = [r for r in csv.DictReader(open(sys.argv[1])) if r["timer"] == "pit"]
b = next(r for r in rs if r["variant"] == "block"
         and sum(x["variant"] == "block" and x["irq_timer"] == r["irq_timer"] for x in rs) == 1)
print(len(rs), b["irq_timer"], f"{int(b['init_ns']) / 1e6:.3f}")
PY
)
row "irq measured longwait raw.csv timer=pit irq_timer range - 0 - -" \
	"c measured longwait raw.csv timer=pit,variant=block,irq_timer=$birq init_ns one ms 3 - -"
q | grep -qF "| range of irq_timer in longwait/raw.csv where timer=pit (n=$npit) |" &&
	q | grep -qF "| \`c\` | $binit ms | one of init_ns in longwait/raw.csv where timer=pit,variant=block,irq_timer=$birq (n=1) |" &&
	ok "the from column gives n (rows used); stat one of a single row" || bad "n or one: $(q | tail -2)"

# a selection that names the statuses it means may use boots that are not ok
mkdir -p "$tmp/runs/st"
cp -r studies/longwait/run "$tmp/runs/st/run"
sed -i '2s/,ok,/,censored,/' "$tmp/runs/st/run/raw.csv"
row "all measured st raw.csv timer=pit,status=censored|ok init_ns count - 0 - -" \
	"oks measured st raw.csv timer=pit,status=ok init_ns count - 0 - -"
got=$(vals)
[ "$got" = "$npit|$((npit - 1))" ] && ok "status=censored|ok takes the censored boot, status=ok leaves it out ($got)" ||
	bad "status selection: got '$got', want '$npit|$((npit - 1))' ($(q | tail -2))"

# RUNS_DIR may be given through a symbolic link: only the runs under it count
ln -s "$tmp/runs" "$tmp/runlink"
row "irq measured longwait raw.csv timer=pit irq_timer range - 0 - -"
python3 plots/quoted.py "$tmp/runlink" "$tmp/q" >/dev/null 2>&1 && ok "RUNS_DIR named through a symbolic link" ||
	bad "RUNS_DIR through a link: $(python3 plots/quoted.py "$tmp/runlink" "$tmp/q" 2>&1 | tail -1)"

# refused rows: each names its line and what is accepted
refuse() { # want-text row... (the last row is the one refused)
	local want=$1
	shift
	local at=$(($# + 1))
	row "$@"
	local out
	if out=$(q); then
		bad "accepted: $* -> $out"
	elif grep -q "line $at: .*$want" <<<"$out"; then
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
refuse "none of one, min, max" "x measured longwait raw.csv - init_ns p99 ms 0 - -"
refuse "a time column" "x measured longwait raw.csv - init_ns max - 0 - -"
refuse "a time column" "x measured longwait raw.csv - irq_timer max ms 0 - -"
refuse "needs its source" "x cited - - - - - - 0 42 -"
refuse "has no value or source" "x measured longwait raw.csv - init_ns max ms 0 7 -"
refuse "has no run" "x cited longwait - - - - - 0 42 src"
refuse "is not a new name" "Bad computed - - - - - - 0 1 -"

# a formula's every step is a finite real number, its text at most 300 characters
refuse "not a finite real number" "x computed - - - - - - 0 (0-8)**(1/3) -"
refuse "beyond 2\*\*53\|not a finite real number" "x computed - - - - - - 0 1e300*1e300 -"
refuse "beyond 2\*\*53\|not a finite real number" "x computed - - - - - - 0 1e999-1e999 -"
refuse "beyond 2\*\*53" "x computed - - - - - - 0 (1e200)**2 -"
refuse "ZeroDivisionError.*not a finite real number" "x computed - - - - - - 0 0**(0-1) -"
refuse "at most 300" "x computed - - - - - - 0 $(printf '1+%.0s' {1..150})1 -"
# a range is two values: a formula says which; a single value has no ends
irqr=$(python3 - "$tmp/runs/longwait/run/raw.csv" <<'PY'
import csv, sys
irq = [int(r["irq_timer"]) for r in csv.DictReader(open(sys.argv[1])) if r["timer"] == "pit"]
print(f"{min(irq)}-{max(irq)}")
PY
)
refuse "a range ($irqr): say {irq.min} or {irq.max}" \
	"irq measured longwait raw.csv timer=pit irq_timer range - 0 - -" "x computed - - - - - - 0 {irq}+1 -"
refuse "is one value, not a range" "one cited - - - - - - 0 1 src" "x computed - - - - - - 0 {one.max} -"
refuse "not arithmetic" "one cited - - - - - - 0 1 src" "x computed - - - - - - 0 {one}+_q0 -"
refuse "not arithmetic" "x computed - - - - - - 0 {.max} -"
# a selection is exact: boots that are not ok only when asked for, no empty cell, one is one row
refuse "1 of 9 selected rows of st/raw.csv where timer=pit have status censored, not ok.*status=censored|ok" \
	"x measured st raw.csv timer=pit init_ns max ms 0 - -"
refuse "3 of 6 selected rows of longwait/raw.csv where variant=block have no crng_ready_ns: narrow the rows" \
	"x measured longwait raw.csv variant=block crng_ready_ns median s 1 - -"
refuse "3 of 6 selected rows of longwait/raw.csv where variant=block have no crng_ready_ns-init_ns" \
	"x measured longwait raw.csv variant=block crng_ready_ns-init_ns max s 1 - -"
refuse "3 of 6 selected rows.* have no crng_ready_ns" "x measured longwait raw.csv variant=block crng_ready_ns count - 0 - -"
refuse "stat one: 9 rows of longwait/raw.csv where timer=pit, not exactly one" "x measured longwait raw.csv timer=pit init_ns one ms 0 - -"
# a run's directory is under RUNS_DIR: not a symbolic link, nor through one to outside it
mkdir -p "$tmp/elsewhere/p/run" "$tmp/elsewhere/lw" "$tmp/runs/deep/run"
cp -r studies/longwait/run "$tmp/elsewhere/lw/run"
cp -r studies/longwait/run "$tmp/elsewhere/p/run/jobs1"
ln -s "$tmp/elsewhere/lw" "$tmp/runs/out"
ln -s longwait "$tmp/runs/alias"
ln -s "$tmp/elsewhere/p" "$tmp/runs/par"
ln -s "$tmp/elsewhere/p/run/jobs1" "$tmp/runs/deep/run/jobs1"
refuse "run 'out': .* is a symbolic link: refused" "x measured out raw.csv - init_ns max ms 0 - -"
refuse "run 'alias': .* is a symbolic link: refused" "x measured alias raw.csv - init_ns max ms 0 - -"
refuse "run 'par/jobs1': .*/par is a symbolic link: refused" "x measured par/jobs1 raw.csv - init_ns max ms 0 - -"
refuse "run 'deep/jobs1': .*/deep/run/jobs1 is a symbolic link: refused" "x measured deep/jobs1 raw.csv - init_ns max ms 0 - -"

# the cited cold wall time is what the committed GNU time output says
wall=$(awk '$1 == "reproduce-cold-wall" { print $10 }' plots/quoted)
el=$(sed -n 's/^\tElapsed (wall clock) time (h:mm:ss or m:ss): //p' studies/reproduce-cold-time.txt |
	awk -F: '{ print (NF == 3 ? $1 * 3600 + $2 * 60 + $3 : $1 * 60 + $2) }')
[ -n "$el" ] && [ "$wall" = "$el" ] && ok "reproduce-cold-wall ($wall s) is the Elapsed line of studies/reproduce-cold-time.txt" ||
	bad "reproduce-cold-wall '$wall' against the committed GNU time output's '$el' s"

# The block (in studies/README.md) is plots/quoted.py of the committed runs
now=$(python3 plots/quoted.py studies 2>&1)
have=$(sed -n '/<!-- tables:quoted:begin -->/,/<!-- tables:quoted:end -->/p' studies/README.md | sed '1d;$d')
[ "$have" = "$now" ] && ok "studies/README.md's tables:quoted is what plots/quoted.py makes of studies" ||
	bad "studies/README.md's tables:quoted differs from plots/quoted.py studies (make report FROM=committed)"
