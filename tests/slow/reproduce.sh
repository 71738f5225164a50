#!/usr/bin/env bash
# test: make reproduce in stand-in checkouts
# make reproduce in a stand-in checkout (tests/lib/reproduce_standin.sh: runs
# "one" and "two" of two fake-qemu cells, "ghost" of a matrix that does
# not exist):
#  - bad input is refused before anything runs (no results directory, no
#    kernel build): an unknown RUNS name (the known ones named), a HOSTS
#    entry that is no sshlogin, SHARDS without HOSTS, a row whose matrix
#    does not exist (even after a good row), a partial run started without
#    HOSTS given HOSTS;
#  - DRYRUN=1 prints the plan (boots, estimate per run, the kernels to
#    build and their estimate, the total of both) and runs nothing;
#  - a run interrupted by SIGKILL is resumed (--resume: the boots it had
#    keep their rows), a complete one is skipped (its raw.csv untouched),
#    progress names the run and an ETA over all runs, both are kept in
#    studies/ within their budget (keep-run refuses one over it), and
#    the time split names each run; a make reproduce that made every run
#    it ran from its start keeps its time split in
#    studies/reproduce-time.csv, one that skipped or resumed one does not;
#    never through a link at a fixed temporary name (.reproduce-time.csv).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "reproduce"
brief() { tail -n 4 <<<"$1" | tr '\n' ' ' | head -c 500; }
# shellcheck source=tests/lib/reproduce_standin.sh
. tests/lib/reproduce_standin.sh
s=$tmp/s
FAKE_DELAY=0.4 standin "$s" || { bad "cannot make the stand-in checkout"; exit 0; }
mk() { (cd "$s" && make reproduce QEMU=tests/lib/fake-qemu "$@" 2>&1); }

# --- bad input: refused before anything runs ------------------------------------
# refused NAME WANT MAKE-ARGS...: exit 2, WANT in the message, nothing run
refused() {
	local name=$1 want=$2 out rc
	shift 2
	out=$(mk "$@")
	rc=$?
	if [ $rc -ne 0 ] && grep -qF -- "$want" <<<"$out" && [ ! -e "$s/results/reproduce" ] && [ ! -e "$s/build.log" ]; then
		ok "$name"
	else
		bad "$name: exit $rc, wanted '$want', results: $(ls "$s/results/reproduce" 2>&1 | tr '\n' ' '); said: $(brief "$out")"
	fi
}
refused "an unknown RUNS name is refused, naming the known runs" \
	"RUNS: unknown run 'nosuch'; the runs of studies/ are: one two ghost" RUNS=one,nosuch
refused "an empty RUNS name is refused" "has an empty name" RUNS=one,,two
refused "a HOSTS entry that is no sshlogin is refused" \
	"HOSTS: 'a;b' is not an sshlogin make reproduce takes: ':' (this machine) or [user@]host" RUNS=one 'HOSTS=:,a;b'
refused "an empty HOSTS entry is refused" "HOSTS: '' is not an sshlogin" RUNS=one 'HOSTS=:,,x'
refused "HOSTS naming a host twice is refused" "HOSTS names 'x' twice" RUNS=one 'HOSTS=x,2/x'
refused "SHARDS without HOSTS is refused" "SHARDS=2 splits each run across HOSTS: give HOSTS too" RUNS=one SHARDS=2
refused "a run whose matrix does not exist is refused before any run, the good one before it too" \
	"run 'ghost': no matrix 'nosuch' (bench/*.matrix, studies/*/*.matrix" RUNS=one,ghost
refused "DRYRUN takes 1 or nothing" "DRYRUN='yes'" RUNS=one DRYRUN=yes

