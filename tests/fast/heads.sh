#!/usr/bin/env bash
# test: write less: DESIGN.md, README.md and data-file heads
# The write-less limits of issue 49: DESIGN.md at most 350 lines, README.md
# at most 250, and every data file's head (the comment and blank lines
# before its first data line) at most 5 lines. The data files: kernel/'s
# fact tables (every file there but the scripts), bench/*.matrix, each
# study's matrix and study file, plots/quoted, plots/cover-quoted and
# tests/mutants. Detail goes to docs/ or a study's NOTES.md.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "heads"

for lim in DESIGN.md:350 README.md:250; do
	f=${lim%:*} max=${lim#*:}
	n=$(wc -l <"$f")
	[ "$n" -le "$max" ] && ok "$f is $n lines (at most $max)" ||
		bad "$f is $n lines, over $max: move detail to docs/ or the study that needs it"
done

files=()
for f in kernel/* bench/*.matrix studies/*/*.matrix studies/*/study plots/quoted plots/cover-quoted tests/mutants; do
	[ -f "$f" ] && [ "${f%.sh}" = "$f" ] && files+=("$f")
done
long=$(awk 'FNR == 1 { done = 0 }
	done { next }
	/^#/ || !NF { if (++n[FILENAME] == 6) print FILENAME; next }
	{ done = 1 }' "${files[@]}")
[ ${#files[@]} -ge 20 ] && [ -z "$long" ] &&
	ok "${#files[@]} data files open with at most 5 lines of comment before their data" ||
	bad "data-file heads over 5 lines (${#files[@]} files): ${long//$'\n'/ }"
