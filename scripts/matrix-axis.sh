#!/usr/bin/env bash
# Print the value list of one axis of a matrix file (comma-separated, as
# written), or the runner's default when the file does not set it. Used by the
# Makefile to know which kernels a matrix needs before it runs.
set -euo pipefail
file=$1 axis=$2
[ -f "$file" ] || { echo "error: matrix file $file not found" >&2; exit 2; }
v=$(sed 's/#.*//' "$file" | awk -F= -v a="$axis" '{k=$1; gsub(/[ \t]/, "", k)} k == a {v=$2} END {gsub(/[ \t]/, "", v); print v}')
if [ -z "$v" ]; then
	case $axis in variant) v=stock ;; hz) v=250 ;; *) v= ;; esac
fi
echo "$v"
