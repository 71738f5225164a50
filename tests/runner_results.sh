#!/usr/bin/env bash
# The runner on results directories it did not write, or that do not agree
# with each other: merges of shards started differently or holding boots
# outside the plan, --out on a directory that is no run, a raw.csv holding
# a boot twice. Against tests/fake-qemu: no kernels, seconds.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$PWD/tests/fixtures/block-qemu64.result
runner=${CRNGBENCH_RUNNER:-build/crngbench-run}
get() { tests/csvget.py "$@"; }
ok() { echo "PASS: results dirs: $*"; }
bad() { echo "FAIL: results dirs: $*"; }
k=$tmp/kernels
mkdir -p "$k/ok-hz250" "$k/slow-hz250"
echo "ok $fx" >"$k/ok-hz250/bzImage"
echo "slow-ok $fx" >"$k/slow-hz250/bzImage"
touch "$tmp/image"
run=(timeout 120 "$runner" --qemu tests/fake-qemu --image "$tmp/image" --quiet --kvm-canary 1 --jobs 1)
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
out=$("$runner" --qemu tests/fake-qemu --kernels "$k" --image "$tmp/image" --out "$tmp/dry-esc" --set variant=ok \
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
printf '#!/bin/sh\ntouch "%s"\nexec "%s" "$@"\n' "$tmp/PWNED_resume" "$PWD/tests/fake-qemu" >"$tmp/evil"
chmod +x "$tmp/evil"
sed -i "s#^qemu = .*#qemu = $tmp/evil#" "$tmp/rq/run.args"
msg=$(timeout 60 "$runner" --image "$tmp/image" --kernels "$k" --quiet --kvm-canary 1 --jobs 1 --out "$tmp/rq" --resume 2>&1)
if [ ! -e "$tmp/PWNED_resume" ] && grep -q -- "give --qemu $tmp/evil again if you trust it" <<<"$msg"; then
	ok "--resume runs no QEMU binary that run.args alone names"
else
	bad "--resume with run.args naming another qemu: $([ -e "$tmp/PWNED_resume" ] && echo 'the program ran; ')$(head -c 200 <<<"$msg")"
fi
sed -i "s#^qemu = .*#qemu = $PWD/tests/fake-qemu#" "$tmp/rq/run.args"
echo "qemu_arg = -plugin" >>"$tmp/rq/run.args"
msg=$(timeout 60 "$runner" --qemu "$PWD/tests/fake-qemu" --image "$tmp/image" --kernels "$k" --quiet --kvm-canary 1 --jobs 1 \
	--out "$tmp/rq" --resume 2>&1)
grep -q -- "passes QEMU no option the command line does not name" <<<"$msg" &&
	ok "--resume passes QEMU no --qemu-arg that run.args alone names" ||
	bad "--resume with a qemu_arg in run.args: $(head -c 200 <<<"$msg")"
