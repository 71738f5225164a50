#!/usr/bin/env bash
# test: hostile input, round four: committed runs, summaries, quoted figures, disk full
# The fourth hostile round (issue "hostile input, round four"), the attacks
# on the report tools kept: a committed run, a returned shard and a
# colleague's results directory are untrusted input, and none of them may
# delete, mislead or stall. Each check below failed on the code before its
# fix (the runner's own attacks are in tests/fast/runner_results.sh and the
# shard's in tests/slow/reproduce_shards.sh).
#  1  a committed run that is a symbolic link: refused before anything is
#     deleted, drawn or read (rm -rf "$d/plots" once went through it)
#  5  a summary.csv that contradicts itself (a median outside its own
#     [min, max] or CI, more distinct digests than compared) is refused
#  6  quoted.py: -5 s in hms, -0, figures past 2**53, host_time.csv's
#     negative, '1_0' and non-ASCII-digit seconds
#  9  integers past int64 (a 5000-digit rep, a 400-digit host_exit_ns);
#     a column named twice (a KeyError, or the first copy read, once
#     read_table held rows by column)
# 10  digests_n = 0 (was a ZeroDivisionError in chart 8)
# 11  a meta.json nested 100,000 deep (was a RecursionError)
# 12  the disk full while drawing: no cut PNG left, no count of charts
#     that were not drawn
# 15  a run's free text (host_cpu) reaches REPORT.md in a code span, never
#     as a live link or emphasis
# 16  a make variable holding make or shell code is refused unexpanded
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "hostile round 4"
root=$PWD
export CRNGBENCH_RUNNER=${CRNGBENCH_RUNNER:-$root/build/crngbench-run}
mnt=''
trap '[ -z "$mnt" ] || umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
brief() { tr '\n' ' ' <<<"$1" | head -c 400; }
# traceback-free: an error that names what was wrong, never a Python trace
clean() { ! grep -q "Traceback" <<<"$1"; }
edit_csv() { # FILE PYTHON: rows (list of dicts) edited by PYTHON, written back
	python3 - "$1" "$2" <<'PY'
import csv, sys
p = sys.argv[1]
rows = list(csv.DictReader(open(p, newline="")))
exec(sys.argv[2])
w = csv.DictWriter(open(p, "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader()
w.writerows(rows)
PY
}

# --- 1: a committed run that is a symbolic link --------------------------
co=$tmp/co
tree_copy "$co"
mkdir -p "$co/build" "$tmp/outside/plots"
cp "$CRNGBENCH_RUNNER" "$co/build/crngbench-run"
echo keep >"$tmp/outside/plots/precious.txt"
cp -r "$co/studies/longwait/run/." "$tmp/outside/"
rm -rf "$co/studies/longwait/run"
ln -s "$tmp/outside" "$co/studies/longwait/run"
out=$(cd "$co" && CRNGBENCH_RUNNER=$co/build/crngbench-run scripts/regen-report.sh 2>&1)
rc=$?
if [ $rc -ne 0 ] && [ -f "$tmp/outside/plots/precious.txt" ] && [ ! -e "$tmp/outside/plots/1-nethack.png" ] &&
	grep -q "studies/longwait/run is a symbolic link: refused before anything is deleted or drawn" <<<"$out"; then
	ok "a committed run that is a link: make report FROM=committed refuses it, nothing outside deleted or drawn"
else
	bad "a committed run that is a link: rc=$rc, precious.txt $([ -f "$tmp/outside/plots/precious.txt" ] && echo kept || echo DELETED): $(brief "$out")"
fi
out=$(cd "$co/plots" && python3 -c 'import runlib; runlib.committed_runs()' 2>&1)
[ $? -ne 0 ] && grep -q "longwait/run is a symbolic link: refused" <<<"$out" && clean "$out" &&
	ok "runlib.committed_runs() refuses a linked run before reading it" || bad "committed_runs through a link: $(brief "$out")"
rm "$co/studies/longwait/run"
mkdir -p "$co/studies/longwait/run" "$tmp/outside2"
cp -r "$tmp/outside/." "$co/studies/longwait/run/"
rm -rf "$co/studies/parallel/run/jobs2"
cp -r "$root/studies/parallel/run/jobs2" "$tmp/outside2/jobs2"
ln -s "$tmp/outside2/jobs2" "$co/studies/parallel/run/jobs2"
out=$(cd "$co/plots" && python3 -c 'import runlib; runlib.committed_runs()' 2>&1)
[ $? -ne 0 ] && grep -q "parallel/run/jobs2 is a symbolic link: refused" <<<"$out" &&
	ok "a linked run of a multi-run row (parallel/jobs2) is refused too" || bad "parallel/jobs2 as a link: $(brief "$out")"

# --- 5, 10: a summary.csv that contradicts itself ------------------------
tables() { (cd plots && python3 -c 'import sys, cells; cells.summary_rows(sys.argv[1])' "$1") 2>&1; }
for attack in "median:rows[0]['median_ms'] = '0.001'" \
	"ci:rows[1]['ci95_lo_ms'] = '5000'; rows[1]['ci95_hi_ms'] = '6000'" \
	"digests:rows[0]['digests_distinct'] = '7'; rows[0]['digests_n'] = '5'" \
	"digests0:rows[0]['digests_distinct'] = '0'; rows[0]['digests_n'] = '0'"; do
	name=${attack%%:*}
	rm -rf "$tmp/s-$name"
	cp -r studies/quick/run "$tmp/s-$name"
	edit_csv "$tmp/s-$name/summary.csv" "${attack#*:}"
	out=$(tables "$tmp/s-$name")
	[ $? -ne 0 ] && grep -q "summary.csv line [23] .*not what the runner writes" <<<"$out" && clean "$out" &&
		ok "a summary.csv row that contradicts itself ($name) is refused, naming file and line" ||
		bad "summary.csv $name: $(brief "$out")"
done
out=$(plots/render.sh "$tmp/s-digests0" 2>&1)
[ $? -ne 0 ] && grep -q "digests_n 0" <<<"$out" && clean "$out" &&
	ok "chart drawing refuses digests_n = 0 (no ZeroDivisionError)" || bad "render with digests_n 0: $(brief "$out")"

# --- 6: quoted.py's numbers ----------------------------------------------
mkdir -p "$tmp/runs/quick"
cp -r studies/quick/run "$tmp/runs/quick/"
grep -v -m1 '^#' plots/quoted >"$tmp/head"
q() { { cat "$tmp/head"; printf '%s\n' "$@"; } >"$tmp/q"; python3 plots/quoted.py "$tmp/runs" "$tmp/q" 2>&1; }
val() { awk -F' \\| ' '/^\| `/ {print $2}' <<<"$1"; }
out=$(q "neg computed - - - - - hms 0 -5 -")
[ "$(val "$out")" = "-5 s" ] && ok "hms of -5 s prints '-5 s'" || bad "hms -5: $(brief "$out")"
out=$(q "z computed - - - - - s 1 -0.01 -")
[ "$(val "$out")" = "0.0 s" ] && ok "a value that rounds to zero prints 0.0, not -0.0" || bad "-0: $(brief "$out")"
out=$(q "big computed - - - - - - 0 2**60 -")
[ $? -ne 0 ] && grep -q "beyond 2\*\*53" <<<"$out" && ok "a formula past 2**53 is refused (a float loses its digits)" ||
	bad "2**60: $(brief "$out")"
out=$(q "big cited - - - - - - 0 9007199254740993 source")
[ $? -ne 0 ] && grep -q "beyond 2\*\*53" <<<"$out" && ok "a cited number past 2**53 is refused" || bad "cited 2**53+1: $(brief "$out")"
for v in -5 1_0 ' 5' '٣'; do
	cp studies/quick/run/host_time.csv "$tmp/runs/quick/run/host_time.csv"
	edit_csv "$tmp/runs/quick/run/host_time.csv" "rows[0]['host_s'] = '''$v'''"
	out=$(q "h measured quick host_time.csv accel=icount host_s sum s 1 - -")
	[ $? -ne 0 ] && grep -q "host_time.csv line 2, column host_s: .* is not a duration in seconds" <<<"$out" && clean "$out" &&
		ok "host_time.csv's host_s '$v' is refused (a duration: ASCII digits, never negative)" || bad "host_s '$v': $(brief "$out")"
done
cp studies/quick/run/host_time.csv "$tmp/runs/quick/run/host_time.csv"

# --- 9: integers past int64 ----------------------------------------------
cp -r studies/quick/run "$tmp/i9"
edit_csv "$tmp/i9/raw.csv" "rows[0]['rep'] = '9' * 5000"
out=$(plots/render.sh "$tmp/i9" 2>&1)
[ $? -ne 0 ] && grep -q "raw.csv line 2, column rep: .* is not an integer of at most 19 digits" <<<"$out" && clean "$out" &&
	ok "a 5000-digit rep is refused naming file, line and column (no traceback)" || bad "5000-digit rep: $(brief "$out")"
cp studies/quick/run/raw.csv "$tmp/i9/raw.csv"
edit_csv "$tmp/i9/raw.csv" "rows[0]['host_exit_ns'] = '9223372036854775808'"
out=$(cd plots && python3 -c 'import sys, runlib; runlib.read_table(sys.argv[1], "raw.csv")' "$tmp/i9" 2>&1)
[ $? -ne 0 ] && grep -q "column host_exit_ns: .* within int64" <<<"$out" &&
	ok "an integer one past int64's largest is refused" || bad "2**63: $(brief "$out")"
# a column named twice in the header: the last copy's value, as the runner
# (row_parse_why) and read_table before it held rows by column read it;
# a first copy written '0N' held the column as text under the other copy's
# name (its value read), both so a KeyError
for firsts in "'0' + v, v" "'0' + v, '0' + v"; do
	# raw.csv with host_exit_ns again at the end; prints the last copies
	want=$(python3 - "$root/studies/quick/run/raw.csv" "$tmp/i9/raw.csv" "$firsts" <<'PY'
import csv, sys
src, dst, how = sys.argv[1:]
rows = list(csv.reader(open(src, newline="")))
j = rows[0].index("host_exit_ns")
lasts = set()
with open(dst, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(rows[0] + ["host_exit_ns"])
    for r in rows[1:]:
        v = r[j] or "7"
        r[j], last = eval(how)
        w.writerow(r + [last])
        lasts.add(last)
print(" ".join(sorted(lasts)))
PY
	)
	out=$(cd plots && python3 -c '
import sys, runlib
print(" ".join(sorted({r["host_exit_ns"] for r in runlib.read_table(sys.argv[1], "raw.csv")})))' "$tmp/i9" 2>&1)
	clean "$out" && [ -n "$want" ] && [ "$out" = "$want" ] &&
		ok "a column named twice (copies $firsts) reads as its last copy, as the runner reads it" ||
		bad "a column named twice ($firsts): read '$(brief "$out")', the last copy '$(brief "$want")'"
done

# --- 11: meta.json nested deep -------------------------------------------
cp -r studies/quick/run "$tmp/m11"
python3 -c 'import sys; open(sys.argv[1], "w").write("[" * 100000 + "]" * 100000)' "$tmp/m11/meta.json"
out=$(cd plots && python3 -c 'import sys, runlib; runlib.read_meta(sys.argv[1])' "$tmp/m11" 2>&1)
[ $? -ne 0 ] && grep -q "meta.json is nested deeper" <<<"$out" && clean "$out" &&
	ok "a meta.json nested 100,000 deep is refused (no RecursionError)" || bad "deep meta.json: $(brief "$out")"
cp studies/quick/run/meta.json "$tmp/m11/meta.json"
python3 -c 'import json, sys; p = sys.argv[1]; d = json.load(open(p)); v = "x"
for _ in range(20):
    v = {"a": v}
d["deep"] = v
json.dump(d, open(p, "w"))' "$tmp/m11/meta.json"
out=$(cd plots && python3 -c 'import sys, runlib; runlib.read_meta(sys.argv[1])' "$tmp/m11" 2>&1)
[ $? -ne 0 ] && grep -q "is nested 9 deep" <<<"$out" && ok "a meta.json deeper than the runner writes is refused, naming where" ||
	bad "meta.json 20 deep: $(brief "$out")"

# --- 12: the disk full while drawing -------------------------------------
mnt=$tmp/full
mkdir -p "$mnt"
if mount -t tmpfs -o size=4m tmpfs "$mnt" 2>/dev/null; then
	mkdir -p "$mnt/run"
	find studies/quick/run -maxdepth 1 -type f -exec cp {} "$mnt/run/" \;
	# leave ~150 KiB: the charts' data files (~50 KiB) fit, the charts
	# (~450 KiB) do not
	free=$(df -k --output=avail "$mnt" | tail -n 1)
	dd if=/dev/zero of="$mnt/fill" bs=1k count=$((free - 150)) status=none 2>/dev/null
	out=$(plots/render.sh "$mnt/run" 2>&1)
	rc=$?
	cut=$(for f in "$mnt"/run/plots/*.png; do
		[ -e "$f" ] || continue
		[ "$(tail -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ] || echo "$f"
	done)
	cut="$cut$(find "$mnt/run/plots" -maxdepth 1 -name '*.txt' -empty 2>/dev/null)"
	if [ $rc -ne 0 ] && [ -z "$cut" ] && ! grep -q "^\[plots\] [0-9]* charts in" <<<"$out" && clean "$out"; then
		ok "disk full while drawing: render fails, leaves no cut PNG, counts no chart it did not draw"
	else
		bad "disk full while drawing: rc=$rc, cut PNGs: [$cut]: $(brief "$out")"
	fi
	umount "$mnt" && mnt=''
else
	echo "SKIP: hostile round 4: disk full while drawing: cannot mount a small tmpfs here (needs root)"
fi

# --- 15: a run's free text in REPORT.md ----------------------------------
cp -r studies/quick/run "$tmp/r15"
python3 -c 'import json, sys; p = sys.argv[1]; d = json.load(open(p)); d["host_cpu"] = "https://evil.example *bold*"
json.dump(d, open(p, "w"))' "$tmp/r15/meta.json"
out=$(cd plots && python3 -c 'import sys, runlib; print(runlib.study_code("quick").tables(sys.argv[1]))' "$tmp/r15" 2>&1)
grep -q 'host `https://evil.example \*bold\*`,' <<<"$out" &&
	ok "a run's host_cpu reaches REPORT.md in a code span (no live link, no emphasis)" ||
	bad "host_cpu in REPORT.md: $(grep -o 'host [^,]*,' <<<"$out" | head -1)"
out=$(cd plots && python3 -c 'import markup as t; print(t.md("*a* _b_ ~c~ x86_64"))' 2>&1)
[ "$out" = '\*a\* \_b\_ \~c\~ x86_64' ] && ok "md() escapes emphasis and strike-through, keeps x86_64 as it is" ||
	bad "md(): $out"

# --- 16: make variables are data -----------------------------------------
rm -f "$tmp/X"
out=$(make --no-print-directory plan MATRIX="quick\$(shell touch $tmp/X)" 2>&1)
[ $? -ne 0 ] && [ ! -e "$tmp/X" ] && grep -q "MATRIX=.* holds \\$" <<<"$out" &&
	ok "MATRIX holding \$(shell ...) is refused unexpanded (nothing run)" || bad "MATRIX=\$(shell ...): $(brief "$out"), X $([ -e "$tmp/X" ] && echo CREATED || echo absent)"
out=$(make --no-print-directory plan VARIANTS="stock;touch $tmp/X" 2>&1)
[ $? -ne 0 ] && [ ! -e "$tmp/X" ] && grep -q "VARIANTS=.* holds ;" <<<"$out" &&
	ok "VARIANTS holding shell code is refused before any recipe runs" || bad "VARIANTS=...;touch: $(brief "$out")"
