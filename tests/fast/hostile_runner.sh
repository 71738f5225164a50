#!/usr/bin/env bash
# test: the runner against issue 35's hostile inputs
# The runner against issue 35's round-four attacks on its inputs: --summarize,
# --rescan and --merge against a live run's lock (item 4); integer fields
# that are not whole int64 numbers and reads.csv digests that are not
# digests, in raw.csv, reads.csv and a shard (item 7); run.matrix values
# planning refuses (item 13); --merge --matrix FILE --seed N against shards
# of another matrix or seed (item 2); kernel/bases read from the runner's
# own checkout only, a FIFO, /dev/zero or a doubled key in the way (item 14).
# Against tests/lib/fake-qemu: no kernels, seconds. CRNGBENCH_RUNNER: another
# runner binary (the old one, to see these fail).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "hostile runner"
root=$PWD
holder=
trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null; rm -rf "$tmp"' EXIT
fx=$root/tests/fixtures/block-qemu64.result
runner=$(realpath "${CRNGBENCH_RUNNER:-build/crngbench-run}")
k=$tmp/kernels
mkdir -p "$k/ok-hz250" "$k/slow-hz250"
echo "ok $fx" >"$k/ok-hz250/bzImage"
echo "slow-ok $fx" >"$k/slow-hz250/bzImage"
touch "$tmp/image"
printf 'name = two\nvariant = ok,slow\nreps = 2\naccel = icount\n' >"$tmp/two.matrix"
run=(timeout 120 "$runner" --qemu tests/lib/fake-qemu --image "$tmp/image" --quiet --kvm-canary 1 --jobs 1
	--kernels "$k")
shard() { # DIR K/N [options...]: one shard of two.matrix (4 boots), seed 9
	local dir=$1 s=$2
	shift 2
	"${run[@]}" --out "$dir" --matrix "$tmp/two.matrix" --seed 9 --shard "$s" "$@" >/dev/null 2>&1 ||
		bad "shard $dir $s did not run"
}
shard "$tmp/s1" 1/2
shard "$tmp/s2" 2/2
"$runner" --quiet --merge "$tmp/whole" "$tmp/s1" "$tmp/s2" >/dev/null 2>&1 || bad "the plain merge failed"
# fresh NAME: a copy of the merged run, its summary.csv removed
fresh() { rm -rf "$tmp/$1" && cp -r "$tmp/whole" "$tmp/$1" && rm -f "$tmp/$1/summary.csv" "$tmp/$1/.lock"; }
# setcol FILE LINE COLUMN VALUE: one field of a CSV file, by column name
setcol() {
	python3 - "$@" <<-'PY'
		import csv, sys
		path, line, col, value = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
		rows = list(csv.reader(open(path, newline="")))
		rows[line - 1][rows[0].index(col)] = value
		with open(path, "w", newline="") as f:
		    csv.writer(f, lineterminator="\n").writerows(rows)
	PY
}