# --- the plan alone ----------------------------------------------------------------
out=$(mk RUNS=one,two DRYRUN=1)
rc=$?
# the stand-in's kernels are absent, in a cold build directory: mini's two
# (one and two share them) cost kernel/build-cost's cold_s and a variant_s
read -r cold var < <(cd "$s" && python3 -c 'import sys; sys.path.insert(0, "plots"); import buildcost
print(*buildcost.read_costs("kernel/build-cost")[("6.1", "x86_64")])')
kdur=$(awk -v s="$(awk -v c="$cold" -v v="$var" 'BEGIN { print c + v }')" 'BEGIN { s = int(s + 0.5); printf "%d min %d s", s / 60, s % 60 }')
if [ $rc -eq 0 ] && grep -qE '^  one +mini +6 boots +~[0-9]+ s +to run$' <<<"$out" &&
	grep -qE '^  two +mini +6 boots' <<<"$out" &&
	grep -qxF "  kernels: 2 to build in 1 build directory (1 from cold), ~$kdur (kernel/build-cost)" <<<"$out" &&
	grep -qE "^\[reproduce\] total: 12 boots; estimated time left ~[0-9]+ min [0-9]+ s, of which kernels ~$kdur, boots ~[0-9]+ s$" <<<"$out" &&
	[ ! -e "$s/results/reproduce" ] && [ ! -e "$s/build.log" ]; then
	ok "DRYRUN=1 prints each run's boots and estimate, the kernels to build ($kdur), the total, and runs nothing"
else
	bad "DRYRUN=1: exit $rc: $(brief "$out")"
fi

# --- resume and skip ---------------------------------------------------------------------
# a link at the name the time split was once written under (a checkout
# can carry one): nothing is written through it (scripts/fresh.sh)
echo precious >"$tmp/victim"
ln -s "$tmp/victim" "$s/studies/.reproduce-time.csv"
out=$(mk RUNS=one)
[ $? -eq 0 ] && [ "$(cd "$s" && plots/runstate.py results/reproduce/one)" = "complete 6" ] ||
	bad "the first run of 'one': $(brief "$out")"
[ "$(cat "$tmp/victim")" = precious ] && [ -f "$s/studies/reproduce-time.csv" ] && [ ! -L "$s/studies/reproduce-time.csv" ] &&
	ok "studies/.reproduce-time.csv a link: the time split is written fresh beside its file, nothing through the link" ||
	bad "studies/.reproduce-time.csv a link: the file it points to now holds '$(head -c 100 "$tmp/victim")'"
rm -f "$s/studies/.reproduce-time.csv"
# a run made from its start: its time split kept as committed data
rt=$s/studies/reproduce-time.csv
c=$(git -C "$s" rev-parse HEAD 2>/dev/null)
if [ -f "$rt" ] && [ "$(head -n 1 "$rt")" = commit,runs,stage,seconds ] &&
	grep -qE "^$c,one,boots,[0-9]+\.[0-9]\$" "$rt" && grep -qE "^$c,one,keep,[0-9]+\.[0-9]\$" "$rt" &&
	grep -qE "^$c,one,checks\+plan,[0-9]+\.[0-9]\$" "$rt"; then
	ok "a make reproduce that made its runs from their start keeps its time split (studies/reproduce-time.csv)"
else
	bad "reproduce-time.csv after a fresh run: $(cat "$rt" 2>&1 | head -c 300)"
fi
rt_first=$(cat "$rt" 2>/dev/null)
# Only a make reproduce that made every run from its start writes it:
# skipping a complete run alone, or resuming a partial one alone, is not
# such a run (each case on its own: either would hide the other). A
# sentinel in the file shows whether it was rewritten.
echo sentinel >"$rt"
out=$(mk RUNS=one)
[ $? -eq 0 ] && [ "$(cat "$rt" 2>/dev/null)" = sentinel ] &&
	ok "a make reproduce that only skipped a complete run leaves reproduce-time.csv as it was" ||
	bad "reproduce-time.csv after a run that only skipped 'one': $(head -c 200 "$rt" 2>&1); said: $(brief "$out")"
printf '%s\n' "$rt_first" >"$rt"
one_raw=$(cat "$s/results/reproduce/one/raw.csv" 2>/dev/null)
one_time=$(stat -c %Y "$s/results/reproduce/one/raw.csv" 2>/dev/null)
# "two" started as make reproduce starts it, SIGKILLed once a boot is recorded
two=$s/results/reproduce/two
(cd "$s" && exec build/crngbench-run --matrix bench/mini.matrix --image build/guest.cpio --qemu tests/lib/fake-qemu \
	--quiet --out results/reproduce/two) >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1200); do # up to 60 s: a loaded machine is slow to start
	[ "$(tail -n +2 "$two/raw.csv" 2>/dev/null | wc -l)" -ge 1 ] && break
	sleep 0.05
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
before=$(tail -n +2 "$two/raw.csv" 2>/dev/null | grep -c .)
state=$(cd "$s" && plots/runstate.py results/reproduce/two)
case $state in "partial $before 6") ;; *) bad "the interrupted run is '$state' with $before rows (wanted partial, fewer than 6)" ;; esac
refused_twice=$(mk RUNS=two HOSTS=:)
[ $? -ne 0 ] && grep -q "holds a partial run started without HOSTS: finish it so (make reproduce RUNS=two)" <<<"$refused_twice" &&
	ok "a partial run started without HOSTS is not continued in shards" ||
	bad "HOSTS on a partial unsharded run: $(brief "$refused_twice")"
