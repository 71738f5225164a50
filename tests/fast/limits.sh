#!/usr/bin/env bash
# test: the limits of a run's tables, refused by every reader (bench/ground/runlimits.h)
# The limits of a run's tables (bench/ground/runlimits.h, issue 35 item 8): a
# raw.csv of more than MAX_RUN_BOOTS rows, another table of more than
# MAX_RUN_ROWS rows, and any table of more than MAX_RUN_BYTES bytes is
# refused by every reader, naming the file, what it holds and the limit:
# the runner (--summarize) and the Python tools (plots/prepare.py, make
# plots' plots/render.sh, plots/quoted.py), which read the limits from
# the same header; the plan's limit is MAX_RUN_BOOTS too; the docs state
# the header's numbers. The files are made cheaply: rows of one byte
# (counted before any row is parsed) and a sparse file (its size is
# checked before it is read), so the real limits are the ones tested.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "limits"
runner=${CRNGBENCH_RUNNER:-$PWD/build/crngbench-run}
limit() { sed -nE "s/.*X\\($1, ([0-9]+),.*/\\1/p" bench/ground/runlimits.h; }
boots=$(limit MAX_RUN_BOOTS) rows=$(limit MAX_RUN_ROWS) bytes=$(limit MAX_RUN_BYTES)
py=$(cd plots && python3 -c 'import formats; l = formats.run_limits(); print(l["MAX_RUN_BOOTS"], l["MAX_RUN_ROWS"], l["MAX_RUN_BYTES"])' 2>&1)
[ -n "$boots" ] && [ "$py" = "$boots $rows $bytes" ] &&
	ok "the limits are read from bench/ground/runlimits.h by C and Python alike ($py)" ||
	bad "runlimits.h says '$boots $rows $bytes', formats.run_limits() '$py'"

# fresh RUN: a copy of the quick run, its summary.csv kept for comparison
fresh() { rm -rf "$tmp/runs" && mkdir -p "$tmp/runs/quick" && cp -r studies/quick/run "$tmp/runs/quick/run" && rm -rf "$tmp/runs/quick/run/plots" && run=$tmp/runs/quick/run; }
# tiny_rows FILE N: FILE's header, then N one-byte rows
tiny_rows() { awk -v n="$2" 'NR == 1 { print; for (i = 0; i < n; i++) print "x"; exit }' "$1" >"$1.new" && mv "$1.new" "$1"; }
# refused_by_all WHAT NEEDLE: the runner (only for raw.csv) and the plot tools refuse RUN, naming NEEDLE
refused_by_all() {
	local what=$1 needle=$2 out rc
	if [ "${3:-}" = raw ]; then
		out=$("$runner" --summarize "$run" 2>&1)
		rc=$?
		clean_error $rc "$out" "$needle" && cmp -s "$run/summary.csv" studies/quick/run/summary.csv &&
			ok "--summarize refuses $what, naming the limit; summary.csv untouched" ||
			bad "--summarize with $what: rc=$rc: $(brief "$out")"
	fi
	out=$(python3 plots/prepare.py "$run" "$tmp/data" 2>&1)
	clean_error $? "$out" "$needle" && ok "plots/prepare.py refuses $what, naming the limit" ||
		bad "prepare.py with $what: $(brief "$out")"
	out=$(CRNGBENCH_RUNNER=$runner plots/render.sh "$run" 2>&1)
	clean_error $? "$out" "$needle" && [ ! -e "$run/plots/1-nethack.png" ] &&
		ok "make plots (plots/render.sh) refuses $what, no chart drawn" || bad "render.sh with $what: $(brief "$out")"
}

fresh
tiny_rows "$run/raw.csv" $((boots + 1))
refused_by_all "a raw.csv of $((boots + 1)) rows" \
	"raw.csv: $((boots + 1)) rows, over the limit of $boots rows a run may hold (MAX_RUN_BOOTS in bench/ground/runlimits.h)" raw
grep -v -m1 '^#' plots/quoted >"$tmp/q"
echo "r  measured  quick  raw.csv  status=ok  crng_ready_ns  median  s  1  -  -" >>"$tmp/q"
out=$(python3 plots/quoted.py "$tmp/runs" "$tmp/q" 2>&1)
clean_error $? "$out" "over the limit of $boots rows a run may hold (MAX_RUN_BOOTS" &&
	ok "plots/quoted.py refuses a committed run's raw.csv over the limit" || bad "quoted.py: $(brief "$out")"
fresh
tiny_rows "$run/raw.csv" "$boots"
out=$(python3 plots/prepare.py "$run" "$tmp/data" 2>&1)
clean_error $? "$out" "line 2 has 1 fields" && ! grep -q "over the limit" <<<"$out" &&
	ok "a raw.csv of exactly $boots rows is within the limit (read, and refused only for its rows)" ||
	bad "raw.csv at the limit: $(brief "$out")"

fresh
cp "$run/raw.csv" "$tmp/raw.csv"
truncate -s $((bytes + 1)) "$run/raw.csv"
refused_by_all "a raw.csv of $((bytes + 1)) bytes (sparse)" \
	"raw.csv: $((bytes + 1)) bytes, over the limit of $bytes bytes (256 MiB) a table of a run may hold (MAX_RUN_BYTES in bench/ground/runlimits.h)" raw

fresh
tiny_rows "$run/reads.csv" $((rows + 1))
refused_by_all "a reads.csv of $((rows + 1)) rows" \
	"reads.csv: $((rows + 1)) rows, over the limit of $rows rows a table of a run may hold (MAX_RUN_ROWS in bench/ground/runlimits.h)"
fresh
truncate -s $((bytes + 1)) "$run/traces.csv"
refused_by_all "a traces.csv of $((bytes + 1)) bytes (sparse)" "traces.csv: $((bytes + 1)) bytes, over the limit of $bytes bytes"

# The plan's limit is the rows a run may hold: no run is planned that its readers refuse.
out=$("$runner" --matrix studies/quick/quick.matrix --set reps=10000 --print-axis plan 2>&1)
clean_error $? "$out" "more than the limit of $boots boots a run may plan" &&
	ok "a plan of more than $boots boots is refused before any boot (the same limit)" || bad "plan limit: $(brief "$out")"

# The docs state the header's numbers.
commas=$(sed -E ':a;s/([0-9])([0-9]{3})($|,)/\1,\2\3/;ta' <<<"$boots")
for doc in README.md docs/results.md; do
	grep -qE "($boots|$commas) boots" "$doc" && grep -q "256 MiB" "$doc" &&
		ok "$doc states the limits ($boots boots, 256 MiB)" || bad "$doc does not state the limits of bench/ground/runlimits.h"
done
