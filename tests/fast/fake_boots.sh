#!/usr/bin/env bash
# test: the runner against tests/lib/fake-qemu: boots that end, time out, fail
# runs: beside
# The runner against tests/lib/fake-qemu (a stand-in that replays recorded
# boots, hangs, crashes and floods): every row status (a stalled runner
# included; how a boot's processes and console end is
# tests/fast/fake_boots_ends.sh's), the KVM canary's reason, the progress line, resume after SIGKILL
# of the runner, no orphan QEMU, one runner per results directory, merges
# that are checked before anything is written. No kernels, seconds each.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "fake boots"
fx=$PWD/tests/fixtures/block-qemu64.result
runner=${CRNGBENCH_RUNNER:-build/crngbench-run}
get() { tests/lib/csvget.py "$@"; }
# Start a sweep in the background and SIGKILL the runner once DIR/raw.csv
# holds a row (bounded wait): an interrupted run to resume.
killed_run() {
	local dir=$1 pid
	shift
	"${run[@]:2}" --out "$dir" "$@" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 1200); do
		[ "$(tail -n +2 "$dir/raw.csv" 2>/dev/null | wc -l)" -ge "${rows:-1}" ] && break
		sleep 0.05
	done
	kill -KILL $pid
	wait $pid 2>/dev/null
}

# One "kernel" per scenario: the fake reads what to do from the bzImage.
k=$tmp/kernels
scen ok "ok $fx"
scen slow "slow-ok $fx"
scen censored "censored $fx"
scen inject "inject $fx"
scen sleepy "slow-ok $fx 2"
for s in hang leaky panic guest-fail garbage flood crash qemu-error silent-console fail-daemon crash-daemon; do
	scen "$s" "$s"
done
touch "$tmp/image"
run=(timeout 120 "$runner" --qemu tests/lib/fake-qemu --kernels "$k" --image "$tmp/image" --quiet
	--kvm-canary 1)

# 1. Every status, each from the scenario that must produce it.
# (icount: the fake does not care, and icount boots may run 8 at once).
# The flood boots alone, with a budget of 60 s of host time: among 8 at
# once on a loaded 2-core machine it once wrote nothing within 5 s, and
# later within 15 s, and came out 'timeout' (what is tested is the cap on
# what it writes, not how fast it writes). No boot here depends on how
# busy the machine is: each budget is many times what its boot takes on
# an idle one (the hang boots wait it out: 30 s, beside the other steps),
# and each wait for a file or a row goes on up to 60 s.
"${run[@]}" --out "$tmp/all" --parallel-jobs 8 --seed 5 --set timeout=30 --set reps=1 --set accel=icount,kvm \
	--set variant=ok,censored,hang,leaky,panic,guest-fail,garbage,crash,qemu-error,silent-console \
	>"$tmp/all.log" 2>&1
rc=$?
[ $rc -eq 0 ] || bad "the all-statuses run exited $rc: $(tail -n 3 "$tmp/all.log" | tr '\n' ' ')"
"${run[@]}" --out "$tmp/flood" --parallel-jobs 1 --seed 5 --set timeout=60 --set reps=1 --set accel=icount \
	--set variant=flood >"$tmp/flood.log" 2>&1 ||
	bad "the flood run exited $?: $(tail -n 3 "$tmp/flood.log" | tr '\n' ' ')"