rows_before=$(tail -n +2 "$two/raw.csv")
# resuming "two" alone (a copy of its partial state: the run of both below
# resumes it again)
cp -a "$two" "$tmp/two-partial"
echo sentinel >"$rt"
out=$(mk RUNS=two)
[ $? -eq 0 ] && [ "$(cd "$s" && plots/runstate.py results/reproduce/two)" = "complete 6" ] &&
	[ "$(cat "$rt" 2>/dev/null)" = sentinel ] &&
	ok "a make reproduce that only resumed a partial run leaves reproduce-time.csv as it was" ||
	bad "reproduce-time.csv after a run that only resumed 'two': $(head -c 200 "$rt" 2>&1); said: $(brief "$out")"
printf '%s\n' "$rt_first" >"$rt"
rm -rf "$two" && cp -a "$tmp/two-partial" "$two"
out=$(REPRODUCE_TICK=1 mk RUNS=one,two)
rc=$?
if [ $rc -eq 0 ] && grep -qE "^  two +mini +6 boots +~.*partial \($before of 6 boots\): resumed" <<<"$out" &&
	grep -qE '^  one +mini +6 boots +~.*complete: skipped' <<<"$out"; then
	ok "the plan says one is complete (skipped) and two partial ($before of 6 boots: resumed)"
else
	bad "plan of one (complete) and two (partial): exit $rc: $(grep -E '^  (one|two) ' <<<"$out" | tr '\n' ' ')$(brief "$out")"
fi
grep -q "^\[reproduce\] run 1/2 one: results/reproduce/one is complete: skipped" <<<"$out" &&
	[ "$(cat "$s/results/reproduce/one/raw.csv")" = "$one_raw" ] &&
	[ "$(stat -c %Y "$s/results/reproduce/one/raw.csv")" = "$one_time" ] &&
	ok "the complete run is skipped: its raw.csv is untouched" || bad "the complete run: $(grep 'run 1/2' <<<"$out")"
