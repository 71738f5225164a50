#!/usr/bin/env bash
# test: the test tiers: every script found by glob, labelled, saying what it checked
# Every script of tests/fast, slow, boot has a "# test: " label at its
# head; run_tier (tests/lib/lib.sh) runs a scratch tier's scripts by glob:
# a script that prints no PASS:/SKIP: line, or has no label, is a FAIL;
# "# needs: kernels" is not run without them; "# runs: beside" runs too.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "tiers"
root=$PWD

unlabelled=
for f in tests/fast/*.sh tests/slow/*.sh tests/boot/*.sh; do
	sed -n '2,6p' "$f" | grep -q '^# test: .' || unlabelled+=" $f"
done
verdict "$([ -z "$unlabelled" ]; echo $?)" "every tier script has a '# test: ' label at its head" "none:$unlabelled"
strays=$(find tests -maxdepth 1 -type f \( -name '*.sh' -o -name '*.py' \) ! -name unit.sh ! -name run.sh ! -name mutation.sh)
verdict "$([ -z "$strays" ]; echo $?)" "no test script outside a tier folder (the drivers aside)" "$(brief "$strays")"

# A scratch tier: found by glob, each script under its label.
mkdir -p "$tmp/t/tests/x" "$tmp/t/out"
mk() { printf '#!/usr/bin/env bash\n%s\n' "$2" >"$tmp/t/tests/x/$1.sh"; chmod +x "$tmp/t/tests/x/$1.sh"; }
mk good $'# test: a good one\necho "PASS: good: checked"'
mk quiet $'# test: a quiet one\necho "nothing said"'
mk nolabel $'# nothing here\necho "PASS: nolabel: checked"'
mk needy $'# test: a needy one\n# needs: kernels\necho "PASS: needy: ran"'
mk side $'# test: one beside\n# runs: beside\necho "PASS: side: ran"'
got=$(cd "$tmp/t" && out=$tmp/t/out log=$tmp/t/out/log kernels_ok=0 bash -c '
	. "$1/tests/lib/lib.sh"; : >"$log"; run_tier x; cat "$log"' _ "$root" 2>&1)
has() { grep -qF -- "$1" <<<"$got"; }
verdict "$(has 'PASS: good: checked'; echo $?)" "a labelled script is run by glob" "$(brief "$got")"
verdict "$(has 'FAIL: a quiet one: printed no PASS: or SKIP: line'; echo $?)" "a script that says nothing it checked is a FAIL" "$(brief "$got")"
verdict "$(has "tests/x/nolabel.sh: no '# test: LABEL' line"; echo $?)" "a script without a label is a FAIL, not skipped" "$(brief "$got")"
verdict "$( (has 'FAIL: a needy one: not run' && ! has 'PASS: needy'); echo $?)" "a '# needs: kernels' script is not run without them" "$(brief "$got")"
verdict "$(has 'PASS: side: ran'; echo $?)" "a '# runs: beside' script runs in the background" "$(brief "$got")"