expect() { # variant accel status [reason pattern]
	local st re d=$tmp/all
	[ "$1" != flood ] || d=$tmp/flood
	st=$(get "$d/raw.csv" status variant="$1" accel="$2")
	re=$(get "$d/raw.csv" reason variant="$1" accel="$2")
	if [ "$st" = "$3" ] && grep -q -- "${4:-}" <<<"$re"; then
		ok "$1 under $2 is '$3'${4:+ ($4)}"
	else
		bad "$1 under $2: status '$st', reason '$re'; expected '$3'${4:+ with '$4'}"
	fi
}
expect ok icount ok
expect censored icount censored "last record: reading iface=urandom"
expect hang icount timeout "nothing from the guest"
expect leaky icount timeout
expect panic icount panic "Kernel panic"
expect guest-fail icount guest-failed "mount devtmpfs"
expect garbage icount corrupt
expect flood icount corrupt "flooded"
expect crash icount qemu-failed "signal 11"
expect qemu-error icount qemu-failed "status 1: qemu-system-x86_64: could not load kernel"
expect ok kvm skipped "KVM unusable"
expect silent-console icount corrupt "console.log is empty"
# The flood was capped: what the runner kept is bounded.
size=$(stat -c %s "$tmp/flood/boots/$(get "$tmp/flood/raw.csv" boot_id variant=flood accel=icount)/result.log")
[ "$size" -le $((16 << 20)) ] && ok "a flooding guest's result.log is capped ($size bytes kept)" ||
	bad "flood result.log is $size bytes"
# QEMU's exit status and signal are columns of their own.
[ "$(get "$tmp/all/raw.csv" qemu_signal variant=crash accel=icount)" = 11 ] &&
	[ "$(get "$tmp/all/raw.csv" qemu_exit variant=qemu-error accel=icount)" = 1 ] &&
	[ "$(get "$tmp/all/raw.csv" qemu_exit variant=ok accel=icount)" = 0 ] &&
	ok "raw.csv records QEMU's exit status and signal" || bad "qemu_exit/qemu_signal columns wrong"
# The leaky boot's helper kept the pipes open; the run ended anyway, and
# the helper (in a session of its own) was ended with its boot.
helper=$(grep -ho 'helper pid [0-9]*' "$tmp"/all/boots/*/console.log | awk '{print $3}')
[ -n "$helper" ] && [ $rc -ne 124 ] && ok "a boot whose helper keeps the channel open still ends at its timeout" ||
	bad "leaky boot: helper '$helper', run exit $rc"
if [ -n "$helper" ] && kill -0 "$helper" 2>/dev/null; then
	kill "$helper"
	bad "leaky boot: its helper (pid $helper, a session of its own) outlived the run"
else
	ok "a helper in a session of its own that outlives QEMU is ended with its boot"
fi
# Every status the runner can write was produced (skipped included).
for st in $("$runner" --describe | /usr/bin/python3 -c 'import json,sys; print(*json.load(sys.stdin)["statuses"])'); do
	get "$tmp/all/raw.csv" status | grep -x "$st" >/dev/null || bad "no boot ended '$st'"
done

# 1c. A runner stopped (SIGSTOP) mid-boot does not inflate host times
# unmarked: the row says the runner stalled, and its host times after the
# stall are left empty (out of host-time statistics).
"${run[@]:2}" --out "$tmp/stop" --set variant=sleepy --set reps=1 --set timeout=30 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1200); do ls "$tmp"/stop/boots/*/console.log >/dev/null 2>&1 && break; sleep 0.05; done
kill -STOP $pid
sleep 3
kill -CONT $pid
wait $pid
re=$(get "$tmp/stop/raw.csv" reason)
[ "$(get "$tmp/stop/raw.csv" status)" = ok ] && grep -q "runner stalled" <<<"$re" &&
	[ -z "$(get "$tmp/stop/raw.csv" host_exit_ns)" ] &&
	ok "a boot during which the runner was stopped is marked ($re), its host times left out" ||
	bad "SIGSTOPped runner: status '$(get "$tmp/stop/raw.csv" status)', reason '$re', host_exit_ns '$(get "$tmp/stop/raw.csv" host_exit_ns)'"

# 1e. The KVM canary's reason: a QEMU warning is not the cause; QEMU's
# own error line is. (The /dev/kvm checks are skipped: no KVM here.)
for mode in warn error; do
	CRNGBENCH_SKIP_KVM_DEVICE_CHECK=1 FAKE_QEMU_KVM=$mode "${run[@]}" --out "$tmp/canary-$mode" \
		--set variant=ok --set accel=kvm --set reps=1 >"$tmp/canary-$mode.log" 2>&1
done
re=$(get "$tmp/canary-warn/raw.csv" reason)
grep -q "printed nothing in 1 s" <<<"$re" && ! grep -q "host doesn't support" <<<"${re%%(*}" &&
	ok "a KVM canary that only warned and hung says the guest printed nothing ($re)" ||
	bad "KVM canary with a warning: '$re'"
# Its skipped cells' note (the reason, commas and all) is one summary.csv
# field: the chart tools refused the whole file when it was not.
python3 - "$tmp/canary-warn/summary.csv" <<'PY' && ok "a skipped cell's reason with commas is one summary.csv field (note)" || bad "summary.csv of skipped KVM cells is not a table"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows), [len(r) for r in rows]
note = [r[rows[0].index("note")] for r in rows[1:]]
assert all(n.startswith("not measured: ") and "," in n for n in note), note
PY
# The terminal says what would make KVM usable, beside why it is not.
grep -q "^\[bench\] to measure them: KVM opens but the guest does not run: in a VM, enable nested virtualization" "$tmp/canary-warn.log" &&
	ok "a failed KVM canary says what would fix it (nested virtualization), and where to read more" ||
	bad "KVM canary's fix: $(grep -A1 SKIPPED "$tmp/canary-warn.log" | tr '\n' ' ')"
