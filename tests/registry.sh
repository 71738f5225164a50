#!/usr/bin/env bash
# bench/report-runs is the registry of report blocks: every list of them
# elsewhere must name exactly its report kinds. The Makefile's RUN_VARS,
# plots/report.sh's options and report_tables.py's options are derived
# from it; report_tables.py's BUILDERS and REPORT.md's tables:KIND blocks
# are written by hand: a kind added to the registry without its builder or
# its block, or a builder left without a row, fails here, naming both.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
t_begin "registry"
# shellcheck source=scripts/table.sh
. scripts/table.sh
kinds=$(awk '!/^#/ && NF { if (h++) print $4 }' bench/report-runs | grep -vx -- 'main\|-' | sort -u)
[ -n "$kinds" ] || { bad "bench/report-runs names no report kind"; exit 0; }
# the committed-runs blocks, not runs of a matrix: report_tables.py and report.sh's own
extra='answer runs quoted'
check() { # check WHAT LIST: LIST (words) against the registry's kinds
	local what=$1 got want
	got=$(tr ' ' '\n' <<<"$2" | grep -v '^$' | sort -u)
	want=$kinds
	if [ "$got" = "$want" ]; then
		ok "$what names exactly bench/report-runs' report kinds ($(echo $kinds))"
	else
		bad "$what disagrees with bench/report-runs: only there: $(comm -23 <(echo "$want") <(echo "$got") | tr '\n' ' ')only in $what: $(comm -13 <(echo "$want") <(echo "$got") | tr '\n' ' ')"
	fi
}
runvars=$(make -s --no-print-directory --eval 'registry-show: ; @echo $(RUN_VARS)' registry-show 2>&1)
check "the Makefile's RUN_VARS (make report's KINDRUN variables)" "$(for v in $runvars; do [ "$v" = RUN ] || echo "${v%RUN}" | tr 'A-Z' 'a-z'; done)"
usage=$(plots/report.sh 2>&1)
check "plots/report.sh's options" "$(grep -o -- '--[a-z0-9]* DIR' <<<"$usage" | sed 's/^--//; s/ DIR$//')"
pyopts=$(python3 plots/report_tables.py --help 2>&1 | grep -o -- '--[a-z0-9]* [A-Z0-9]*' | sed 's/^--//; s/ .*//' | sort -u)
check "plots/report_tables.py's options" "$(grep -vx -- "$(printf '%s\n' $extra help)" <<<"$pyopts")"
builders=$(cd plots && python3 -c 'import report_tables; print("\n".join(report_tables.BUILDERS))' 2>&1)
check "plots/report_tables.py's BUILDERS (a builder with no row is dead code)" "$builders"
check "REPORT.md's tables:KIND blocks" "$(grep -o '<!-- tables:[a-z0-9]*:begin -->' REPORT.md | sed 's/<!-- tables://; s/:begin -->//' | grep -vx -- "main$(printf '\n%s' $extra)")"
# scripts/regen-report.sh gives plots/report.sh every committed run that
# has a report kind, each as its kind's option (--list: the arguments it
# calls plots/report.sh with). What is expected comes from
# bench/report-runs and studies/*/run/raw.csv, not from the script's own
# lines: a script that skipped every run would agree with itself.
list=$(scripts/regen-report.sh --list 2>&1)
given=$(sed -n 's/^report //p' <<<"$list")
missing='' n=0 first=-
for name in $(table_keys bench/report-runs); do
	kind=$(table_get bench/report-runs "$name" report)
	d=studies/$name/run
	if [ -z "$kind" ] || [ ! -f "$d/raw.csv" ]; then continue; fi
	n=$((n + 1))
	if [ "$kind" = main ]; then first=$d; else
		[[ " $given " == *" --$kind $d "* ]] || missing+="$kind:$d "
	fi
done
[[ $given == "$first "* ]] || missing+="main:$first (first) "
if [ "$n" -eq 0 ]; then
	bad "no committed run under studies/ has a report kind in bench/report-runs: nothing to check"
elif [ -z "$missing" ]; then
	ok "scripts/regen-report.sh gives plots/report.sh each committed run with a report kind, as its option ($n runs)"
else
	bad "scripts/regen-report.sh --list: plots/report.sh would not be given $missing: $(tail -n 1 <<<"$list")"
fi
