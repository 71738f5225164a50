#!/usr/bin/env bash
# REPORT.md's generated blocks, its charts (plots/figures/) and the mail
# (post.txt) from the committed runs alone (make reproduce's last step;
# make report FROM=committed):
#   scripts/regen-report.sh [--list]
# For each row of bench/report-runs whose studies/<name>/run/ holds a run
# (raw.csv): its charts are drawn again (plots/render.sh, into
# studies/<name>/run/plots/, which git ignores), then plots/report.sh takes
# it as the row's report option (main: RUN; hz: --hz DIR; ...), so its
# block tables:<report> of REPORT.md is regenerated; a block whose run is
# not committed keeps its text (RUN '-' for the main block). The row whose
# post column is "run" gives plots/post.py its RUN (the mail,
# studies/<name>/run/post.txt, committed, and post.mbox, not), the "hz" row
# its --hz. Paths are given as studies/<name>/run, from the checkout's root,
# so the text that names them ("make report RUN=studies/quick/run") is the
# same wherever the checkout is.
# --list: what would be regenerated, one line each ("tables:<report>
# studies/<name>/run", "post studies/<name>/run/post.txt"), then the line
# "report RUN [--<report> DIR]... --answer ...": the arguments plots/report.sh
# is given; nothing drawn.
set -euo pipefail
die() { echo "scripts/regen-report.sh: error: $*" >&2; exit 2; }
list=0
case ${1:-} in
--list) list=1 ;;
'') ;;
*) die "unknown argument '$1'; usage: scripts/regen-report.sh [--list]" ;;
esac
cd "$(dirname "$0")/.."
# shellcheck source=scripts/table.sh
. scripts/table.sh
index=bench/report-runs
[ ! -L studies ] || die "studies is a symbolic link: refused (the committed runs are directories of the checkout)"
main=- post='' posthz='' args=() runs=()
for name in $(table_keys "$index"); do
	rep=$(table_get "$index" "$name" report) || exit 2
	role=$(table_get "$index" "$name" post) || exit 2
	# a kind is any lowercase word: plots/report_tables.py refuses one it
	# has no builder for, naming it (this file is the registry of kinds)
	[[ $rep =~ ^([a-z][a-z0-9]*)?$ ]] ||
		die "$index: $name's report '$rep' is not a report kind (main, '-', or a lowercase word with a builder in plots/report_tables.py)"
	case $role in '' | run | hz) ;; *) die "$index: $name's post '$role' is none of run, hz, '-'" ;; esac
	d=studies/$name/run
	# a committed run is untrusted: a link at the run, at one of its
	# runs (parallel/jobs1) or at its raw.csv is refused before anything
	# is deleted or drawn (rm -rf "$d/plots" once went through one)
	for l in "$d" "$d"/* "$d"/*/raw.csv; do
		[ ! -L "$l" ] || die "$l is a symbolic link: refused before anything is deleted or drawn (a committed run is a directory of the checkout, its files its own)"
	done
	[ -f "$d/raw.csv" ] || continue
	[ -n "$rep$role" ] || continue
	runs+=("$d")
	if [ -n "$rep" ]; then
		[ $list = 0 ] || echo "tables:$rep $d"
		if [ "$rep" = main ]; then main=$d; else args+=("--$rep" "$d"); fi
	fi
	case $role in run) post=$d ;; hz) posthz=$d ;; esac
done
[ -z "$post" ] || [ $list = 0 ] || echo "post $post/post.txt"
# plots/report.sh's arguments: the first screen's answer (cells of several
# committed runs, plots/tables_runs.py's ANSWER), the runs themselves and
# the figures the prose quotes (plots/quoted) after the runs' own; --list
# prints exactly what the call below is given
report_args=("$main" "${args[@]}" --answer studies --runs studies --quoted studies)
[ $list = 0 ] || { echo "report ${report_args[*]}"; exit 0; }
if [ ${#runs[@]} -eq 0 ]; then
	echo "[regen] no run of $index is committed under studies/: nothing to regenerate"
	exit 0
fi
export CRNGBENCH_RUNNER=${CRNGBENCH_RUNNER:-$PWD/build/crngbench-run}
[ -x "$CRNGBENCH_RUNNER" ] || make -s runner >&2 || die "building the runner (make runner) failed: see above"
# Every chart drawn again from the data as committed: a plots/ left from
# older data is never copied into plots/figures/ or the mail.
for d in "${runs[@]}"; do
	rm -rf -- "$d/plots"
	plots/render.sh "$d" >/dev/null || die "drawing the charts of $d failed: see above"
done
if [ "$main" != - ] || [ ${#args[@]} -gt 0 ]; then
	plots/report.sh "${report_args[@]}"
fi
if [ -n "$post" ]; then
	arches=
	[ ! -f studies/arches/run/raw.csv ] || arches=studies/arches/run
	python3 plots/post.py "$post" ${posthz:+--hz "$posthz"} ${arches:+--arches "$arches"} --answer studies
fi