re=$(get "$tmp/canary-error/raw.csv" reason)
grep -q "error: failed to set MSR 0x38d" <<<"$re" && ! grep -q "host doesn't support" <<<"$re" &&
	ok "a KVM canary that failed keeps QEMU's error line ($re)" || bad "KVM canary with an error: '$re'"

# 1f. meta.json: the version of every QEMU binary the run used ("qemu"
# stays the x86 one, a string, for older readers).
mkdir -p "$tmp/bin" "$k/ok-hz100" "$k/ok-hz100-m68k"
ln -sf "$PWD/tests/lib/fake-qemu" "$tmp/bin/qemu-system-m68k"
echo "ok $fx" >"$k/ok-hz100/bzImage"
echo "ok $fx" >"$k/ok-hz100-m68k/vmlinux"
: >"$tmp/probe-m68k.cpio"
PATH="$tmp/bin:$PATH" "${run[@]}" --out "$tmp/qv" --set variant=ok --set hz=100 --set trace=off --set cpu=default \
	--set arch=x86_64,m68k-virt --set reps=1 >"$tmp/qv.log" 2>&1
/usr/bin/python3 - "$tmp/qv/meta.json" <<'PY' && ok "meta.json records every QEMU binary's version (qemu_versions), qemu stays x86's" ||
import json, sys
m = json.load(open(sys.argv[1]))
v = "QEMU emulator version 7.2.0 (crngbench fake-qemu"
assert m["qemu"] == v + ")", m.get("qemu")
assert m.get("qemu_versions") == {"tests/lib/fake-qemu": v + ")", "qemu-system-m68k": v + " as qemu-system-m68k)"}, m.get("qemu_versions")
PY
	bad "meta.json qemu versions: $(grep qemu "$tmp/qv/meta.json" | tr '\n' ' ') $(tail -n 2 "$tmp/qv.log")"

# 1g. The progress line names the running cell on every line (TCG boots,
# one at a time, included) and gives no ETA for an accelerator none of
# whose boots has finished yet. Into a file (a log) each update is a line
# of its own, never joined by "\r" into one; on a terminal (script(1)'s)
# it is one line rewritten in place.
"$runner" --qemu tests/lib/fake-qemu --kernels "$k" --image "$tmp/image" --out "$tmp/prog" --parallel-jobs 2 --seed 4 \
	--set variant=ok --set accel=icount,tcg --set reps=8 --set rtc=fixed \
	>/dev/null 2>"$tmp/prog.err"
