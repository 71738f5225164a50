#!/usr/bin/env bash
# test: a run grown: --resume with axis values added boots only the new cells
# runs: beside
# A run grown instead of re-run (bench/results/grow.h): --resume with
# --set values added boots only the new cells, every boot done keeping its
# row, its detail rows and its files under its cell's new id; chart 3 then
# has TCG and icount side by side. A matrix that drops a value or changes
# a setting is refused, the run untouched. SIGKILL at every step of a grow
# loses nothing: the next --resume finishes it. A dry run of a grow counts
# and lists as the grow boots, and changes nothing on disk, not even a
# grow left unfinished. make run RESUME=DIR passes
# the grow to the runner. Against tests/lib/fake-qemu, seconds.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "grow"
runner=${CRNGBENCH_RUNNER:-$PWD/build/crngbench-run}
fx=$PWD/tests/fixtures/block-qemu64.result
k=$tmp/kernels
scen ok "ok $fx"
scen ok2 "ok $fx"
touch "$tmp/image"
run=(timeout 120 "$runner" --qemu tests/lib/fake-qemu --kernels "$k" --image "$tmp/image" --quiet)
"${run[@]}" --out "$tmp/orig" --seed 3 --set variant=ok --set accel=icount --set cpu=qemu64,max \
	--set reps=1 >"$tmp/orig.log" 2>&1 || bad "the icount run exited $?: $(brief "$(cat "$tmp/orig.log")")"
grow=(--resume --set accel=tcg,icount)

# The measured part of each row (all but boot_id, run_index and cell),
# sorted: what a grow must keep.
measured() { tail -n +2 "$1/raw.csv" | cut -d, -f4- | sort; }
# boot_files DIR: "ROW MARK" per boot: a checksum of its row's measured
# part, and the mark in its directory (put there in each boot of orig): a
# grow must carry each boot's files to the boot's new id.
boot_files() {
	local id
	for id in $(tests/lib/csvget.py "$1/raw.csv" boot_id); do
		printf '%s %s\n' "$(grep "^$id," "$1/raw.csv" | cut -d, -f4- | cksum)" "$(cat "$1/boots/$id/mark" 2>/dev/null)"
	done | sort
}
for id in $(tests/lib/csvget.py "$tmp/orig/raw.csv" boot_id); do
	grep "^$id," "$tmp/orig/raw.csv" | cut -d, -f4- | cksum >"$tmp/orig/boots/$id/mark"
done
# The detail rows (reads.csv, traces.csv), each with its boot's rep and
# axes in place of its id, sorted.
details() {
	python3 - "$1" <<'PY'
import csv, sys
d = sys.argv[1]
raw = list(csv.reader(open(f"{d}/raw.csv")))
h = raw[0]
who = {r[0]: ",".join(r[h.index("rep"):h.index("status")]) for r in raw[1:]}
out = [f + " " + who[r[0]] + " " + ",".join(r[1:])
       for f in ("reads.csv", "traces.csv") for r in list(csv.reader(open(f"{d}/{f}")))[1:]]
print("\n".join(sorted(out)))
PY
}
# kept DIR: every boot of orig, its row, detail rows and files, is in DIR.
kept() {
	[ -z "$(comm -23 <(measured "$tmp/orig") <(measured "$1"))" ] &&
		[ -z "$(comm -23 <(boot_files "$tmp/orig") <(boot_files "$1"))" ] &&
		[ -z "$(comm -23 <(details "$tmp/orig") <(details "$1"))" ]
}

# 1. A matrix that is no superset of the run's is refused, naming the
# difference; the run is left as it was.
cp -r "$tmp/orig" "$tmp/r"
for c in "accel=tcg@drops accel=icount" "reps=3@has 'reps = 3' where the run's run.matrix has 'reps = 1'" \
	"exclude=cpu=max@has 'exclude = cpu=max', which the run's run.matrix has not"; do
	msg=$("${run[@]}" --out "$tmp/r" --resume --set "${c%%@*}" 2>&1)
	rc=$?
	if clean_error $rc "$msg" "cannot grow $tmp/r: the new matrix ${c#*@}" && diff -r -x .lock "$tmp/orig" "$tmp/r" >/dev/null; then
		ok "--resume --set ${c%%@*} is refused, naming the difference, the run untouched"
	else
		bad "--resume --set ${c%%@*}: exit $rc, $(brief "$msg")"
	fi
done
# A dry run of the grow: the real grow's counts, only the boots it would
# start listed, the directory byte-identical (its .lock too).
cp -a "$tmp/r" "$tmp/r.before"
msg=$("${run[@]}" --out "$tmp/r" --resume --dry-run "${grow[@]:1}" 2>&1)
rc=$?
dry_ids=$(grep -o '^c[0-9]*-r[0-9]*: ' <<<"$msg" | tr -d ': ' | sort)
[ $rc -eq 0 ] && grep -qF "[grow] $tmp/r: adds accel=tcg (a dry run" <<<"$msg" && diff -r "$tmp/r.before" "$tmp/r" >/dev/null &&
	ok "--resume --dry-run with a grow says what it adds and leaves the run byte-identical" ||
	bad "--resume --dry-run grow: exit $rc, $(brief "$msg")"
