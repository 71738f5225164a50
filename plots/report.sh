#!/usr/bin/env bash
# make report: REPORT.md's tables and the committed charts (plots/figures/)
# from a run, and from the runs of other matrices beside it:
#   plots/report.sh RUN [--hz DIR] [--guest DIR] [--sources DIR] [--longwait DIR] [--arches DIR]
#                       [--entropy DIR] [--bases DIR] [--systemd DIR] [--fix DIR] [--answer RUNS] [--runs RUNS]
#                       [--quoted RUNS]   (RUNS: studies; --quoted: the figures of plots/quoted)
# Chart 5 comes from the --hz run when given, chart 7 from the --arches run,
# chart 8 from the --entropy run, chart 9 from the --bases run, chart 10 from the --fix run (each only from a run
# that draws it), every
# other chart of the repository (plots/runlib.py's CHARTS) that RUN
# has from RUN; a run without plots/ is drawn first (plots/render.sh).
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
# The report kinds: bench/report-runs' report column (the one registry of
# report blocks), each an option --KIND DIR; plus the committed runs' own
# blocks. report_tables.py refuses a kind it has no builder for.
kinds=$(awk '!/^#/ && NF { if (h++ && $4 ~ /^[a-z][a-z0-9]*$/ && $4 != "main") print $4 }' "$root/bench/report-runs" | awk '!seen[$0]++')
usage="usage: plots/report.sh RUN$(printf ' [--%s DIR]' $kinds) [--answer RUNS_DIR] [--runs RUNS_DIR] [--quoted RUNS_DIR]"
[ $# -ge 1 ] || die "$usage"
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
	[ "$d" != - ] || continue
	case $d in *[[:cntrl:]]*) die "the path $(printf '%q' "$d") holds a control character: give a results directory whose path is printable text" ;; esac
	[ -d "$d" ] || die "$(printf '%q' "$d") is not a directory (a results/<run> directory?)"
done

# Which chart comes from which run: the repository's chart names only
# (plots/runlib.py's CHARTS), never a name found in a run.
known=()
while read -r name; do
	[[ $name =~ ^[1-9][0-9]?-[a-z0-9-]+$ ]] || die "runlib.CHARTS: '$name' is not a chart name"
	known+=("$name")
done < <(cd "$root/plots" && python3 -c 'from runlib import CHARTS; print("\n".join(sorted(CHARTS)))')
[ ${#known[@]} -gt 0 ] || die "no chart names from plots/runlib.py"
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
	case $name in
	5-*)
		if [ -n "${opt[hz]:-}" ]; then
			# only from a run that draws chart 5 (not a PNG another
			# kind of run brought along under its name)
			fits "${opt[hz]}" "$name" ||
				die "--hz $(printf '%q' "${opt[hz]}") is not a run that draws $name (a run of the hz matrix is)"
			from+=("${opt[hz]}	$name	1")
		fi
		;;
	7-*)
		if [ -n "${opt[arches]:-}" ]; then from+=("${opt[arches]}	$name	1"); elif [ "$run" != - ]; then from+=("$run	$name	0"); fi
		;;
	8-*)
		if [ -n "${opt[entropy]:-}" ]; then
			fits "${opt[entropy]}" "$name" ||
				die "--entropy $(printf '%q' "${opt[entropy]}") is not a run that draws $name (a run of the entropy matrix is: x86_64 and probe-only machines)"
			from+=("${opt[entropy]}	$name	1")
		elif [ "$run" != - ]; then
			from+=("$run	$name	0")
		fi
		;;
	9-*)
		if [ -n "${opt[bases]:-}" ]; then
			fits "${opt[bases]}" "$name" ||
				die "--bases $(printf '%q' "${opt[bases]}") is not a run that draws $name (a run of the bases matrix is: more than one kernel base)"
			from+=("${opt[bases]}	$name	1")
		elif [ "$run" != - ]; then
			from+=("$run	$name	0")
		fi
		;;
	10-*)
		# the fix's mechanism: only from the --fix run (the main run
		# booted no variant with its -fix form)
		if [ -n "${opt[fix]:-}" ]; then
			fits "${opt[fix]}" "$name" ||
				die "--fix $(printf '%q' "${opt[fix]}") is not a run that draws $name (a run of the fix matrix is: a variant and its -fix form, with patch 0007's mix columns)"
			from+=("${opt[fix]}	$name	1")
		fi
		;;
	*) [ "$run" = - ] || from+=("$run	$name	0") ;;
	esac
done

# A run with no plots/ yet is drawn here (its charts are copied below).
for d in "$run" "${opt[hz]:-}" "${opt[arches]:-}" "${opt[entropy]:-}" "${opt[bases]:-}" "${opt[fix]:-}"; do
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
	dir=$d/plots f=$d/plots/$name.png
	[ ! -L "$dir" ] || die "$dir is a symbolic link: refused (copy charts, not links)"
	[ -d "$dir" ] || die "$dir is not a directory: draw the charts first (make plots RUN=...)"
	if [ -L "$f" ]; then
		die "$f is a symbolic link: refused (copy charts, not links)"
	elif [ ! -e "$f" ]; then
		[ "$required" = 0 ] || die "$f not found: draw the charts first (make plots RUN=...)"
		continue
	elif [ ! -f "$f" ]; then
		die "$f is not a regular file: refused (a chart is a file of the run)"
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