grep '^\[bench\] [0-9]*/[0-9]* boots' "$tmp/prog.err" | grep -v 'boots done in' >"$tmp/prog.lines"
n=$(grep -c 'ok tcg' "$tmp/prog.lines")
noname=$(grep -vc 'ok \(icount\|tcg\)' "$tmp/prog.lines")
first_tcg=$(grep -m1 'ok tcg' "$tmp/prog.lines")
[ "$n" -ge 8 ] && [ "$noname" -eq 0 ] && grep -q "eta \(unknown\|>[0-9]*s (tcg unknown)\)" <<<"$first_tcg" &&
	ok "every progress line names its cell (each of 8 TCG boots run one at a time too); no ETA for TCG before a TCG boot ended" ||
	bad "progress: $n lines name a TCG cell (want 8, one per TCG boot), $noname lines without a cell, first TCG line '$first_tcg'; e.g. '$(grep -vm1 'ok \(icount\|tcg\)' "$tmp/prog.lines")'"
n=$(wc -l <"$tmp/prog.lines")
! grep -q $'\r' "$tmp/prog.err" && [ "$n" -ge 9 ] && [ "$n" -le 32 ] && grep -qx '\[bench\] 16/16 boots done in [0-9]*s' "$tmp/prog.err"
verdict $? "into a log file the progress is a line per update (of 16 boots: $n), no \\r, then the closing line" \
	"$(grep -c $'\r' "$tmp/prog.err") carriage returns, $n lines: $(tail -c 200 "$tmp/prog.err" | tr '\r\n' '|/')"
if command -v script >/dev/null; then
	script -qec "$(printf '%q ' "$runner" --qemu tests/lib/fake-qemu --kernels "$k" --image "$tmp/image" --out "$tmp/tty" \
		--parallel-jobs 2 --seed 4 --set variant=ok --set accel=icount,tcg --set reps=3 --set rtc=fixed) >/dev/null" \
		/dev/null >"$tmp/tty.err" 2>&1
	# (the terminal ends each line with \r\n: a \r right before [bench] is the runner's)
	[ "$(grep -o $'\r\\[bench\\] [0-9]/6 boots ' "$tmp/tty.err" | wc -l)" -ge 3 ] &&
		grep -q $'\r\\[bench\\] 6/6 boots done in' "$tmp/tty.err"
	verdict $? "on a terminal the progress line is rewritten in place (\\r), the closing line over it" "$(tail -c 200 "$tmp/tty.err" | tr '\r\n' '|/')"
else
	echo "SKIP: fake boots: the terminal's progress line: no script(1) to give the runner a terminal"
fi

# 2. SIGKILL of the runner mid-sweep: no QEMU left; --resume finishes the
# run without redoing or doubling a boot. (rtc=fixed in the sweeps that
# count boots: boots alike in every input never stop as identical, so
# each cell runs to reps; tests/fast/stop_rule.sh tests the stop rule.)
rows=2 killed_run "$tmp/kill" --jobs 1 --seed 7 --set variant=slow --set reps=6 --set timeout=60 --set rtc=fixed
sleep 0.5
orphans=$(pgrep -f "fake-qemu -M microvm.*$tmp/kill/" | wc -l)
[ "$orphans" -eq 0 ] && ok "no QEMU outlives a SIGKILLed runner" || bad "$orphans QEMU processes left behind"
before=$(tail -n +2 "$tmp/kill/raw.csv" | wc -l)
"${run[@]}" --out "$tmp/kill" --resume >/dev/null 2>&1
ids=$(get "$tmp/kill/raw.csv" boot_id)
if [ "$before" -ge 1 ] && [ "$before" -lt 6 ] && [ "$(wc -l <<<"$ids")" -eq 6 ] &&
	[ -z "$(sort <<<"$ids" | uniq -d)" ]; then
	ok "--resume after SIGKILL ($before of 6 done) finishes with 6 boots, none twice"
else
	bad "resume after SIGKILL: $before before, ids $(echo $ids)"
fi