# A complete run of the matrix as it was is not this matrix's: refused,
# named, before anything runs, and left as it was.
cp "$s/bench/mini.matrix" "$tmp/mini.matrix"
# CHANGE HOSTS: the matrix edited so (sed), with HOSTS= or without
for change in 's/^reps = 3$/reps = 4/ -' 's/^reps = 3$/reps = 4/ :' '$a read_timeout = 7 -' \
	'$a icount = shift=3,sleep=off -' '$a precision = 1 -'; do
	sed -i "${change% *}" "$s/bench/mini.matrix"
	h=${change##* }
	[ "$h" != - ] || h=
	older=$(mk RUNS=one DRYRUN=1 ${h:+HOSTS=$h})
	orc=$?
	if [ $orc -ne 0 ] && grep -q "results/reproduce/one was made from another bench/mini.matrix (its resolved matrix differs: .*move it aside (mv results/reproduce/one results/reproduce/one.old)" <<<"$older" &&
		[ "$(cat "$s/results/reproduce/one/raw.csv")" = "$one_raw" ]; then
		ok "a complete run made before its matrix changed ($change) is refused, named, and left as it was"
	else
		bad "a run of an older bench/mini.matrix ($change): exit $orc: $(brief "$older")"
	fi
	cp "$tmp/mini.matrix" "$s/bench/mini.matrix"
done
[ "$(cat "$rt" 2>/dev/null)" = "$rt_first" ] &&
	ok "a make reproduce that skipped or resumed a run leaves reproduce-time.csv as it was" ||
	bad "reproduce-time.csv changed by a run that resumed one and skipped another: $(cat "$rt" | head -c 300)"
missing=$(grep -vxFf "$two/raw.csv" <<<"$rows_before")
if grep -q "^\[reproduce\] two: resuming results/reproduce/two (--resume)" <<<"$out" &&
	[ "$(cd "$s" && plots/runstate.py results/reproduce/two)" = "complete 6" ] && [ -z "$missing" ] &&
	[ "$(tests/lib/csvget.py "$two/raw.csv" boot_id | sort | uniq -d)" = "" ]; then
	ok "the interrupted run is resumed to 6 boots, its $before earlier rows kept as they were, none twice"
else
	bad "resume: state $(cd "$s" && plots/runstate.py results/reproduce/two), rows lost: $missing"
fi
grep -qE "^\[reproduce\] run 2/2 two \(bench/mini.matrix\): ~[0-9]+ s left of it; all runs ~[0-9]+ s$" <<<"$out" &&
	ok "each run starts with its estimate left and the ETA over all runs" || bad "no run/ETA line: $(brief "$out")"
if [ -f "$s/studies/one/run/raw.csv" ] && cmp -s "$two/raw.csv" "$s/studies/two/run/raw.csv" &&
	[ ! -e "$s/studies/two/run/boots" ] && grep -q '^\[keep\] studies/two/run: [0-9]* KiB of its 256 KiB budget' <<<"$out"; then
	ok "both runs are kept in studies/ within their budget, without boots/"
else
	bad "keep: $(grep '\[keep\]' <<<"$out" | tr '\n' ' ')"
fi
stages=$(sed -n 's/^  by stage: //p' <<<"$out")
all_stages() {
	local st
	for st in checks+plan kernels image boots keep report; do grep -qE "(^|, )${st/+/\\+} [0-9.]+ s(,|\$)" <<<"$1" || return 1; done
}
grep -qE '^  one: complete before: skipped; keep [0-9.]+ s$' <<<"$out" &&
	grep -qE '^  two [0-9.]+ s: boots [0-9.]+ \(icount [0-9.]+ s: [0-9]+ boots\), keep [0-9.]+$' <<<"$out" &&
	all_stages "$stages" &&
	ok "the time split names each run and each stage" || bad "time split: $(sed -n '/time split/,$p' <<<"$out" | tr '\n' ' ')"

# keep-run's budget: a run over its row's budget_kib is refused, naming
# the files' sizes, and the kept copy stays as it was.
kept=$(cat "$s/studies/one/run/raw.csv" 2>/dev/null)
sed -i 's/^budget_kib 256$/budget_kib 1/' "$s/studies/one/study"
out=$(cd "$s" && scripts/keep-run.sh one results/reproduce/one 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "studies/one/run would hold [0-9]* KiB, over its budget of 1 KiB (budget_kib in studies/one/study): .*raw.csv [0-9]* KiB.*nothing was replaced" <<<"$out" &&
	[ -n "$kept" ] && [ "$(cat "$s/studies/one/run/raw.csv")" = "$kept" ] && [ -z "$(ls -d "$s"/studies/*/.keep-* 2>/dev/null)" ]; then
	ok "keep-run refuses a run over its budget, naming each file's size, and replaces nothing"
else
	bad "keep-run over budget: exit $rc: $out"
fi
