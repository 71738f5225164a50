#!/usr/bin/env bash
# The main job's time split: stage times from make bench (TIMES: "stage
# seconds" lines) and the runner's host time per accelerator (RUN's
# host_time.csv, when it has one), e.g.
#   main job 372.1 s: packages 1.2, kernels 3.4, runner+image 9.0, boots 340.2 (icount 150.3 s: 160 boots; tcg 188.1 s: 80 boots; kvm 0.0 s: 160 skipped), plots 18.3
#   scripts/time-split.sh TIMES RUN [LABEL]     (LABEL: "main job" unless given)
set -euo pipefail
times=$1 run=$2 label=${3:-main job}
[ -f "$times" ] || { echo "time-split: no stage times in $times" >&2; exit 2; }
by_accel=
if [ -f "$run/host_time.csv" ]; then
	by_accel=$(awk -F, 'NR > 1 { printf "%s%s %s s: %d boots%s", sep, $1, $4, $2,
		($3 > 0 ? ", " $3 " skipped" : ""); sep = "; " }' "$run/host_time.csv")
fi
awk -v acc="$by_accel" -v label="$label" '
	{ total += $2; line = line sep $1 " " $2 (($1 == "boots" && acc != "") ? " (" acc ")" : ""); sep = ", " }
	END { printf "%s %.1f s: %s\n", label, total, line }' "$times"
