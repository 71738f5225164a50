#!/usr/bin/env bash
# test: REPORT.md, the study pages and post.txt from the committed runs
# runs: first
# The evidence in the repository: the generated blocks of REPORT.md and
# of the study pages (studies/README.md, studies/<name>/README.md) and the
# mail (post.txt) regenerate byte for byte from the committed runs alone.
# Covered, automatically: every study whose studies/<name>/run/ holds a
# run (raw.csv; a bench-parallel study: its subdirectories). For each such run:
#  - it fits its budget (budget_kib);
#  - its summary.csv is the runner's from its raw.csv (--summarize of a
#    copy, byte for byte), so no number of either was edited alone, and
#    raw.csv's CRNG ready times (which the runner derives again when it
#    reads a row, so --summarize cannot see them edited) are those its
#    kernel log and watcher columns give;
#  - one page (REPORT.md or a study page) has its block's markers
#    (tables:<report>);
# then, in a copy of the tree, scripts/regen-report.sh (make reproduce's
# last step) regenerates every covered block (tables:<report> of each
# covered run; the others keep their text) and, when the row whose post
# column is "run" is committed, its post.txt: every page and post.txt must
# equal the committed files byte for byte. The charts are drawn too, not
# compared (gnuplot's PNG bytes differ between versions). The "# covered"
# line names the runs and blocks. The test's own negative checks: a copy
# with one number of a covered run's summary.csv changed regenerates a
# page that differs; one with a read's duration changed in raw.csv
# fails the summary check, one with a CRNG ready time changed there the
# derived-columns check.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "report regen"
root=$PWD
export CRNGBENCH_RUNNER=${CRNGBENCH_RUNNER:-$root/build/crngbench-run}
# shellcheck source=scripts/table.sh
. scripts/table.sh
# shellcheck source=scripts/studies.sh
. scripts/studies.sh

