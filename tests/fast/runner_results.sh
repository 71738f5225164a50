#!/usr/bin/env bash
# test: runner on results directories
# The runner on results directories it did not write, or that do not agree
# with each other: merges of shards started differently or holding boots
# outside the plan, --out on a directory that is no run, a raw.csv holding
# a boot twice; links, FIFOs and devices planted in a run, rows outside
# the plan in every mode. Against tests/lib/fake-qemu: no kernels, seconds.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "results dirs"
fx=$PWD/tests/fixtures/block-qemu64.result
runner=${CRNGBENCH_RUNNER:-build/crngbench-run}
get() { tests/lib/csvget.py "$@"; }
k=$tmp/kernels
scen ok "ok $fx"
scen slow "slow-ok $fx"
touch "$tmp/image"
run=(timeout 120 "$runner" --qemu tests/lib/fake-qemu --image "$tmp/image" --quiet --kvm-canary 1 --jobs 1)
shard() { # DIR K/N [options...]: one shard of a 4-boot run (2 cells, reps=2)
	local dir=$1 s=$2
	shift 2
	"${run[@]}" --kernels "$k" --out "$dir" --seed 9 --shard "$s" --set variant=ok,slow --set reps=2 \
		--set accel=icount "$@" >/dev/null 2>&1 || bad "shard $dir $s did not run"
}
# refused NAME WANT DIR...: the merge fails naming WANT, and writes nothing.
refused() {
	local name=$1 want=$2 msg
	shift 2
	rm -rf "$tmp/r"
	if msg=$("$runner" --quiet --merge "$tmp/r" "$@" 2>&1); then
		bad "merge $name was accepted: $(get "$tmp/r/raw.csv" boot_id | wc -l) rows"
	elif ! grep -q -- "$want" <<<"$msg"; then
		bad "merge $name: wanted '$want', got: $(head -c 300 <<<"$msg")"
	elif [ -e "$tmp/r" ] || ls -d "$tmp"/r.merge-* >/dev/null 2>&1; then
		bad "merge $name was refused but left files: $(ls -d "$tmp"/r*)"
	else
		ok "merge $name is refused and writes nothing: $(head -c 120 <<<"$msg")"
	fi
}

# 1. --merge compares how the shards were started (run.args): only --shard
# (and --out) may differ; the kernels and the image by content, not path.
shard "$tmp/s1" 1/2
shard "$tmp/s2" 2/2
shard "$tmp/a2" 2/2 --append "crngbench_x=1"
refused "of a shard started with another --append" "append" "$tmp/s1" "$tmp/a2"
refused "naming both --append values" "'crngbench_x=1'" "$tmp/s1" "$tmp/a2"
shard "$tmp/q2" 2/2 --qemu-arg -no-hpet
refused "of a shard started with another --qemu-arg" "qemu_arg" "$tmp/s1" "$tmp/q2"
k2=$tmp/kernels2
cp -r "$k" "$k2"
echo "ok $fx # rebuilt" >"$k2/ok-hz250/bzImage"
shard "$tmp/k2" 2/2 --kernels "$k2"
refused "of a shard that booted another kernel" "ok-hz250/bzImage" "$tmp/s1" "$tmp/k2"
k3=$tmp/elsewhere/kernels
mkdir -p "$tmp/elsewhere" && cp -r "$k" "$k3"
shard "$tmp/k3" 2/2 --kernels "$k3"
rm -rf "$tmp/m3"
if "$runner" --quiet --merge "$tmp/m3" "$tmp/s1" "$tmp/k3" >/dev/null 2>&1 &&
	[ "$(get "$tmp/m3/raw.csv" boot_id | wc -l)" -eq 4 ]; then
	ok "merge of shards whose kernels are the same files in another directory is accepted"
else
	bad "merge of shards with the same kernels under another path was refused"
fi

