#!/usr/bin/env bash
# The tables of REPORT.md and of the study pages (each block in the page
# holding its markers: studies/<name>/README.md, studies/README.md or
# REPORT.md) and the committed charts (plots/figures/) from the main run,
# and from the runs of the studies beside it (make report FROM=committed:
# scripts/regen-report.sh):
#   plots/report.sh RUN [--STUDY DIR]... [--answer STUDIES] [--runs STUDIES] [--quoted STUDIES]
#   plots/report.sh --run RUN   (make report RUN=...: RUN/report.md alone)
# STUDY is a study of studies/ with a block of its own (the folders are
# the registry: an unknown name is refused with their list); STUDIES the
# studies folder (--quoted: the figures of plots/quoted). A chart a
# study's `charts` field names (studies/README.md) comes from its run
# alone, when given, and only from a run that draws it; every other
# chart of the repository (plots/runlib.py's CHARTS) that RUN has from
# RUN; a run without plots/ is drawn first (plots/render.sh).
# RUN "-" keeps the main run's tables and charts as they are (the other
# runs' are regenerated: scripts/regen-report.sh, when no main run is
# committed).
# A run is untrusted (runs are mailed and copied between machines): its
# paths are arguments, never code; of its files only the charts of known
# names are copied, each a regular file of the run (never a symbolic link,
# never a FIFO, which would block), and all of that is checked, and the
# charts taken, before REPORT.md is rewritten.
set -euo pipefail
die() { echo "plots/report.sh: error: $*" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
# The studies with a block of their own (block: their name), each an
# option --NAME DIR, and the charts each claims; plus the committed runs'
# own blocks.
# shellcheck source=scripts/table.sh
. "$root/scripts/table.sh"
# shellcheck source=scripts/studies.sh
. "$root/scripts/studies.sh"
field() { (cd "$root" && study_get "$1" "$2"); }
all=$(cd "$root" && studies) || exit 2
kinds=''
declare -A claims=()
for s in $all; do
	[ "$(field "$s" block)" != "$s" ] || kinds+="$s"$'\n'
	for c in $(field "$s" charts | tr , ' '); do claims[$c]=$s; done
done
usage="usage: plots/report.sh RUN$(printf ' [--%s DIR]' $kinds) [--answer RUNS_DIR] [--runs RUNS_DIR] [--quoted RUNS_DIR]"
# The charts: the repository's chart names only (plots/runlib.py's
# CHARTS, in their order), never a name found in a run.
known=()
while read -r name; do
	[[ $name =~ ^[1-9][0-9]?-[a-z0-9-]+$ ]] || die "runlib.CHARTS: '$name' is not a chart name"
	known+=("$name")
done < <(cd "$root/plots" && python3 -c 'from runlib import CHARTS; print("\n".join(CHARTS))')
[ ${#known[@]} -gt 0 ] || die "no chart names from plots/runlib.py"
[ $# -ge 1 ] || die "$usage"
# rundir DIR: DIR is a results directory named by printable text
rundir() {
	case $1 in *[[:cntrl:]]*) die "the path $(printf '%q' "$1") holds a control character: give a results directory whose path is printable text" ;; esac
	[ -d "$1" ] || die "$(printf '%q' "$1") is not a directory (a results/<run> directory?)"
}
# plotsdir DIR: DIR/plots, the run's charts, is a directory of the run
plotsdir() {
	[ ! -L "$1/plots" ] || die "$1/plots is a symbolic link: refused (copy charts, not links)"
	[ -d "$1/plots" ] || die "$1/plots is not a directory: draw the charts first (make plots RUN=...)"
}
# chart FILE: FILE is a chart of the run (a regular file, never a link or
# a FIFO, which would block); status 1 when it does not exist
chart() {
	if [ -L "$1" ]; then
		die "$1 is a symbolic link: refused (copy charts, not links)"
	elif [ ! -e "$1" ]; then
		return 1
	elif [ ! -f "$1" ]; then
		die "$1 is not a regular file: refused (a chart is a file of the run)"
	fi
}

# --run RUN: the run's own report, RUN/report.md (make report RUN=...):
# its tables and the charts of RUN/plots/ it draws (drawn first when
# absent), each checked as below; REPORT.md and plots/figures/ are the
# committed runs' (make report FROM=committed) and are left as they are.
if [ "$1" = --run ]; then
	[ $# -eq 2 ] && [ -n "$2" ] || die "usage: plots/report.sh --run RUN (RUN/report.md, beside the run)"
	run=$2
	rundir "$run"
	[ -e "$run/plots" ] || [ -L "$run/plots" ] || "$root/plots/render.sh" "$run" ||
		die "drawing the charts of $(printf '%q' "$run") failed: see above"
	plotsdir "$run"
	charts=()
	for name in "${known[@]}"; do
		! chart "$run/plots/$name.png" || charts+=("$name")
	done
	[ ${#charts[@]} -gt 0 ] || die "$run/plots holds none of the repository's charts: draw them first (make plots RUN=...)"
	exec python3 "$root/plots/report_tables.py" --run-report "$run" "${charts[@]}"
fi
run=$1
shift
declare -A opt=()
while [ $# -gt 0 ]; do
	case $1 in
	--*) k=${1#--} ;;
	*) k= ;;
	esac
	if [ -n "$k" ] && grep -qx -- "$k" <<<"$kinds"$'\nanswer\nruns\nquoted'; then
		if [ $# -lt 2 ] || [ -z "$2" ]; then die "$1 needs a results directory"; fi
		[ -z "${opt[$k]+set}" ] || die "$1 given twice"
		opt[$k]=$2
		shift 2
	else
		die "unknown argument $(printf '%q' "$1"); $usage"
	fi
done
[ "$run" != - ] || [ ${#opt[@]} -gt 0 ] || die "RUN '-' keeps the main run's tables: give another run (--hz DIR, ...); $usage"
for d in "$run" "${opt[@]}"; do
	[ "$d" = - ] || rundir "$d"
done

# fits DIR NAME: the chart NAME is one that run draws (runlib.charts_for);
# DIR made absolute first, as python runs in plots/
fits() {
	local d=$1
	case $d in /*) ;; *) d=$PWD/$d ;; esac
	(cd "$root/plots" && python3 -c 'import sys
from runlib import charts_for, read_table
sys.exit(0 if sys.argv[2] in charts_for(read_table(sys.argv[1], "raw.csv")) else 1)' "$d" "$2")
}
from=()  # "DIR<TAB>NAME<TAB>required"
for name in "${known[@]}"; do
	s=${claims[$name]:-}
	if [ -n "$s" ]; then
		# a study's chart: only from its run, and only from a run that
		# draws it (not a PNG another kind of run brought along under its
		# name)
		if [ -n "${opt[$s]:-}" ]; then
			fits "${opt[$s]}" "$name" ||
				die "--$s $(printf '%q' "${opt[$s]}") is not a run that draws $name (a run of the $s study's matrix is: studies/$s/)"
			from+=("${opt[$s]}	$name	1")
		fi
	elif [ "$run" != - ]; then
		from+=("$run	$name	0")
	fi
done

# A run with no plots/ yet is drawn here (its charts are copied below).
draw=("$run")
for s in "${claims[@]}"; do [ -z "${opt[$s]:-}" ] || draw+=("${opt[$s]}"); done
for d in "${draw[@]}"; do
	if [ -n "$d" ] && [ "$d" != - ] && [ ! -e "$d/plots" ] && [ ! -L "$d/plots" ]; then
		"$root/plots/render.sh" "$d" || die "drawing the charts of $(printf '%q' "$d") failed: see above"
	fi
done

# Every chart checked and taken aside before anything is written; the
# charts go into plots/figures itself, never through a link (a checkout
# can carry one) into a directory elsewhere.
[ ! -L "$root/plots/figures" ] || die "$root/plots/figures is a symbolic link: refused before anything is written (the committed charts are files of the checkout)"
stage=$(mktemp -d "$root/plots/.report.XXXXXX")
trap 'rm -rf "$stage"' EXIT
from_run=0
for entry in "${from[@]}"; do
	IFS=$'\t' read -r d name required <<<"$entry"
	f=$d/plots/$name.png
	plotsdir "$d"
	if ! chart "$f"; then
		[ "$required" = 0 ] || die "$f not found: draw the charts first (make plots RUN=...)"
		continue
	fi
	cp -- "$f" "$stage/$name.png"
	[ "$d" != "$run" ] || from_run=$((from_run + 1))
done
[ "$run" = - ] || [ $from_run -gt 0 ] || die "$run/plots holds none of the charts ${known[*]}: draw them first (make plots RUN=...)"

args=()
for o in $kinds answer runs quoted; do
	[ -z "${opt[$o]:-}" ] || args+=("--$o=${opt[$o]}")
done
python3 "$root/plots/report_tables.py" "${args[@]}" -- "$run" "$root/REPORT.md"
mkdir -p "$root/plots/figures"
for f in "$stage"/*.png; do
	[ ! -e "$f" ] || mv -f -- "$f" "$root/plots/figures/"
done