# 2a. --resume of a run whose tables have other columns (another runner
# version) is refused before any boot, pointing at --rescan, and nothing
# of it is changed.
cp -r "$tmp/kill" "$tmp/oldcols"
sed -i '1s/,urandom_digest$//' "$tmp/oldcols/raw.csv"
sum_before=$(cat "$tmp/oldcols/raw.csv" | md5sum)
"${run[@]}" --out "$tmp/oldcols" --resume >/dev/null 2>"$tmp/oldcols.err" && rc=0 || rc=$?
[ "$rc" -ne 0 ] && grep -q "other columns.*--rescan" "$tmp/oldcols.err" &&
	[ "$(md5sum <"$tmp/oldcols/raw.csv")" = "$sum_before" ] &&
	ok "--resume of a run with another version's columns is refused, naming --rescan, the run untouched" ||
	bad "resume with old columns: rc=$rc, $(head -c 300 "$tmp/oldcols.err")"

# 2b. --resume boots as the run was started (run.args): shard, --append;
# other options are refused, and so is a kernel changed since.
killed_run "$tmp/args" --jobs 1 --seed 7 --shard 1/2 --append "crngbench_test=1" \
	--set variant=slow,ok --set reps=6 --set timeout=60 --set rtc=fixed
msg=$("${run[@]}" --out "$tmp/args" --resume --append "other=1" 2>&1)
grep -q "started with --append crngbench_test=1" <<<"$msg" &&
	ok "--resume with another --append is refused, naming the original" || bad "resume --append: $msg"