covered=() blocks=() dirs=() main=
# the report's pages: REPORT.md and the study pages beside it (each block
# lives in the one page holding its markers: plots/report_tables.py)
mapfile -t pages < <(cd plots && python3 -c 'import os, runlib; print("\n".join(os.path.relpath(p, runlib.ROOT) for p in runlib.pages(os.path.join(runlib.ROOT, "REPORT.md"))))')
[ ${#pages[@]} -ge 1 ] || bad "no page of the report (runlib.pages)"
for name in $(studies); do
	d=studies/$name/run
	if [ -f "$d/raw.csv" ]; then
		mine=("$d")
	else
		mine=()
		for s in "$d"/*/; do [ -f "$s/raw.csv" ] && mine+=("${s%/}"); done
	fi
	[ ${#mine[@]} -gt 0 ] || continue
	covered+=("$name")
	dirs+=("${mine[@]}")
	budget=$(study_get "$name" budget_kib)
	kib=$(( ($(find "$d" -type f ! -path '*/plots/*' ! -name post.mbox -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }') + 1023) / 1024 ))
	[ "$kib" -le "$budget" ] && ok "$d holds $kib KiB, within its budget of $budget KiB" ||
		bad "$d holds $kib KiB, over its budget of $budget KiB (studies/$name/study)"
	rep=$(study_get "$name" block)
	if [ -n "$rep" ]; then
		pg=$(grep -lxF "<!-- tables:$rep:begin -->" "${pages[@]}")
		if [ -n "$pg" ] && [ "$(wc -l <<<"$pg")" = 1 ] && grep -qxF "<!-- tables:$rep:end -->" "$pg"; then
			blocks+=("tables:$rep")
		else
			bad "no one page of REPORT.md and the study pages has a tables:$rep block for $d (studies/$name/study)"
		fi
	fi
	[ "$(study_get "$name" post)" != run ] || { main=$d; blocks+=("$d/post.txt"); }
done
if [ ${#covered[@]} -eq 0 ]; then
	echo "SKIP: report regen: no study of studies/ holds a committed run"
	exit 0
fi
echo "# covered: runs ${covered[*]}; blocks ${blocks[*]:-none}"

# summary_same DIR: DIR's summary.csv is --summarize's from its raw.csv
# (a run kept before an axis existed: that axis's column, holding its
# default alone, left out; a run kept before summary.csv's last columns,
# boots and stop, were added: its columns, and the runner's columns past
# them left out, until the committed runs are made again)
summary_same() {
	local c=$tmp/sum
	rm -rf "$c" && cp -r "$1" "$c" && rm -rf "$c/plots" &&
		"$CRNGBENCH_RUNNER" --summarize "$c" >/dev/null 2>&1 &&
		{ cmp -s "$c/summary.csv" "$1/summary.csv" || python3 - "$c/summary.csv" "$1/summary.csv" <<-'PY'; }
			import csv, sys
			sys.path.insert(0, "plots")
			from formats import axis_defaults
			new, old = (list(csv.reader(open(p, newline=""))) for p in sys.argv[1:])
			axes = axis_defaults()
			drop = {i for i, c in enumerate(new[0]) if c in axes and c not in old[0]
			        and all(r[i] == axes[c] for r in new[1:])}
			new = [[v for i, v in enumerate(r) if i not in drop] for r in new]
			k = len(old[0])
			sys.exit(not (new == old or old[0][-2:] != ["boots", "stop"] and new[0][:k] == old[0]
			              and new[0][k:] == ["boots", "stop"] and [r[:k] for r in new] == old))
		PY
}
# derived_same DIR: raw.csv's CRNG ready (crng_ready_ns, _src), which the
# runner derives again as it reads a row, is what it derives (worked out
# here: none when censored, else the kernel log's, else the watcher's)
derived_same() {
	python3 - "$1/raw.csv" <<-'PY'
		import csv, sys
		for n, r in enumerate(csv.DictReader(open(sys.argv[1], newline="")), 2):
		    kmsg, poll = r["crng_ready_kmsg_ns"], r["crng_ready_poll_ns"]
		    want = ("", "") if r["crng_ready_censored"] == "1" else (kmsg, "kmsg") if kmsg else (poll, "poll") if poll else ("", "")
		    if (r["crng_ready_ns"], r["crng_ready_src"]) != want:
		        sys.exit(f"line {n}: crng_ready_ns {r['crng_ready_ns']!r} ({r['crng_ready_src']}), derived {want}")
	PY
}
for d in "${dirs[@]}"; do
	summary_same "$d" && ok "$d/summary.csv is the runner's summary of its raw.csv, byte for byte" ||
		bad "$d/summary.csv differs from crngbench-run --summarize of its raw.csv (a number edited in one of them?)"
	why=$(derived_same "$d" 2>&1) && ok "$d/raw.csv's CRNG ready times are those its kernel log and watcher columns give" ||
		bad "$d/raw.csv: $why"
done

# regen_same DEST: regenerated in DEST, REPORT.md, every study page (and
# post.txt) as committed
regen_same() {
	local p
	(cd "$1" && scripts/regen-report.sh >"$1.log" 2>&1) || return 2
	for p in "${pages[@]}"; do cmp -s "$1/$p" "$p" || return 1; done
	[ -z "$main" ] || cmp -s "$1/$main/post.txt" "$main/post.txt" || return 1
}
tree_copy "$tmp/a"
regen_same "$tmp/a"
case $? in
0) ok "REPORT.md, the ${#pages[@]} pages in all${main:+ and $main/post.txt} regenerated from studies/ equal the committed files byte for byte (${blocks[*]})" ;;
1) bad "regenerated from studies/, the text differs from the committed: $(for p in "${pages[@]}"; do diff "$p" "$tmp/a/$p"; done | head -n 6 | tr '\n' ' ')$([ -z "$main" ] || diff "$main/post.txt" "$tmp/a/$main/post.txt" 2>&1 | head -n 4 | tr '\n' ' ')" ;;
*) bad "scripts/regen-report.sh failed: $(tail -n 3 "$tmp/a.log" | tr '\n' ' ')" ;;
esac

# --- the negative checks: one number changed ----------------------------------------
# change FILE COLUMN WHERE...: one row's COLUMN (the first row matching
# every COLUMN=VALUE or COLUMN!=VALUE of WHERE) made another number, in
# place, the rest of the file as it was; prints "line N: OLD -> NEW"
change() {
	python3 - "$@" <<-'PY'
		import csv, sys
		path, col, *where = sys.argv[1:]
		lines = open(path).read().split("\n")
		head = next(csv.reader([lines[0]]))
		i = head.index(col)
		def fits(r):
		    for w in where:
		        neg = "!=" in w
		        k, v = w.split("!=" if neg else "=", 1)
		        if (r.get(k) == v) == neg:
		            return False
		    return True
		for n, line in enumerate(lines[1:], 2):
		    if not line:
		        continue
		    r = dict(zip(head, next(csv.reader([line]))))
		    plain = line.split(",")
		    if fits(r) and r[col] and len(plain) == len(head) and plain[i] == r[col]:
		        old = r[col]
		        new = str(int(old) * 3 + 7) if old.isdigit() else f"{float(old) * 3 + 7:.3f}"
		        plain[i] = new
		        # a summary's median moves with its row's other figures (the
		        # same increasing map): a row that contradicts itself is
		        # refused before any table is made (runlib.summary_rows)
		        if col == "median_ms":
		            for c in ("mean_ms", "min_ms", "max_ms", "p10_ms", "p90_ms", "ci95_lo_ms", "ci95_hi_ms"):
		                j = head.index(c) if c in head else -1
		                if j >= 0 and plain[j] not in ("", "nan", "inf"):
		                    plain[j] = f"{float(plain[j]) * 3 + 7:.3f}"
		        lines[n - 1] = ",".join(plain)
		        open(path, "w").write("\n".join(lines))
		        print(f"line {n}: {old} -> {new}")
		        sys.exit(0)
		sys.exit(f"no row of {path} to change")
	PY
}
# a run whose block shows CRNG ready: its first measured cell's median;
# once for the main run's block and once for another run's (each block
# is regenerated on its own path: report.sh's RUN, or an option), each in
# a fresh copy (cpio keeps a file it finds newer)
done_main= done_other=
for name in "${covered[@]}"; do
	rep=$(study_get "$name" block)
	case $rep in main | sources | longwait | arches | entropy | bases) ;; *) continue ;; esac
	if [ "$rep" = main ]; then [ -z "$done_main" ] || continue; done_main=1; else [ -z "$done_other" ] || continue; done_other=1; fi
	rm -rf "$tmp/b" "$tmp/b.log"
	tree_copy "$tmp/b"
	what=$(change "$tmp/b/studies/$name/run/summary.csv" median_ms measure=crng_ready n!=0) || { bad "$what"; break; }
	regen_same "$tmp/b"
	case $? in
	1) ok "negative check: studies/$name/run/summary.csv with one median changed ($what) regenerates another page: caught" ;;
	0) bad "studies/$name/run/summary.csv with one median changed ($what) regenerates the same pages" ;;
	*) bad "the regeneration with a changed median failed: $(tail -n 3 "$tmp/b.log" | tr '\n' ' ')" ;;
	esac
	[ -z "$done_main" ] || [ -z "$done_other" ] || break
done
d=${dirs[0]}
rm -rf "$tmp/c" && cp -r "$d" "$tmp/c"
what=$(change "$tmp/c/raw.csv" first_urandom_dur_ns status=ok) || bad "$what"
summary_same "$tmp/c" && bad "$d/raw.csv with one read's duration changed ($what) still has its summary.csv" ||
	ok "negative check: $d/raw.csv with one read's duration changed ($what) no longer has its summary.csv: caught"
rm -rf "$tmp/c" && cp -r "$d" "$tmp/c"
what=$(change "$tmp/c/raw.csv" crng_ready_ns status=ok crng_ready_censored=0) || bad "$what"
derived_same "$tmp/c" 2>/dev/null && bad "$d/raw.csv with one CRNG ready time changed ($what) passes" ||
	ok "negative check: $d/raw.csv with one CRNG ready time changed ($what) is no longer what its columns give: caught"