# --- item 4: the lock of a live run -----------------------------------------------
fresh live
cp "$tmp/whole/summary.csv" "$tmp/live/summary.csv"
: >"$tmp/live/.lock"
# a stand-in for a live runner: one process holding the lock (flock(2))
# of the copy live and of shard s2 (both locks held by one process)
(exec 9>"$tmp/live/.lock" 8>"$tmp/s2/.lock" && flock 9 && flock 8 && exec sleep 60) >/dev/null 2>&1 &
holder=$!
for _ in $(seq 600); do flock -n "$tmp/s2/.lock" true 2>/dev/null || break; sleep 0.1; done # up to 60 s under load
cp "$tmp/live/summary.csv" "$tmp/live.before"
for mode in --summarize --rescan; do
	msg=$("$runner" --quiet "$mode" "$tmp/live" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && grep -qF -- "$tmp/live/.lock is held" <<<"$msg" && grep -qF -- "$mode refuses" <<<"$msg" &&
		cmp -s "$tmp/live/summary.csv" "$tmp/live.before" && [ ! -e "$tmp/live/summary.csv.tmp" ] &&
		ok "$mode refuses a run whose .lock is held, naming the lock, writing nothing" ||
		bad "$mode on a locked run: rc=$rc, $(head -c 200 <<<"$msg" | tr '\n' ' ')"
done
rm -rf "$tmp/lm"
msg=$("$runner" --quiet --merge "$tmp/lm" "$tmp/s1" "$tmp/s2" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -qF -- "$tmp/s2/.lock is held" <<<"$msg" && [ ! -e "$tmp/lm" ] &&
	ok "--merge refuses a source whose .lock is held, naming the lock" ||
	bad "--merge of a locked source: rc=$rc, $(head -c 200 <<<"$msg" | tr '\n' ' ')"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
holder=
"$runner" --summarize "$tmp/live" >/dev/null 2>&1 && cmp -s "$tmp/live/summary.csv" "$tmp/whole/summary.csv" &&
	ok "--summarize of the same run once the lock is free" || bad "--summarize after the lock was freed failed"

# --- item 7: whole-field int64 integers, digests in every table --------------------
# summarize_refused NAME WANT DIR: refused naming WANT, no summary.csv written
summarize_refused() {
	local msg rc
	msg=$("$runner" --summarize "$3" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && grep -qF -- "$2" <<<"$msg" && [ ! -e "$3/summary.csv" ] &&
		ok "--summarize refuses $1: $(sed 's/^crngbench-run: error: //' <<<"$msg" | head -c 150)" ||
		bad "--summarize of $1: rc=$rc, wanted '$2', got: $(head -c 250 <<<"$msg" | tr '\n' ' ')"
}
line=$(grep -n '^c0-r1,' "$tmp/whole/raw.csv" | cut -d: -f1)
long=$(printf '1%.0s' $(seq 5000))
for spec in "rep +1" "rep 1x" "rep 1.9" "rep $long" "cell 0x" "run_index 3.5" \
	"host_exit_ns +5" "host_exit_ns 99999999999999999999" "host_exit_ns  5"; do
	col=${spec%% *} v=${spec#* }
	fresh int
	setcol "$tmp/int/raw.csv" "$line" "$col" "$v"
	summarize_refused "raw.csv $col '${v:0:24}'" "raw.csv line $line is not a raw.csv row: column $col: " "$tmp/int"
done
fresh int
setcol "$tmp/int/raw.csv" "$line" rep "$long"
msg=$("$runner" --summarize "$tmp/int" 2>&1)
! grep -q "rep -1" <<<"$msg" && grep -q "an integer (an optional '-' and 1 to 19 digits, within 64 bits)" <<<"$msg" &&
	ok "a 5000-digit rep is named as no 64-bit integer, never as rep -1" ||
	bad "5000-digit rep: $(head -c 250 <<<"$msg")"
# a row the runner cannot take whole says why (it said only 'is not a raw.csv row')
fresh int
setcol "$tmp/int/raw.csv" "$line" reason "$(printf 'x%.0s' $(seq 9000))"
summarize_refused "a raw.csv row of over 8191 bytes" \
	"raw.csv line $line is not a raw.csv row: a line of " "$tmp/int"
fresh int
sed -i "${line}s/\$/,extra/" "$tmp/int/raw.csv"
n=$(head -n 1 "$tmp/int/raw.csv" | tr , '\n' | wc -l)
summarize_refused "a raw.csv row of one field too many" \
	"raw.csv line $line is not a raw.csv row: $((n + 1)) fields where its header has $n" "$tmp/int"

# reads.csv's digest, checked as raw.csv's urandom_digest is: by --merge ...
cp -r "$tmp/s2" "$tmp/dg2"
rl=3
setcol "$tmp/dg2/reads.csv" "$rl" digest 'zz<script>'
rm -rf "$tmp/dm"
msg=$("$runner" --quiet --merge "$tmp/dm" "$tmp/s1" "$tmp/dg2" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -qF "$tmp/dg2/reads.csv line $rl, column digest: 'zz<script>' is not a digest" <<<"$msg" &&
	[ ! -e "$tmp/dm" ] && ok "--merge refuses a reads.csv digest 'zz<script>', naming file, line and column" ||
	bad "--merge of a reads.csv digest zz<script>: rc=$rc $(head -c 250 <<<"$msg")"
cp -r "$tmp/s2" "$tmp/ri2"
setcol "$tmp/ri2/reads.csv" "$rl" start_ns '+12'
rm -rf "$tmp/dm"
msg=$("$runner" --quiet --merge "$tmp/dm" "$tmp/s1" "$tmp/ri2" 2>&1)
[ $? -ne 0 ] && grep -qF "reads.csv line $rl, column start_ns: '+12' is not an integer" <<<"$msg" &&
	ok "--merge refuses a reads.csv start_ns of '+12'" || bad "--merge of reads.csv start_ns +12: $(head -c 250 <<<"$msg")"
# ... and by --resume, which keeps the rows of the boots done
cp "$tmp/dg2/reads.csv" "$tmp/dg2.reads"
msg=$("${run[@]}" --resume --out "$tmp/dg2" 2>&1)
[ $? -ne 0 ] && grep -qF "reads.csv line $rl, column digest: 'zz<script>' is not a digest" <<<"$msg" &&
	cmp -s "$tmp/dg2/reads.csv" "$tmp/dg2.reads" &&
	ok "--resume refuses a reads.csv digest 'zz<script>', the file left as it was" ||
	bad "--resume of a reads.csv digest zz<script>: $(head -c 250 <<<"$msg")"

# --- item 13: run.matrix held to the planning rules ---------------------------------
for spec in "base ../../etc base=../../etc: not a kernel base name" \
	"shift 99 shift=99: accepted values are auto" "rtc evil rtc=evil: accepted values are host"; do
	read -r key v want <<<"$spec"
	fresh mx
	sed -i "s|^$key = .*|$key = $v|" "$tmp/mx/run.matrix"
	for l in $(seq 2 "$(wc -l <"$tmp/mx/raw.csv")"); do setcol "$tmp/mx/raw.csv" "$l" "$key" "$v"; done
	summarize_refused "a run.matrix with $key=$v" "$tmp/mx/run.matrix: $want" "$tmp/mx"
	msg=$("$runner" --quiet --rescan "$tmp/mx" 2>&1)
	[ $? -ne 0 ] && grep -qF "$tmp/mx/run.matrix: $want" <<<"$msg" && [ ! -e "$tmp/mx/summary.csv" ] &&
		ok "--rescan refuses a run.matrix with $key=$v" || bad "--rescan of $key=$v: $(head -c 200 <<<"$msg")"
done

# --- item 2: --merge --matrix FILE --seed N ------------------------------------------
merged() { # NAME OUT SHARDS... -- OPTIONS: the merge is accepted
	local name=$1 out=$2
	shift 2
	rm -rf "$out"
	"$runner" --quiet --merge "$out" "$@" >/dev/null 2>&1 && [ -s "$out/summary.csv" ] &&
		ok "--merge $name is accepted" || bad "--merge $name was refused"
}
merged "with the shards' own --matrix and --seed" "$tmp/mm" "$tmp/s1" "$tmp/s2" --matrix "$tmp/two.matrix" --seed 9
shard "$tmp/r1" 1/2 --set reps=1
shard "$tmp/r2" 2/2 --set reps=1
for spec in "reps|$tmp/r1 $tmp/r2|--seed 9|key 'reps' differs, its run.matrix has 'reps = 1' where --matrix resolves to 'reps = 2'" \
	"seed|$tmp/s1 $tmp/s2|--seed 8|$tmp/s1 was run with seed 9, not the --seed 8 asked for (key 'seed')"; do
	IFS='|' read -r name dirs seed want <<<"$spec"
	rm -rf "$tmp/mr"
	# shellcheck disable=SC2086
	msg=$("$runner" --quiet --merge "$tmp/mr" $dirs --matrix "$tmp/two.matrix" $seed 2>&1)
	[ $? -ne 0 ] && grep -qF -- "$want" <<<"$msg" && [ ! -e "$tmp/mr" ] &&
		ok "--merge --matrix --seed refuses shards of another $name, naming the shard and the key" ||
		bad "--merge of shards of another $name: $(head -c 250 <<<"$msg")"
done

# --- item 14: kernel/bases from the runner's own checkout only -----------------------
# in the current directory: a FIFO, /dev/zero, a table naming a base 9.9
cwd=$tmp/cwd
mkdir -p "$cwd/kernel"
mkfifo "$cwd/kernel/bases"
out=$(cd "$cwd" && ulimit -v 4000000 && timeout 10 "$runner" --print-axis base --set base=6.1 2>&1)
rc=$?
[ "$out" = 6.1 ] && ok "a FIFO at ./kernel/bases neither hangs the runner nor is read" ||
	bad "./kernel/bases a FIFO: rc $rc$([ $rc -ne 124 ] || echo ' (timed out: hung)'), $(head -c 200 <<<"$out")"
rm "$cwd/kernel/bases" && ln -s /dev/zero "$cwd/kernel/bases"
out=$(cd "$cwd" && ulimit -v 4000000 && timeout 10 "$runner" --print-axis base --set base=6.1 2>&1)
[ "$out" = 6.1 ] && ok "/dev/zero at ./kernel/bases is not read (no memory grown)" ||
	bad "./kernel/bases -> /dev/zero: $(head -c 200 <<<"$out")"
rm "$cwd/kernel/bases"
{ head -n "$(grep -vn '^#' kernel/bases | head -n 1 | cut -d: -f1)" kernel/bases
	echo "9.9   linux-source-9.9   /x.tar.xz   kernel/patches  -  no"; } >"$cwd/kernel/bases"
out=$(cd "$cwd" && timeout 10 "$runner" --print-axis base --set base=9.9 2>&1)
grep -q "base=9.9: not a kernel base" <<<"$out" &&
	ok "a kernel/bases in the current directory does not add bases" ||
	bad "./kernel/bases with 9.9 was read: $(head -c 200 <<<"$out")"
# in the runner's own checkout: a base on two rows is refused, naming both
co=$tmp/co
mkdir -p "$co/build" "$co/kernel"
cp "$runner" "$co/build/crngbench-run"
cp kernel/bases kernel/arches "$co/kernel/"
first=$(grep -v '^#' kernel/bases | grep -v '^ *$' | sed -n 2p)
echo "$first" >>"$co/kernel/bases"
n=$(wc -l <"$co/kernel/bases")
orig=$(grep -nxF -- "$first" "$co/kernel/bases" | head -n 1 | cut -d: -f1)
out=$(cd "$tmp" && timeout 10 "$co/build/crngbench-run" --print-axis base 2>&1)
grep -qF "kernel/bases lines $orig and $n both have the key '${first%% *}'" <<<"$out" &&
	ok "a base on two rows of kernel/bases is refused, naming both lines" ||
	bad "a doubled base in kernel/bases: $(head -c 200 <<<"$out")"