"${run[@]}" --out "$tmp/args" --resume >/dev/null 2>&1
n=$(get "$tmp/args/raw.csv" boot_id | wc -l)
noappend=$(grep -L "crngbench_test=1" "$tmp"/args/boots/*/cmd | wc -l)
cells=$(get "$tmp/args/raw.csv" cell | sort -u | wc -l)
[ "$n" -eq 6 ] && [ "$cells" -eq 1 ] && [ "$noappend" -eq 0 ] &&
	ok "--resume of a --shard 1/2 --append run boots only its shard (one cell of two, all its boots), with the --append" ||
	bad "resume of shard+append: $n rows of $cells cells (want 6 of 1), $noappend boots without the --append"
killed_run "$tmp/args2" --jobs 1 --set variant=slow --set reps=4 --set timeout=60
echo "slow-ok $fx # rebuilt" >"$k/slow-hz250/bzImage"
msg=$("${run[@]}" --out "$tmp/args2" --resume 2>&1)
grep -q "is not the file this run started with" <<<"$msg" &&
	ok "--resume after a kernel changed is refused" || bad "resume with a changed kernel: $msg"
echo "slow-ok $fx" >"$k/slow-hz250/bzImage"

# 3. One runner per results directory.
lock=(--out "$tmp/lock" --jobs 1 --set variant=hang --set reps=1 --set timeout=60)
"${run[@]:2}" "${lock[@]}" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1200); do [ -s "$tmp/lock/.lock" ] && break; sleep 0.05; done
msg=$("${run[@]}" "${lock[@]}" 2>&1)
kill -TERM $pid; wait $pid 2>/dev/null
grep -q "in use by another crngbench-run (pid $pid)" <<<"$msg" &&
	ok "a second runner on a results directory is refused, naming the holder" || bad "lock: $msg"

# 4. Shards, and merges that are checked before anything is written.
for s in 1 2; do
	"${run[@]}" --out "$tmp/s$s" --seed 9 --shard $s/2 --set variant=ok,slow --set reps=2 >/dev/null 2>&1
done
a=$(get "$tmp/s1/raw.csv" boot_id | sort); b=$(get "$tmp/s2/raw.csv" boot_id | sort)
[ -n "$a" ] && [ -n "$b" ] && [ -z "$(comm -12 <(echo "$a") <(echo "$b"))" ] &&
	ok "shards 1/2 and 2/2 boot disjoint parts" || bad "shards overlap: {$a} {$b}"
"$runner" --quiet --merge "$tmp/m" "$tmp/s1" "$tmp/s2" >/dev/null 2>&1 &&
	[ "$(get "$tmp/m/raw.csv" boot_id | wc -l)" -eq 4 ] && [ -s "$tmp/m/summary.csv" ] &&
	grep -q merged_from "$tmp/m/meta.json" && ok "merged shards hold the whole matrix and a summary" ||
	bad "merge of s1 and s2"
refused() { # name, merge args...
	local name=$1 msg; shift
	if msg=$("$runner" --quiet --merge "$tmp/r" "$@" 2>&1); then
		bad "merge $name was accepted"
	elif [ -e "$tmp/r" ] || ls -d "$tmp"/r.merge-* >/dev/null 2>&1; then
		bad "merge $name was refused but left files: $(ls -d "$tmp"/r*)"
	else
		ok "merge $name is refused and writes nothing: $(head -c 90 <<<"$msg")"
	fi
}
refused "of a shard with itself" "$tmp/s1" "$tmp/s1"
refused "with a shard missing" "$tmp/s1"
refused "of another run's shard" "$tmp/s1" "$tmp/kill"
# --commit ID: the code a run is made from, in run.args. --resume takes
# no other; --merge refuses shards that differ (make reproduce's shards
# record theirs), naming both.
"${run[@]}" --out "$tmp/c2" --seed 9 --shard 2/2 --set variant=ok,slow --set reps=2 --commit abc1 >/dev/null 2>&1
grep -qx "commit = abc1" "$tmp/c2/run.args" 2>/dev/null && ok "--commit ID is recorded in run.args" ||
	bad "--commit abc1: run.args: $(tr '\n' ' ' <"$tmp/c2/run.args" 2>&1)"
msg=$("${run[@]}" --out "$tmp/c2" --resume --commit abc2 2>&1)
grep -q "started with --commit abc1, not abc2" <<<"$msg" && ok "--resume with another --commit is refused, naming both" ||
	bad "--resume --commit abc2 of a run of abc1: $msg"
msg=$("${run[@]}" --out "$tmp/s2" --resume --commit abc1 2>&1)
grep -q "started without --commit" <<<"$msg" && ok "--resume --commit of a run started without it is refused" ||
	bad "--resume --commit of a run without one: $msg"
cp -r "$tmp/s1" "$tmp/c1"
awk '!d && /^file / { print "commit = abc0"; d = 1 } 1' "$tmp/s1/run.args" >"$tmp/c1/run.args"
msg=$("$runner" --quiet --merge "$tmp/r" "$tmp/c1" "$tmp/c2" 2>&1)
[ ! -e "$tmp/r" ] && grep -q "commit 'abc0' in the first, 'abc1' in the second" <<<"$msg" &&
	ok "--merge refuses shards of different --commit, naming both" || bad "merge of shards of abc0 and abc1: $msg"

# 5. --summarize uses the run's own seed: the same bytes as the run's summary.
cp "$tmp/m/summary.csv" "$tmp/summary.before"
"$runner" --summarize "$tmp/m" >/dev/null 2>&1 && cmp -s "$tmp/m/summary.csv" "$tmp/summary.before" &&
	ok "--summarize DIR reproduces the run's summary (it reads DIR/seed)" ||
	bad "--summarize gave another summary than the run"

# 5b. Nothing from the guest is trusted: an iface holding a comma and a
# line break stays one field of its own boot's row (the break as a space).
"${run[@]}" --out "$tmp/inject" --set variant=inject --set reps=1 >/dev/null 2>&1
id=$(get "$tmp/inject/raw.csv" boot_id)
ifaces=$(get "$tmp/inject/reads.csv" iface boot_id="$id" | head -n 1)
others=$(get "$tmp/inject/reads.csv" boot_id | grep -vcx "$id")
[ "$others" -eq 0 ] && [ "$ifaces" = "urandom,c0-r9,0,x c0-r9" ] &&
	ok "guest text with a comma and a line break cannot inject rows into reads.csv" ||
	bad "injection: $others rows of other boots, first iface '$ifaces'"

# 5c. raw.csv damage on resume: a row that does not parse is set aside
# (raw.csv.rejected), its boot runs again; an empty raw.csv gets its header.
cp -r "$tmp/m" "$tmp/bad"
rm -f "$tmp/bad/.lock" "$tmp/bad/run.args"
cp "$tmp/s1/run.args" "$tmp/bad/run.args"
sed -i 's/^shard = .*/shard = 1\/1/' "$tmp/bad/run.args"
victim=$(get "$tmp/bad/raw.csv" boot_id | head -n 1)
sed -i "2s/,ok,/,ok,\"unterminated/" "$tmp/bad/raw.csv"
"${run[@]}" --out "$tmp/bad" --resume >"$tmp/bad.log" 2>&1
ids=$(get "$tmp/bad/raw.csv" boot_id)
grep -q "^line 2: $victim," "$tmp/bad/raw.csv.rejected" 2>/dev/null && [ "$(wc -l <<<"$ids")" -eq 4 ] &&
	[ -z "$(sort <<<"$ids" | uniq -d)" ] &&
	ok "a damaged raw.csv row is set aside with its line number and its boot redone once" ||
	bad "damaged row: $(tail -n 2 "$tmp/bad.log" | tr '\n' ' ') ids: $(echo $ids)"
killed_run "$tmp/empty" --jobs 1 --set variant=slow --set reps=2
: >"$tmp/empty/raw.csv"
"${run[@]}" --out "$tmp/empty" --resume >/dev/null 2>&1
[ "$(head -n 1 "$tmp/empty/raw.csv" | cut -d, -f1)" = boot_id ] && [ "$(get "$tmp/empty/raw.csv" boot_id | wc -l)" -eq 2 ] &&
	ok "an empty raw.csv gets its header back on resume" || bad "empty raw.csv: $(head -c 200 "$tmp/empty/raw.csv")"

# 5d. No shell between the user's arguments and exec; bounded QEMU checks.
mkdir -p "$tmp/my qemu;true"
cp tests/lib/fake-qemu "$tmp/my qemu;true/qemu"
"${run[@]}" --qemu "$tmp/my qemu;true/qemu" --out "$tmp/path" --set variant=ok --set reps=1 >/dev/null 2>&1 &&
	grep -q '"qemu": "QEMU emulator version 7.2.0 (crngbench fake-qemu)"' "$tmp/path/meta.json" &&
	ok "a QEMU path with a space and ';' runs, no shell involved" || bad "QEMU path with a space: $(grep qemu "$tmp/path/meta.json")"
FAKE_QEMU_VERSION=hang FAKE_QEMU_CPU_CHECK=exit "${run[@]}" --out "$tmp/ver" --set variant=ok --set reps=1 \
	>"$tmp/ver.log" 2>&1
[ $? -eq 0 ] && grep -q '"qemu": ""' "$tmp/ver/meta.json" &&
	[ "$(get "$tmp/ver/raw.csv" status)" = ok ] &&
	ok "a QEMU that never answers --version, and a -cpu check that exits unread, do not stop the run" ||
	bad "version hang / cpu-check exit: $(tail -n 2 "$tmp/ver.log" | tr '\n' ' ')"

# 5e. SIGHUP ends a sweep like Ctrl-C: exit 130, no QEMU left behind.
"${run[@]:2}" --out "$tmp/hup" --jobs 2 --set variant=hang --set reps=2 --set timeout=30 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1200); do [ "$(ls "$tmp/hup/boots" 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.05; done
sleep 0.3
kill -HUP $pid; wait $pid; rc=$?
sleep 0.3
left=$(pgrep -f "fake-qemu -M microvm.*$tmp/hup/" | wc -l)
[ $rc -eq 130 ] && [ "$left" -eq 0 ] && ok "SIGHUP: the runner exits 130 and leaves no QEMU" ||
	bad "SIGHUP: exit $rc, $left QEMU processes left"

# 5f. A seed file that is not a number is an error, never seed 0.
cp -r "$tmp/m" "$tmp/seedbad" && echo "12abc" >"$tmp/seedbad/seed"
msg=$("$runner" --summarize "$tmp/seedbad" 2>&1)
[ $? -eq 2 ] && grep -q "does not hold a seed" <<<"$msg" && ok "a garbage seed file is refused, naming it" ||
	bad "garbage seed: $msg"

# 5g. icount boots share the host; a TCG boot never runs beside another boot.
"${run[@]}" --out "$tmp/par" --jobs 1 --parallel-jobs 3 --seed 3 --set variant=slow --set reps=3 \
	--set accel=tcg,icount --set rtc=fixed >/dev/null 2>&1
/usr/bin/python3 - "$tmp/par" <<'PY' && ok "icount boots overlap (--parallel-jobs), TCG boots run alone" || bad "parallel policy: see above"
import csv, glob, re, sys
run = sys.argv[1]
span = {}
for r in csv.DictReader(open(run + "/raw.csv")):
    con = open(f"{run}/boots/{r['boot_id']}/console.log").read()
    t = [float(x) for x in re.findall(r"fake-qemu (?:start|end) ([0-9.]+)", con)]
    span[r["boot_id"]] = (r["accel"], t[0], t[-1])
def overlap(a, b):
    return a[1] < b[2] and b[1] < a[2]
ic = [s for s in span.values() if s[0] == "icount"]
tc = [s for s in span.values() if s[0] == "tcg"]
assert len(ic) == 3 and len(tc) == 3, span
assert any(overlap(a, b) for a in ic for b in ic if a is not b), "icount boots never overlapped"
for a in tc:
    assert not any(overlap(a, b) for b in span.values() if b is not a), ("a TCG boot overlapped", a)
# host time per accelerator: icount's span ends before TCG's begins
ht = {r["accel"]: r for r in csv.DictReader(open(run + "/host_time.csv"))}
assert set(ht) == {"icount", "tcg"} and ht["icount"]["boots"] == "3" == ht["tcg"]["boots"], ht
assert float(ht["tcg"]["host_s"]) >= max(s[2] for s in tc) - min(s[1] for s in tc) - 0.5, ht
PY
n=$(nproc)
if [ "$n" -lt 16 ]; then
	msg=$("${run[@]}" --out "$tmp/jobs" --jobs $((n + 1)) --set variant=ok 2>&1)
	[ $? -eq 2 ] && grep -q "more than this machine's $n CPUs" <<<"$msg" && [ ! -e "$tmp/jobs" ] &&
		ok "--jobs above the CPUs for TCG boots is refused before the sweep" || bad "--jobs $((n + 1)): $msg"
fi

# 5h. The timer axis: auto is the accelerator's own tick, recorded as such;
# pit switches the LAPIC timer off.
out=$("${run[@]}" --out "$tmp/timer" --set variant=ok --set accel=tcg,icount --set timer=auto,lapic,pit --set reps=1 \
	--dry-run 2>&1)
pits=$(grep -c noapictimer <<<"$out")
"${run[@]}" --out "$tmp/timer2" --set variant=ok --set accel=tcg,icount --set reps=1 >/dev/null 2>&1
[ "$pits" -eq 3 ] && [ "$(get "$tmp/timer2/raw.csv" timer accel=icount)" = pit ] &&
	[ "$(get "$tmp/timer2/raw.csv" timer accel=tcg)" = lapic ] &&
	[ "$(get "$tmp/timer2/summary.csv" timer measure=crng_ready | sort | paste -sd,)" = lapic,pit ] &&
	ok "timer=pit (and auto under icount) gives noapictimer; rows record the tick the guest got" ||
	bad "timer axis: $pits noapictimer lines (want 3: tcg pit, icount auto and pit), rows: $(get "$tmp/timer2/raw.csv" timer | tr '\n' ' ')"

# 6. Limits are errors before the sweep, never silent truncation.
long=$(printf 'x%.0s' $(seq 2100))
msg=$("${run[@]}" --out "$tmp/long" --set variant=ok --append "$long random.trust_cpu=off" 2>&1)
[ $? -eq 2 ] && grep -q "longer than 2047 bytes" <<<"$msg" && [ ! -e "$tmp/long/raw.csv" ] &&
	ok "an --append past the kernel's command line limit is refused, naming it" || bad "long --append: $msg"
