#!/bin/sh
# shellcheck shell=sh
# The matrices, by name: bench/<m>.matrix (a matrix of no study: full,
# nocounter) or studies/<study>/<m>.matrix (a study's own). A name is one
# file: two of one name are an error. Run from the checkout's root.
#   . scripts/studies.sh
#   matrices             every matrix's name, sorted, one a line
#   matrix_file NAME     its file; exit 2 naming the matrices when there is none
# Also run as a command: scripts/studies.sh --matrix NAME, --matrices.

matrices() {
	for _sm_f in bench/*.matrix studies/*/*.matrix; do
		[ -f "$_sm_f" ] || continue
		_sm_f=${_sm_f##*/}
		echo "${_sm_f%.matrix}"
	done | sort
}

matrix_file() {
	case $1 in
	'' | *[!a-z0-9_-]* | [!a-z0-9]*)
		echo "no matrix '$1' (a matrix's name is [a-z0-9][a-z0-9_-]*; matrices: $(matrices | tr '\n' ' '))" >&2
		return 2 ;;
	esac
	_sm_hits=$(for _sm_f in "bench/$1.matrix" studies/*/"$1.matrix"; do [ ! -f "$_sm_f" ] || echo "$_sm_f"; done)
	case $_sm_hits in
	'') echo "no matrix '$1' (bench/*.matrix, studies/*/*.matrix; matrices: $(matrices | tr '\n' ' '))" >&2; return 2 ;;
	*"
"*) echo "matrix '$1' is more than one file ($(echo "$_sm_hits" | tr '\n' ' ')): a matrix's name is one file" >&2; return 2 ;;
	esac
	echo "$_sm_hits"
}

case $0 in *studies.sh)
	set -eu
	case ${1:-} in
	--matrices) [ $# -eq 1 ] && matrices ;;
	--matrix) [ $# -eq 2 ] && matrix_file "$2" ;;
	*) echo "usage: scripts/studies.sh --matrix NAME | --matrices" >&2; exit 2 ;;
	esac ;;
esac