grep -qF "resume of $tmp/r: 4 boots (2 already done), 2 to boot" <<<"$msg" && [ "$(wc -l <<<"$dry_ids")" -eq 2 ] &&
	ok "--resume --dry-run with a grow counts as the grow does (4 boots, 2 already done) and lists only the 2 to boot" ||
	bad "--resume --dry-run grow counts: ids '$(echo $dry_ids)', $(brief "$(grep -v '^c[0-9]' <<<"$msg")")"

# 2. The grow: only the new cells boot, the boots done are kept.
"${run[@]}" --out "$tmp/r" "${grow[@]}" >"$tmp/grow.log" 2>&1
rc=$?
new=$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(" ".join(sorted(r["accel"] for r in rows if int(r["run_index"]) >= 2)))' "$tmp/r/raw.csv")
booted=$(python3 -c '
import csv, sys
print("\n".join(sorted(r["boot_id"] for r in csv.DictReader(open(sys.argv[1])) if int(r["run_index"]) >= 2)))' "$tmp/r/raw.csv")
[ "$booted" = "$dry_ids" ] &&
	ok "the grow boots just the boots its dry run listed" ||
	bad "the grow booted '$(echo $booted)', its dry run listed '$(echo $dry_ids)'"
msg=$("${run[@]}" --out "$tmp/r" --resume --dry-run 2>&1)
grep -qF "resume of $tmp/r: 4 boots (4 already done), 0 to boot" <<<"$msg" && ! grep -q '^c[0-9]*-r[0-9]*: ' <<<"$msg" &&
	ok "--resume --dry-run of a finished run: 4 boots (4 already done), no command line" ||
	bad "--resume --dry-run of a finished run: $(brief "$msg")"
if [ $rc -eq 0 ] && [ "$new" = "tcg tcg" ] && kept "$tmp/r" && [ "$(tail -n +2 "$tmp/r/raw.csv" | wc -l)" -eq 4 ] &&
	grep -q "4 boots (2 already done)" "$tmp/grow.log" && [ "$(grep -c '^accel = tcg,icount$' "$tmp/r/run.matrix")" -eq 1 ]; then
	ok "--resume --set accel=tcg,icount boots only the 2 TCG boots; the 2 icount boots keep their rows, detail rows and files under their new ids"
else
	bad "the grow: exit $rc, new boots '$new', $(brief "$(cat "$tmp/grow.log")")"
fi
mkdir -p "$tmp/data"
CRNGBENCH_RUNNER=$runner python3 plots/prepare.py "$tmp/r" "$tmp/data" >/dev/null 2>&1
both=$(awk '!/^#/ && $2 != "NaN" && $3 != "NaN"' "$tmp/data/accel.dat" 2>/dev/null | wc -l)
[ "$both" -eq 2 ] && grep -q "^3-tcg-vs-kvm$" "$tmp/data/charts" && grep -q "TCG (emulation time).*icount (instruction time)" "$tmp/data/series.gp" &&
	ok "chart 3 of the grown run has TCG and icount for both cells" ||
	bad "chart 3 of the grown run: $both cells with both, $(brief "$(cat "$tmp/data/accel.dat" 2>&1)")"

# 3. A variant added: its kernel joins run.args, so a plain --resume after
# it takes the run (its files checked) and has nothing left to boot.
"${run[@]}" --out "$tmp/r" --resume --set variant=ok,ok2 --set accel=tcg,icount >"$tmp/v.log" 2>&1
rc=$?
"${run[@]}" --out "$tmp/r" --resume >"$tmp/v2.log" 2>&1
rc2=$?
[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(tail -n +2 "$tmp/r/raw.csv" | wc -l)" -eq 8 ] && kept "$tmp/r" &&
	grep -q "8 boots (8 already done)" "$tmp/v2.log" &&
	ok "a grown variant's kernel is the run's: a plain --resume after it checks it and boots nothing" ||
	bad "a variant added: exit $rc then $rc2, $(brief "$(cat "$tmp/v.log" "$tmp/v2.log")")"

# 4. SIGKILL before each step of a grow: the next --resume (the grow asked
# again) finishes it, and every boot done is kept, none twice.
steps=0 lost=""
for n in $(seq 1 60); do
	rm -rf "$tmp/g" && cp -r "$tmp/orig" "$tmp/g"
	# (the shell's "Killed" note is no output of the test)
	rc=$({ CRNGBENCH_TEST_GROW_KILL_AT=$n "${run[@]}" --out "$tmp/g" "${grow[@]}" >/dev/null 2>&1; echo $?; } 2>/dev/null)
	[ $rc -eq 137 ] || break
	steps=$n
	"${run[@]}" --out "$tmp/g" "${grow[@]}" >"$tmp/g.log" 2>&1
	ids=$(tests/lib/csvget.py "$tmp/g/raw.csv" boot_id | sort)
	if ! kept "$tmp/g" || [ "$(wc -l <<<"$ids")" -ne 4 ] || [ -n "$(uniq -d <<<"$ids")" ] ||
		[ -e "$tmp/g/grow" ] || [ -e "$tmp/g/grow.tmp" ]; then
		lost+=" $n($(brief "$(cat "$tmp/g.log")"))"
	fi
done
[ "$rc" -eq 0 ] && [ "$steps" -ge 10 ] && [ -z "$lost" ] &&
	ok "SIGKILL before any of a grow's $steps steps loses nothing: the next --resume finishes it, 4 boots, the 2 done kept" ||
	bad "a grow killed midway: $steps steps, last exit $rc, lost at:$lost"

# A dry run on a grow an earlier runner was killed in (after it was
# decided) finishes nothing: it says so and stops, the directory
# byte-identical; the real resume then finishes it.
rm -rf "$tmp/g" && cp -r "$tmp/orig" "$tmp/g"
rc=$({ CRNGBENCH_TEST_GROW_KILL_AT=9 "${run[@]}" --out "$tmp/g" "${grow[@]}" >/dev/null 2>&1; echo $?; } 2>/dev/null)
cp -a "$tmp/g" "$tmp/g.before"
msg=$("${run[@]}" --out "$tmp/g" "${grow[@]}" --dry-run 2>&1)
rc2=$?
[ "$rc" -eq 137 ] && [ -d "$tmp/g/grow" ] && clean_error $rc2 "$msg" "$tmp/g holds a grow an earlier runner left unfinished ($tmp/g/grow), and a dry run changes nothing" &&
	diff -r "$tmp/g.before" "$tmp/g" >/dev/null && ! grep -q '^c[0-9]*-r[0-9]*: ' <<<"$msg" &&
	ok "--dry-run on a run left mid-grow refuses, saying how to finish it, the directory byte-identical" ||
	bad "--dry-run mid-grow: kill exit $rc, dry exit $rc2, $(brief "$msg")"

# 5. make run RESUME=DIR: the runner resumes DIR with the variables' --set
# lines, and the matrix file only when MATRIX is given.
cmd=$(make -n -s run RESUME="$tmp/r" ACCELS=icount,tcg 2>&1 | grep -A1 -- --resume)
cmd2=$(make -n -s run RESUME="$tmp/r" MATRIX=quick 2>&1 | grep -A1 -- --resume)
grep -qF -- "--resume --out '$tmp/r'" <<<"$cmd" && grep -q -- "--set accel=icount,tcg" <<<"$cmd" && ! grep -q -- --matrix <<<"$cmd" &&
	grep -q -- "--matrix studies/quick/quick.matrix" <<<"$cmd2" &&
	ok "make run RESUME=DIR ACCELS=... resumes DIR with --set accel=..., its own matrix unless MATRIX is given" ||
	bad "make run RESUME=: $(brief "$cmd / $cmd2")"

# 6. A grow/ that is not the runner's (a directory from elsewhere) moves
# nothing out of boots/: a line of grow/ids that is no pair of boot ids,
# a grow/ without ids, or one that is a link, is refused, naming it.
for how in ids none link; do
	rm -rf "$tmp/h" && cp -r "$tmp/orig" "$tmp/h" && mkdir -p "$tmp/h/grow/boots.old" "$tmp/elsewhere"
	if [ $how = ids ]; then
		printf '../../elsewhere c0-r0\n' >"$tmp/h/grow/ids"
		want="$tmp/h/grow/ids: '../../elsewhere c0-r0' is not a line of the runner's"
	elif [ $how = none ]; then
		want="cannot read $tmp/h/grow/ids: No such file or directory; $tmp/h/grow is no grow of the runner's"
	else
		rm -rf "$tmp/h/grow" && ln -s "$tmp/elsewhere" "$tmp/h/grow"
		want="$tmp/h/grow is not a directory"
	fi
	msg=$("$runner" --summarize "$tmp/h" 2>&1)
	rc=$?
	clean_error $rc "$msg" "$want" && diff -r -x .lock -x grow "$tmp/orig" "$tmp/h" >/dev/null && [ -z "$(ls -A "$tmp/elsewhere")" ] &&
		ok "--summarize of a run holding a grow/ not the runner's ($how) is refused, naming it, nothing moved" ||
		bad "a planted grow/ ($how): exit $rc, $(brief "$msg")"
done
