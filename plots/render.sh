#!/usr/bin/env bash
# Render every chart of a results directory: PNG and SVG with gnuplot, and
# a plain-text version of each for an 80-column mail (plots/textcharts.py).
#   plots/render.sh RUN_DIR     -> RUN_DIR/plots/*.{png,svg,txt}
# Any gnuplot warning is an error: a chart that warns is probably wrong.
# A results directory is untrusted: its paths reach gnuplot only as
# arguments of gnuplot -c (plain strings, absolute), its text only as data
# (plots/prepare.py), and nothing is written through a symbolic link or
# into a FIFO.
set -euo pipefail
die() { echo "plots/render.sh: error: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: plots/render.sh RUN_DIR"
run=$1
# Absolute, from the caller's directory: a relative name starting with '<'
# or '|' would be a shell pipe to gnuplot.
case $run in /*) ;; *) run=$PWD/$run ;; esac
case $run in *[[:cntrl:]]*) die "the path $(printf '%q' "$run") holds a control character: give a results directory whose path is printable text" ;; esac
cd "$(dirname "$0")/.."
[ -f "$run/raw.csv" ] || die "$run/raw.csv not found (not a results directory)"
command -v gnuplot >/dev/null || die "gnuplot not found; apt-get install -y gnuplot-nox"
# The runner describes the axes (plots/runlib.py): build it when it is
# missing or stale, unless the caller names one (make plots does).
if [ -z "${CRNGBENCH_RUNNER:-}" ]; then
	command -v make >/dev/null || die "make not found: build the runner (make runner) or set CRNGBENCH_RUNNER"
	make -s runner >&2 || die "building the runner (make runner) failed: see above"
fi
out=$run/plots
data=$out/data
for d in "$out" "$data"; do
	[ ! -L "$d" ] || die "$d is a symbolic link: refused (the charts are written into the run directory itself, never through a link that could point anywhere)"
done
mkdir -p "$data"
link=$(find "$out" -maxdepth 2 -type l -print -quit)
[ -z "$link" ] || die "$link is a symbolic link: refused (render.sh writes RUN/plots and RUN/plots/data in place, never through a link)"
# A FIFO (or a device) where a chart or a data file goes would block the
# writer (gnuplot, python) or the reader forever: refused before any work.
odd=$(find "$out" -maxdepth 2 ! -type f ! -type d -print -quit)
[ -z "$odd" ] || die "$odd is not a regular file: refused (RUN/plots and RUN/plots/data hold the charts and their data files only)"
python3 plots/prepare.py "$run" "$data"
# whole FILE FORMAT: the file ends as a complete one does (a PNG with its
# IEND chunk, an SVG with </svg>): gnuplot may say nothing when the disk
# fills, and leave a 0-byte or cut file
whole() {
	case $2 in
	png) [ "$(tail -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ] ;;
	svg) tail -c 64 "$1" 2>/dev/null | grep -q '</svg>' ;;
	esac
}
status=0 drawn=0 failed=''
# prepare.py lists the charts that fit the run (7 for other machines, 1-6 x86)
for name in $(cat "$data/charts"); do
	[[ $name =~ ^[1-9][0-9]?-[a-z0-9-]+$ ]] || die "$data/charts: '$name' is not a chart name"
	gp=plots/$name.gp
	[ -f "$gp" ] || die "$data/charts: no chart $gp"
	ok=1
	for fmt in png svg; do
		# a chart gnuplot failed on, or left empty (disk full), is
		# removed: a cut PNG must never reach plots/figures/ or a count
		if ! gnuplot -c plots/chart.gp "$data" "$fmt" "$out/$name.$fmt" "$gp" 2>"$data/$name.$fmt.err" ||
			[ -s "$data/$name.$fmt.err" ] || ! whole "$out/$name.$fmt" "$fmt"; then
			echo "plots/render.sh: gnuplot warned or failed on $name ($fmt):" >&2
			sed 's/^/    /' "$data/$name.$fmt.err" >&2 2>/dev/null || true
			whole "$out/$name.$fmt" "$fmt" || echo "    ($out/$name.$fmt is missing, empty or cut: is the disk full?)" >&2
			ok=0 status=1
		fi
	done
	if [ $ok = 1 ]; then drawn=$((drawn + 1)); else rm -f -- "$out/$name.png" "$out/$name.svg"; failed="$failed $name"; fi
done
# text charts cut by a failed write are removed, as the PNGs are
python3 plots/textcharts.py "$data" "$out" || { status=1; rm -f -- "$out"/[1-9]-*.txt "$out"/[1-9][0-9]-*.txt; }
if [ $status = 0 ]; then
	echo "[plots] $drawn charts in $out"
else
	echo "[plots] failed: $drawn charts drawn in $out${failed:+; not drawn, removed:$failed}" >&2
fi
exit $status
