#!/usr/bin/env bash
# test: make report RUN=... writes the run's report beside the run
# make report RUN=DIR (issue 47): DIR/report.md, the run's main tables and
# its charts, drawn into DIR/plots/ when it has none, each linked from
# the report; REPORT.md, the study pages and plots/figures/ are the
# committed runs' (make report FROM=committed) and stay as they are.
# Runs in a copy of the tree (the old make report rewrote REPORT.md).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "run report"
root=$PWD
co=$tmp/co
tree_copy "$co" && runner_copy "$co" || { bad "cannot copy the tree"; exit 0; }
r="$tmp/my run"
cp -r tests/fixtures/run "$r"
rm -rf "$r/plots"
out=$(env -u CRNGBENCH_RUNNER make -s -C "$co" report RUN="$r" 2>&1)
rc=$?
same=
while IFS= read -r f; do cmp -s "$f" "$co/$f" || same+="$f "; done < <(git ls-files REPORT.md 'studies/*.md' plots/figures)
extra=$(cd "$co" && find plots/figures -type f | sort | comm -23 - <(git -C "$root" ls-files plots/figures | sort))
[ $rc -eq 0 ] && [ -z "$same" ] && [ -z "$extra" ]
verdict $? "make report RUN=... leaves REPORT.md, the study pages and plots/figures/ as they were" \
	"rc $rc, changed: $same $extra: $(brief "$out")"
charts=$(cd "$r/plots" 2>/dev/null && ls -- *.png 2>/dev/null | sed 's/\.png$//')
links=$(grep -o '^!\[[^]]*\](plots/[^)]*\.png)$' "$r/report.md" 2>/dev/null | sed 's/.*(plots\/\(.*\)\.png)/\1/' | sort)
[ -f "$r/report.md" ] && [ -n "$charts" ] && [ "$links" = "$(sort <<<"$charts")" ] &&
	grep -qF '### Chart 1: first blocking /dev/urandom read returned' "$r/report.md" &&
	grep -qF "matrix \`quick\`" "$r/report.md"
verdict $? "it writes RUN/report.md: the run's tables, and a link to each chart drawn beside it in RUN/plots/" \
	"charts: $(tr '\n' ' ' <<<"$charts"), linked: $(tr '\n' ' ' <<<"$links")"