# 2. --merge refuses rows outside the plan: a c0-r7 in a reps=2 run.
cp -r "$tmp/s2" "$tmp/x2"
row=$(sed -n 2p "$tmp/x2/raw.csv")
id=${row%%,*}
echo "c0-r7${row#"$id"}" >>"$tmp/x2/raw.csv"
refused "of a shard holding a boot outside the plan" "c0-r7" "$tmp/s1" "$tmp/x2"

# 3. --out on a directory that is not a run of crngbench-run is refused and
# left as it was; an empty directory is fine.
mine() { # DIR [FILE...]: a user's directory with a seed, meta.json, summary.csv
	local d=$1
	shift
	mkdir -p "$d" && echo 42 >"$d/seed" && echo '{"mine": 1}' >"$d/meta.json" &&
		echo "my,summary" >"$d/summary.csv"
	for f in "$@"; do echo "my $f" >"$d/$f"; done
}
state() { (cd "$1" && ls -A && cat ./* 2>/dev/null); }
mine "$tmp/mine"
before=$(state "$tmp/mine")
msg=$("${run[@]}" --kernels "$k" --out "$tmp/mine" --set variant=ok --set reps=1 2>&1)
rc=$?
after=$(state "$tmp/mine")
if [ $rc -eq 2 ] && [ "$before" = "$after" ] && grep -q "empty or new directory" <<<"$msg" &&
	grep -q -- "--resume" <<<"$msg"; then
	ok "--out on a directory holding other files is refused, untouched: $(head -c 120 <<<"$msg")"
else
	bad "--out on a user's directory: rc=$rc, files now: $(ls -A "$tmp/mine" | tr '\n' ' ') msg: $(head -c 200 <<<"$msg")"
fi
mine "$tmp/mine2" raw.csv
before=$(state "$tmp/mine2")
msg=$("${run[@]}" --kernels "$k" --out "$tmp/mine2" --resume 2>&1)
rc=$?
after=$(state "$tmp/mine2")
[ $rc -eq 2 ] && [ "$before" = "$after" ] && grep -q "not a run" <<<"$msg" &&
	ok "--resume on a directory that is not a run is refused, untouched" ||
	bad "--resume on a user's directory: rc=$rc, files now: $(ls -A "$tmp/mine2" | tr '\n' ' ') msg: $(head -c 200 <<<"$msg")"
mkdir -p "$tmp/empty"
"${run[@]}" --kernels "$k" --out "$tmp/empty" --set variant=ok --set reps=1 >/dev/null 2>&1 &&
	[ "$(get "$tmp/empty/raw.csv" status)" = ok ] && ok "--out on an empty directory runs" ||
	bad "--out on an empty directory did not run"

# 4. One rule for a boot recorded twice: --summarize refuses it as --resume does.
"${run[@]}" --kernels "$k" --out "$tmp/dup" --seed 3 --set variant=ok --set reps=3 >/dev/null 2>&1
sed -n 2p "$tmp/dup/raw.csv" >>"$tmp/dup/raw.csv"
cp "$tmp/dup/summary.csv" "$tmp/dup.summary"
msg=$("$runner" --summarize "$tmp/dup" 2>&1)
rc=$?
[ $rc -eq 2 ] && grep -q "twice" <<<"$msg" && cmp -s "$tmp/dup/summary.csv" "$tmp/dup.summary" &&
	ok "--summarize refuses a raw.csv holding a boot twice: $(head -c 120 <<<"$msg")" ||
	bad "--summarize of a doubled boot: rc=$rc, n=$(get "$tmp/dup/summary.csv" n measure=crng_ready) $(head -c 200 <<<"$msg" | tr '\n' ' ')"
msg2=$("${run[@]}" --kernels "$k" --out "$tmp/dup" --resume 2>&1)
rc=$?
[ $rc -eq 2 ] && [ "${msg2#*error: }" = "${msg#*error: }" ] &&
	ok "--resume refuses the same raw.csv with the same message" ||
	bad "--resume and --summarize differ on a doubled boot: rc=$rc '$(head -c 200 <<<"$msg2" | tr '\n' ' ')' vs '$(head -c 200 <<<"$msg" | tr '\n' ' ')'"

# A hostile raw.csv's bytes quoted in an error reach the terminal without
# their control characters: an ESC would let a file rewrite the screen.
esc=$tmp/esc
cp -r tests/fixtures/run "$esc"
line=$(sed -n 2p "$esc/raw.csv")
id=$(cut -d, -f1 <<<"$line")
for i in 1 2; do printf '%s\n' "${line/#$id/x$'\e'[2J$'\e']0;owned$'\a'y}" >>"$esc/raw.csv"; done
err=$("$runner" --summarize "$esc" 2>&1 >/dev/null); rc=$?
if [ $rc -ne 0 ] && [ -n "$err" ] && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$err"; then
	echo "PASS: results dirs: an error quoting a hostile raw.csv carries no control characters to the terminal"
else
	echo "FAIL: results dirs: --summarize of a raw.csv with escapes: rc=$rc, stderr $(LC_ALL=C od -c <<<"$err" | grep -m1 '033' | head -c 200)"
fi

# meta.json says which base and source package the kernels came from, as
# kernel/build.sh recorded them beside each kernel (not the host's dpkg).
echo "6.12" >"$k/ok-hz250/base"
echo "linux-source-6.12 6.12.57-1" >"$k/ok-hz250/package"
"${run[@]}" --kernels "$k" --out "$tmp/meta" --seed 9 --set variant=ok --set reps=1 --set accel=icount >/dev/null 2>&1
if python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["kernel_package"] == "6.12.57-1", m["kernel_package"]
assert m["kernel_base"] == "6.12", m["kernel_base"]
assert m["kernels"]["ok-hz250"]["base"] == "6.12", m["kernels"]
' "$tmp/meta/meta.json" 2>"$tmp/meta.err"; then
	ok "meta.json records the kernels' base and source package from their build records"
else
	bad "meta.json base/package: $(tail -n 1 "$tmp/meta.err")"
fi

# What the runner prints that quotes a matrix or a results directory (the
# dry run's command lines, --summarize --verbose's cell names) reaches the
# terminal without control characters.
out=$("$runner" --qemu tests/lib/fake-qemu --kernels "$k" --image "$tmp/image" --out "$tmp/dry-esc" --set variant=ok \
	--set cpu="qemu64,model-id=a"$'\e'"[2Jb" --set accel=tcg --set reps=1 --dry-run 2>&1)
if grep -q 'model-id=a?\[2Jb' <<<"$out" && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$out"; then
	ok "--dry-run prints a matrix value's ESC as '?'"
else
	bad "--dry-run with an ESC in cpu: $(LC_ALL=C od -c <<<"$out" | grep -m1 '033' | head -c 160)$(head -c 200 <<<"$out")"
fi
vesc=$tmp/vesc
cp -r tests/fixtures/run "$vesc"
python3 - "$vesc" <<'PY'
import csv, sys
d = sys.argv[1]
for name in ("raw.csv", "summary.csv"):
    with open(f"{d}/{name}", newline="") as f:
        rows = list(csv.reader(f))
    i = rows[0].index("cpu")
    for r in rows[1:]:
        if r[i] == "qemu64":
            r[i] = "qemu64\x1b]0;owned\x07"
    with open(f"{d}/{name}", "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
PY
out=$("$runner" --summarize "$vesc" --verbose 2>&1)
if grep -q 'qemu64?\]0;owned?' <<<"$out" && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$out"; then
	ok "--summarize --verbose prints a hostile cell name's escapes as '?'"
else
	bad "--summarize --verbose with an ESC in cpu: $(LC_ALL=C od -c <<<"$out" | grep -m1 '033' | head -c 160) $(head -c 300 <<<"$out")"
fi

# --resume of a run from elsewhere runs no program and passes QEMU no option
# that the command line does not name: its run.args could name any.
"${run[@]}" --kernels "$k" --out "$tmp/rq" --seed 9 --set variant=ok --set reps=2 --set accel=icount >/dev/null 2>&1
head -n 2 "$tmp/rq/raw.csv" >"$tmp/rq/raw.csv.new" && mv "$tmp/rq/raw.csv.new" "$tmp/rq/raw.csv"
printf '#!/bin/sh\ntouch "%s"\nexec "%s" "$@"\n' "$tmp/PWNED_resume" "$PWD/tests/lib/fake-qemu" >"$tmp/evil"
chmod +x "$tmp/evil"
sed -i "s#^qemu = .*#qemu = $tmp/evil#" "$tmp/rq/run.args"
msg=$(timeout 60 "$runner" --image "$tmp/image" --kernels "$k" --quiet --kvm-canary 1 --jobs 1 --out "$tmp/rq" --resume 2>&1)
if [ ! -e "$tmp/PWNED_resume" ] && grep -q -- "give --qemu $tmp/evil again if you trust it" <<<"$msg"; then
	ok "--resume runs no QEMU binary that run.args alone names"
else
	bad "--resume with run.args naming another qemu: $([ -e "$tmp/PWNED_resume" ] && echo 'the program ran; ')$(head -c 200 <<<"$msg")"
fi
sed -i "s#^qemu = .*#qemu = $PWD/tests/lib/fake-qemu#" "$tmp/rq/run.args"
echo "qemu_arg = -plugin" >>"$tmp/rq/run.args"
msg=$(timeout 60 "$runner" --qemu "$PWD/tests/lib/fake-qemu" --image "$tmp/image" --kernels "$k" --quiet --kvm-canary 1 --jobs 1 \
	--out "$tmp/rq" --resume 2>&1)
grep -q -- "passes QEMU no option the command line does not name" <<<"$msg" &&
	ok "--resume passes QEMU no --qemu-arg that run.args alone names" ||
	bad "--resume with a qemu_arg in run.args: $(head -c 200 <<<"$msg")"
# --- A results directory from elsewhere, opened by the runner (issue 22) ---
# Nothing is written or read through a symbolic link inside a run, a FIFO
# or a device ends the mode with an error, and every mode that reads
# raw.csv takes only the boots of the run's plan.
victim=$tmp/victim
reset_victim() { printf 'precious\n' >"$victim"; rm -rf "$tmp/vdir"; mkdir -p "$tmp/vdir" && printf 'keep\n' >"$tmp/vdir/keep"; }
untouched() { [ "$(cat "$victim")" = precious ] && [ "$(ls -A "$tmp/vdir")" = keep ]; }
lim=(timeout 20)
"${run[@]}" --kernels "$k" --out "$tmp/base" --seed 9 --set variant=ok --set reps=2 --set accel=icount >/dev/null 2>&1 ||
	bad "the base run for the link tests did not run"
# copy NAME: a copy of the base run (no lock file); unfinish NAME: one whose
# last boot has no row yet (its id in $last).
copy() { rm -rf "${tmp:?}/$1" && cp -r "$tmp/base" "$tmp/$1" && rm -f "$tmp/$1/.lock"; }
unfinish() {
	copy "$1"
	last=$(tail -n 1 "$tmp/$1/raw.csv" | cut -d, -f1)
	sed -i '$d' "$tmp/$1/raw.csv"
}
resume() { "${lim[@]}" "${run[@]}" --kernels "$k" --out "$tmp/$1" --resume 2>&1; }

reset_victim
copy sl && ln -s "$victim" "$tmp/sl/summary.csv.tmp"
msg=$("${lim[@]}" "$runner" --summarize "$tmp/sl" 2>&1)
untouched && [ "$(head -c 7 "$tmp/sl/summary.csv")" = variant ] &&
	ok "--summarize writes no summary.csv.tmp through a planted link" ||
	bad "--summarize wrote through summary.csv.tmp -> victim: victim now '$(head -c 60 "$victim" | tr '\n' ' ')' $(head -c 160 <<<"$msg" | tr '\n' ' ')"
reset_victim
copy rl && ln -s "$victim" "$tmp/rl/traces.csv.rescan"
msg=$("${lim[@]}" "$runner" --quiet --rescan "$tmp/rl" 2>&1)
untouched && ok "--rescan writes no traces.csv.rescan through a planted link" ||
	bad "--rescan wrote through traces.csv.rescan -> victim: victim now '$(head -c 60 "$victim" | tr '\n' ' ')'"
reset_victim
unfinish cl && mkdir -p "$tmp/cl/boots/$last" && rm -f "$tmp/cl/boots/$last/console.log" &&
	ln -s "$victim" "$tmp/cl/boots/$last/console.log"
msg=$(resume cl)
untouched && [ "$(get "$tmp/cl/raw.csv" boot_id | wc -l)" -eq 2 ] && [ ! -L "$tmp/cl/boots/$last/console.log" ] &&
	ok "--resume boots into a fresh boots/<id>: QEMU opens no planted console.log link" ||
	bad "--resume with boots/$last/console.log -> victim: victim now '$(head -c 60 "$victim" | tr '\n' ' ')' $(head -c 160 <<<"$msg" | tr '\n' ' ')"
reset_victim
unfinish dl && rm -rf "$tmp/dl/boots/$last" && ln -s "$tmp/vdir" "$tmp/dl/boots/$last"
msg=$(resume dl)
untouched && [ -d "$tmp/dl/boots/$last" ] && [ ! -L "$tmp/dl/boots/$last" ] &&
	ok "--resume replaces a boots/<id> link with a directory of its own, writing nothing through it" ||
	bad "--resume with boots/$last -> a directory: it now holds $(ls -A "$tmp/vdir" | tr '\n' ' ') $(head -c 160 <<<"$msg" | tr '\n' ' ')"
reset_victim
unfinish tl && rm "$tmp/tl/reads.csv" && ln -s "$victim" "$tmp/tl/reads.csv"
msg=$(resume tl)
untouched && grep -q "reads.csv" <<<"$msg" &&
	ok "--resume refuses a reads.csv link, the file it points to untouched: $(head -c 120 <<<"$msg")" ||
	bad "--resume with reads.csv -> victim: victim now '$(head -c 60 "$victim" | tr '\n' ' ')' $(head -c 160 <<<"$msg" | tr '\n' ' ')"

# --merge copies nothing from outside the shards: no linked boot directory,
# no linked file (a secret, /proc/self/environ), no linked table.
printf 'SECRET-%s\n' "$$" >"$tmp/secret"
mshard() { rm -rf "${tmp:?}/$1" && cp -r "$tmp/s2" "$tmp/$1" && ls "$tmp/$1/boots" | head -n 1; }
nosecret() { ! grep -rqs "SECRET-$$" "$tmp/r" && ! grep -rqs "^PATH=" "$tmp/r"; }
id=$(mshard ml)
rm -rf "$tmp/ml/boots/$id" && mkdir -p "$tmp/outdir" && cp "$tmp/secret" "$tmp/outdir/console.log" &&
	ln -s "$tmp/outdir" "$tmp/ml/boots/$id"
refused "of a shard whose boots/$id is a link" "boots/$id" "$tmp/s1" "$tmp/ml"
nosecret || bad "merge copied a linked boot directory's file"
id=$(mshard mf)
ln -s "$tmp/secret" "$tmp/mf/boots/$id/env"
refused "of a shard holding a linked file" "boots/$id/env" "$tmp/s1" "$tmp/mf"
id=$(mshard me)
rm "$tmp/me/boots/$id/console.log" && ln -s /proc/self/environ "$tmp/me/boots/$id/console.log"
refused "of a shard whose console.log links to /proc/self/environ" "boots/$id/console.log" "$tmp/s1" "$tmp/me"
nosecret || bad "merge copied /proc/self/environ"
mshard mt >/dev/null
cp "$tmp/mt/traces.csv" "$tmp/outside.csv" && rm "$tmp/mt/traces.csv" && ln -s "$tmp/outside.csv" "$tmp/mt/traces.csv"
refused "of a shard whose traces.csv is a link" "traces.csv" "$tmp/s1" "$tmp/mt"

# --merge reads the shards' tables by the row rules, never joining bytes.
mshard nn >/dev/null
truncate -s -1 "$tmp/nn/reads.csv"
refused "of a shard whose reads.csv lacks its final newline" "reads.csv line" "$tmp/s1" "$tmp/nn"
mshard nh >/dev/null
sed -i '1s/iface/interface/' "$tmp/nh/reads.csv"
refused "of a shard whose reads.csv has another header" "header" "$tmp/s1" "$tmp/nh"
mshard nf >/dev/null
row=$(sed -n 2p "$tmp/nf/traces.csv")
echo "c77-r9${row#"${row%%,*}"}" >>"$tmp/nf/traces.csv"
refused "of a shard whose traces.csv holds a foreign boot" "c77-r9" "$tmp/s1" "$tmp/nf"
mshard nx >/dev/null
# (a shard holds whole cells: its first row's variant, whichever it is,
# becomes the other one)
cell0=$(get "$tmp/nx/raw.csv" boot_id | head -n 1)
was=$(get "$tmp/nx/raw.csv" variant boot_id="$cell0") && now=$([ "$was" = ok ] && echo slow || echo ok)
sed -i "s/^$cell0,\([^,]*\),\([^,]*\),\([^,]*\),$was,/$cell0,\1,\2,\3,$now,/" "$tmp/nx/raw.csv"
refused "of a shard with a row's axis edited ($cell0 variant=$was -> $now)" "variant" "$tmp/s1" "$tmp/nx"
refused "naming both values of an edited axis" "'slow'.*'ok'\|'ok'.*'slow'" "$tmp/s1" "$tmp/nx"
mshard nq >/dev/null
sed -i 's/^  "qemu": .*/  "qemu": "QEMU emulator version 99.0",/' "$tmp/nq/meta.json"
refused "of a shard run with another QEMU version" "99.0" "$tmp/s1" "$tmp/nq"
# What differs between machines is no reason to refuse: jobs defaults by
# the CPU count (docs/sharding.md's recipe runs the shards on different machines).
mshard nj >/dev/null
sed -i 's/^jobs = .*/jobs = 7/' "$tmp/nj/run.args"
sed -i 's/^  "jobs": [0-9]*/  "jobs": 7/' "$tmp/nj/meta.json"
rm -rf "$tmp/r"
if msg=$("$runner" --quiet --merge "$tmp/r" "$tmp/s1" "$tmp/nj" 2>&1) &&
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/r/meta.json" 2>/dev/null; then
	ok "merge of shards with another --jobs (another machine's CPU count) is accepted, meta.json valid JSON"
else
	bad "merge of shards differing only in jobs: $(head -c 200 <<<"$msg" | tr '\n' ' ')"
fi
cp -r "$tmp/s1" "$tmp/m0" && echo '{}' >"$tmp/m0/meta.json"
rm -rf "$tmp/r"
if "$runner" --quiet --merge "$tmp/r" "$tmp/m0" "$tmp/s2" >/dev/null 2>&1 &&
	! python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/r/meta.json" 2>/dev/null; then
	bad "merge with shard 0's meta.json '{}' wrote invalid JSON: $(head -c 120 "$tmp/r/meta.json" | tr '\n' ' ')"
else
	ok "merge with shard 0's meta.json '{}' writes valid JSON or refuses it"
fi

# --rescan of a FIFO or a /dev/zero link for result.log ends promptly, with an error.
for how in fifo zero; do
	copy "f$how"
	log=$tmp/f$how/boots/$(ls "$tmp/f$how/boots" | head -n 1)/result.log
	rm "$log"
	if [ $how = fifo ]; then mkfifo "$log"; else ln -s /dev/zero "$log"; fi
	msg=$(ulimit -v 1000000; timeout 5 "$runner" --quiet --rescan "$tmp/f$how" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -lt 128 ] && grep -q "result.log" <<<"$msg" &&
		ok "--rescan of a $how result.log ends at once with an error: $(head -c 120 <<<"$msg")" ||
		bad "--rescan of a $how result.log: rc=$rc $(head -c 160 <<<"$msg" | tr '\n' ' ')"
done

# One rule for every mode that reads raw.csv: the runner's own boot ids,
# each in the run's plan (a c0-r7 in a reps=2 run, a ../ path), no NUL.
# plant NAME ID: a copy of the base run holding a row of boot ID (its
# result.log etc. outside the run for a ../ id).
plant() {
	copy "$1"
	row=$(sed -n 2p "$tmp/$1/raw.csv")
	echo "$2${row#"${row%%,*}"}" >>"$tmp/$1/raw.csv"
}
mkdir -p "$tmp/outside" && cp "$tmp/base/boots/c0-r0/"* "$tmp/outside/"
for id in c0-r7 ../../outside; do
	for mode in summarize rescan resume; do
		plant p "$id"
		cp "$tmp/p/raw.csv" "$tmp/p.raw" && cp "$tmp/p/summary.csv" "$tmp/p.sum"
		case $mode in
		resume) msg=$(resume p) ;;
		*) msg=$("${lim[@]}" "$runner" --quiet --$mode "$tmp/p" 2>&1) ;;
		esac
		rc=$?
		[ $rc -ne 0 ] && grep -qF -- "$id" <<<"$msg" && grep -q "line 4" <<<"$msg" &&
			cmp -s "$tmp/p/raw.csv" "$tmp/p.raw" && cmp -s "$tmp/p/summary.csv" "$tmp/p.sum" &&
			ok "--$mode refuses a row of boot $id (not in the plan), naming its line: $(head -c 150 <<<"$msg")" ||
			bad "--$mode of a raw.csv holding boot $id: rc=$rc, n=$(get "$tmp/p/summary.csv" n measure=crng_ready | head -n 1) $(head -c 160 <<<"$msg" | tr '\n' ' ')"
	done
