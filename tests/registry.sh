#!/usr/bin/env bash
# bench/report-runs is the registry of report blocks: every list of them
# elsewhere (the Makefile's RUN_VARS and make report's options, plots/report.sh's
# options, scripts/regen-report.sh's accepted reports, report_tables.py's
# options) must name exactly its report kinds, so a kind added to one and
# not the others fails here, naming both. (Issue 38 item 1 asks for one
# registry they all derive from; until then this check keeps them alike.)
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/table.sh
. scripts/table.sh
say() { echo "$1: registry: $2"; }
kinds=$(awk '!/^#/ && NF { if (h++) print $4 }' bench/report-runs | grep -vx -- 'main\|-' | sort -u)
[ -n "$kinds" ] || { say FAIL "bench/report-runs names no report kind"; exit 0; }
# the committed-runs blocks, not runs of a matrix: report_tables.py and report.sh's own
extra='answer runs quoted'
check() { # check WHAT LIST: LIST (words) against the registry's kinds
	local what=$1 got want
	got=$(tr ' ' '\n' <<<"$2" | grep -v '^$' | sort -u)
	want=$kinds
	if [ "$got" = "$want" ]; then
		say PASS "$what names exactly bench/report-runs' report kinds ($(echo $kinds))"
	else
		say FAIL "$what disagrees with bench/report-runs: only there: $(comm -23 <(echo "$want") <(echo "$got") | tr '\n' ' ')only in $what: $(comm -13 <(echo "$want") <(echo "$got") | tr '\n' ' ')"
	fi
}
runvars=$(sed -n 's/^RUN_VARS := //p' Makefile)
check "Makefile RUN_VARS" "$(for v in $runvars; do [ "$v" = RUN ] || echo "${v%RUN}" | tr 'A-Z' 'a-z'; done)"
check "make report's options (qopt)" "$(grep -o 'qopt,[a-z]*,[A-Z]*RUN' Makefile | awk -F, '{ if (tolower($2) "run" != tolower($3)) print "MISMATCH-" $2; else print $2 }')"
opts=$(sed -n 's/^\t\(--hz | .*\))$/\1/p' plots/report.sh | tr -d '|' | tr -s ' ' '\n' | sed 's/^--//')
check "plots/report.sh's options" "$(grep -vx -- "$(tr ' ' '\n' <<<"$extra")" <<<"$opts")"
acc=$(sed -n "s/.*report '\$rep' is none of \(.*\), '-'.*/\1/p" scripts/regen-report.sh | tr -d ',')
check "scripts/regen-report.sh's accepted reports" "$(tr ' ' '\n' <<<"$acc" | grep -vx main)"
pyopts=$(grep -o 'add_argument("--[a-z]*"' plots/report_tables.py | sed 's/.*"--//; s/"//')
check "plots/report_tables.py's options" "$(grep -vx -- "$(tr ' ' '\n' <<<"$extra")" <<<"$pyopts")"
