#!/bin/sh
# shellcheck shell=sh
# The studies (studies/<name>/, one folder a study: the list of folders is
# the list of studies, studies/README.md) and the matrices, by name:
# bench/<m>.matrix (a matrix of no study: full, nocounter) or
# studies/<study>/<m>.matrix (a study's own). A name is one file: two of
# one name are an error. Run from the checkout's root, with
# scripts/table.sh sourced (a study file is a fact table: field value).
#   . scripts/table.sh; . scripts/studies.sh
#   studies              every study's name, in the order their study
#                        files give; exit 2 naming a folder without one
#   study_get NAME FIELD one field of its study file ('' for '-'); exit 2,
#                        naming the studies, for a NAME that is none
#   matrices             every matrix's name, sorted, one a line
#   matrix_file NAME     its file; exit 2 naming the matrices when there is none
# Also run as a command: scripts/studies.sh --list, --matrix NAME,
# --matrices, NAME FIELD.

# Each function that walks the folders turns pathname expansion on for
# itself, in a subshell: a caller may have turned it off (scripts/deps.sh
# runs under set -f, so that a matrix's value is never a glob).
studies() {
	_sm_list=$(set +f; for _sm_d in studies/*/; do
		[ -d "$_sm_d" ] || continue
		_sm_d=${_sm_d%/}
		[ -f "$_sm_d/study" ] && [ ! -L "$_sm_d/study" ] && [ ! -L "$_sm_d" ] || {
			echo "$_sm_d holds no study file (a study's folder: studies/README.md)" >&2; exit 2; }
		case ${_sm_d#studies/} in *[!a-z0-9_-]* | [!a-z0-9]*)
			echo "$_sm_d: a study's name is [a-z0-9][a-z0-9_-]*" >&2; exit 2 ;; esac
		_sm_o=$(table_get "$_sm_d/study" order value) || exit 2
		case $_sm_o in '' | *[!0-9]*) echo "$_sm_d/study: order '$_sm_o' is not a whole number" >&2; exit 2 ;; esac
		echo "$_sm_o ${_sm_d#studies/}"
	done) || return 2
	[ -z "$_sm_list" ] || printf '%s\n' "$_sm_list" | sort -k1,1n -k2 | cut -d' ' -f2
}

study_get() {
	case $1 in '' | *[!a-z0-9_-]* | [!a-z0-9]*) _sm_ok=1 ;; *) _sm_ok=0 ;; esac
	if [ $_sm_ok = 1 ] || [ ! -f "studies/$1/study" ]; then
		echo "no study '$1' (the folders of studies/: $(studies | tr '\n' ' '))" >&2
		return 2
	fi
	table_get "studies/$1/study" "$2" value
}

matrices() (
	set +f
	for _sm_f in bench/*.matrix studies/*/*.matrix; do
		[ -f "$_sm_f" ] || continue
		_sm_f=${_sm_f##*/}
		echo "${_sm_f%.matrix}"
	done | sort
)

matrix_file() {
	case $1 in
	'' | *[!a-z0-9_-]* | [!a-z0-9]*)
		echo "no matrix '$1' (a matrix's name is [a-z0-9][a-z0-9_-]*; matrices: $(matrices | tr '\n' ' '))" >&2
		return 2 ;;
	esac
	_sm_hits=$(set +f; for _sm_f in "bench/$1.matrix" studies/*/"$1.matrix"; do [ ! -f "$_sm_f" ] || echo "$_sm_f"; done)
	case $_sm_hits in
	'') echo "no matrix '$1' (bench/*.matrix, studies/*/*.matrix; matrices: $(matrices | tr '\n' ' '))" >&2; return 2 ;;
	*"
"*) echo "matrix '$1' is more than one file ($(echo "$_sm_hits" | tr '\n' ' ')): a matrix's name is one file" >&2; return 2 ;;
	esac
	echo "$_sm_hits"
}

case $0 in *studies.sh)
	set -eu
	# shellcheck source=scripts/table.sh
	. scripts/table.sh
	case ${1:-} in
	--list) [ $# -eq 1 ] && studies ;;
	--matrices) [ $# -eq 1 ] && matrices ;;
	--matrix) [ $# -eq 2 ] && matrix_file "$2" ;;
	-*) echo "usage: scripts/studies.sh --list | --matrix NAME | --matrices | NAME FIELD" >&2; exit 2 ;;
	*) [ $# -eq 2 ] && study_get "$1" "$2" ;;
	esac ;;
esac