done
copy nul && printf '%s\0,ok\n' "$(sed -n 2p "$tmp/nul/raw.csv" | sed 's/^c0-r0,/c0-r5,/')" >>"$tmp/nul/raw.csv"
cp "$tmp/nul/summary.csv" "$tmp/nul.sum"
msg=$("${lim[@]}" "$runner" --summarize "$tmp/nul" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "line 4" <<<"$msg" && cmp -s "$tmp/nul/summary.csv" "$tmp/nul.sum" &&
	ok "--summarize refuses a raw.csv line holding a NUL byte: $(head -c 120 <<<"$msg")" ||
	bad "--summarize of a raw.csv line with a NUL: rc=$rc $(head -c 160 <<<"$msg" | tr '\n' ' ')"
# A read error (memory running out in getline) is no end of file: nothing
# is rewritten from the rows before it.
copy big && { head -n 1 "$tmp/base/raw.csv" && head -c 40000000 /dev/zero | tr '\0' a && echo &&
	tail -n +2 "$tmp/base/raw.csv"; } >"$tmp/big/raw.csv"
cp "$tmp/big/summary.csv" "$tmp/big.sum"
msg=$(ulimit -v 30000; "${lim[@]}" "$runner" --summarize "$tmp/big" 2>&1)
rc=$?
[ $rc -ne 0 ] && cmp -s "$tmp/big/summary.csv" "$tmp/big.sum" &&
	ok "--summarize stops on a read error of raw.csv (out of memory), summary.csv kept: $(head -c 120 <<<"$msg")" ||
	bad "--summarize with getline out of memory: rc=$rc, summary.csv $(cmp -s "$tmp/big/summary.csv" "$tmp/big.sum" && echo kept || echo rewritten) $(head -c 160 <<<"$msg" | tr '\n' ' ')"
