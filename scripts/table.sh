#!/bin/sh
# shellcheck shell=sh
# The one shell reader of crngbench's fact tables (kernel/arches,
# kernel/bases): whitespace-separated columns, '#' comments, the first
# other line names the columns, '-' is an empty value. Columns are read by
# name, never by position, so a column added to a table breaks no reader.
#   . scripts/table.sh
#   table_keys FILE             the first column of every row
#   table_row FILE KEY          the row as written
#   table_get FILE KEY COLUMN   one value ('' for '-'); exit 2 when the row or
#                               the column does not exist, with a message
# Also run as a command: scripts/table.sh FILE KEY COLUMN, scripts/table.sh --keys FILE.

table_keys() {
	awk '!/^#/ && NF { if (seen++) print $1 }' "$1"
}

# table_row FILE KEY: the row as written (kernel/build.sh keys a kernel by it)
table_row() {
	awk -v key="$2" '!/^#/ && NF { if (seen++ && $1 == key) { print; exit } }' "$1"
}

table_get() {
	_tg_rc=0
	_tg_out=$(awk -v key="$2" -v col="$3" '
		/^#/ || !NF { next }
		!head { for (i = 1; i <= NF; i++) idx[$i] = i; head = 1
			if (!(col in idx)) { bad = "column"; exit } ; next }
		$1 == key { v = $idx[col]; found = 1; exit }
		END { if (bad) exit 3; if (!found) exit 4; print (v == "-" ? "" : v) }' "$1") || _tg_rc=$?
	case $_tg_rc in
	0) printf '%s\n' "$_tg_out" ;;
	3) echo "$1 has no column '$3' (its columns: $(awk '!/^#/ && NF {print; exit}' "$1"))" >&2; return 2 ;;
	4) echo "$1 has no row '$2' (its rows: $(table_keys "$1" | tr '\n' ' '))" >&2; return 2 ;;
	*) echo "cannot read $1" >&2; return 2 ;;
	esac
}

# POSIX sh: the Makefile's recipes source it too.
case $0 in *table.sh)
	set -eu
	case ${1:-} in
	--keys) [ $# -eq 2 ] && table_keys "$2" ;;
	*) [ $# -eq 3 ] || { echo "usage: scripts/table.sh FILE KEY COLUMN | --keys FILE" >&2; exit 2; }
	   table_get "$@" ;;
	esac ;;
esac
