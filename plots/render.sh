#!/usr/bin/env bash
# Render every chart of a results directory: PNG and SVG with gnuplot, and
# a plain-text version of each for an 80-column mail (plots/textcharts.py).
#   plots/render.sh RUN_DIR     -> RUN_DIR/plots/*.{png,svg,txt}
# Any gnuplot warning is an error: a chart that warns is probably wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:?usage: plots/render.sh RUN_DIR}
[ -f "$run/raw.csv" ] || { echo "plots/render.sh: error: $run/raw.csv not found (not a results directory)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "plots/render.sh: error: gnuplot not found; apt-get install -y gnuplot-nox" >&2; exit 2; }
out=$run/plots
data=$out/data
mkdir -p "$data"
python3 plots/prepare.py "$run" "$data"
status=0
# prepare.py lists the charts that fit the run (7 for other machines, 1-6 x86)
for name in $(cat "$data/charts"); do
	gp=plots/$name.gp
	for fmt in png svg; do
		if ! gnuplot -e "datadir='$data'; fmt='$fmt'; out='$out/$name.$fmt'" "$gp" 2>"$data/$name.$fmt.err" ||
			[ -s "$data/$name.$fmt.err" ]; then
			echo "plots/render.sh: gnuplot warned or failed on $name ($fmt):" >&2
			sed 's/^/    /' "$data/$name.$fmt.err" >&2
			status=1
		fi
	done
done
python3 plots/textcharts.py "$data" "$out" || status=1
echo "[plots] $(ls "$out"/*.png 2>/dev/null | wc -l) charts in $out"
exit $status
