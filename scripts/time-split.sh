#!/usr/bin/env bash
# The main job's time split: stage times from make bench (TIMES: "stage
# seconds" lines) and the runner's host time per accelerator (RUN's
# host_time.csv, when it has one), e.g.
#   main job 372.1 s: packages 1.2, kernels 3.4, runner+image 9.0, boots 340.2 (icount 150.3 s: 160 boots; tcg 188.1 s: 80 boots; kvm 0.0 s: 160 skipped), plots 18.3
#   scripts/time-split.sh TIMES RUN [LABEL]     (LABEL: "main job" unless given)
set -euo pipefail
times=$1 run=$2 label=${3:-main job}
[ -f "$times" ] || { echo "time-split: no stage times in $times" >&2; exit 2; }
# host_time.csv is a run's file (a run resumed here may come from
# elsewhere): its text reaches the terminal and main-job-time.txt with
# every byte that is not printable as '?', and reaches awk through
# ENVIRON, never -v (which would read its backslashes as escapes: '\n' a
# line break)
by_accel=
if [ -f "$run/host_time.csv" ]; then
	by_accel=$(awk -F, 'NR > 1 { for (i = 1; i <= NF; i++) gsub(/[^[:print:]]/, "?", $i)
		printf "%s%s %s s: %d boots%s", sep, $1, $4, $2, ($3 > 0 ? ", " $3 " skipped" : ""); sep = "; " }' "$run/host_time.csv")
fi
ACC=$by_accel LABEL=$label awk '
	{ total += $2; line = line sep $1 " " $2 (($1 == "boots" && ENVIRON["ACC"] != "") ? " (" ENVIRON["ACC"] ")" : ""); sep = ", " }
	END { printf "%s %.1f s: %s\n", ENVIRON["LABEL"], total, line }' "$times"
