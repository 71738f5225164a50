#!/usr/bin/env bash
# REPORT.md's generated blocks, its charts (plots/figures/) and the mail
# (post.txt) from the committed runs alone (make reproduce's last step;
# make report FROM=committed):
#   scripts/regen-report.sh [--list]
# For each study (studies/<name>/, in their order) whose run/ holds a run
# (raw.csv): its charts are drawn again (plots/render.sh, into
# studies/<name>/run/plots/, which git ignores), then plots/report.sh takes
# it for the study's block (block main: RUN; its own: --<name> DIR), so its
# block tables:<block> is regenerated, in the page that holds its markers
# (REPORT.md, studies/README.md or studies/<name>/README.md); a block whose run is
# not committed keeps its text (RUN '-' for the main block). The study
# whose post field is "run" gives plots/post.py its RUN (the mail,
# studies/<name>/run/post.txt, committed, and post.mbox, not), the "hz" one
# its --hz. Paths are given as studies/<name>/run, from the checkout's root,
# so the text that names them ("make report RUN=studies/quick/run") is the
# same wherever the checkout is.
# --list: what would be regenerated, one line each ("tables:<block>
# studies/<name>/run", "post studies/<name>/run/post.txt"), then the line
# "report RUN [--<name> DIR]... --answer ...": the arguments plots/report.sh
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
# shellcheck source=scripts/studies.sh
. scripts/studies.sh
[ ! -L studies ] || die "studies is a symbolic link: refused (the committed runs are directories of the checkout)"
main=- post='' posthz='' args=() runs=()
declare -A drawn=()
names=$(studies) || exit 2
for name in $names; do
	rep=$(study_get "$name" block) || exit 2
	role=$(study_get "$name" post) || exit 2
	case $rep in '' | main | "$name") ;; *) die "studies/$name/study: block '$rep' is none of main, $name, '-'" ;; esac
	case $role in '' | run | hz) ;; *) die "studies/$name/study: post '$role' is none of run, hz, '-'" ;; esac
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
	# drawn: the main run, a run the mail draws on, a run whose study
	# claims charts; the others (upstream) give tables alone
	[ "$rep" != main ] && [ -z "$role" ] && [ -z "$(study_get "$name" charts)" ] || drawn[$d]=1
	if [ -n "$rep" ]; then
		[ $list = 0 ] || echo "tables:$rep $d"
		if [ "$rep" = main ]; then main=$d; else args+=("--$name" "$d"); fi
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
	echo "[regen] no study of studies/ holds a committed run: nothing to regenerate"
	exit 0
fi
export CRNGBENCH_RUNNER=${CRNGBENCH_RUNNER:-$PWD/build/crngbench-run}
[ -x "$CRNGBENCH_RUNNER" ] || make -s runner >&2 || die "building the runner (make runner) failed: see above"
# Every chart drawn again from the data as committed: a plots/ left from
# older data is never copied into plots/figures/ or the mail. A run none
# of whose charts is taken is not drawn (a matrix of its own may fit no
# chart: studies/upstream).
for d in "${runs[@]}"; do
	rm -rf -- "$d/plots"
	[ -z "${drawn[$d]:-}" ] || plots/render.sh "$d" >/dev/null || die "drawing the charts of $d failed: see above"
done
if [ "$main" != - ] || [ ${#args[@]} -gt 0 ]; then
	plots/report.sh "${report_args[@]}"
fi
if [ -n "$post" ]; then
	arches=
	[ ! -f studies/arches/run/raw.csv ] || arches=studies/arches/run
	python3 plots/post.py "$post" ${posthz:+--hz "$posthz"} ${arches:+--arches "$arches"} --answer studies
fi
