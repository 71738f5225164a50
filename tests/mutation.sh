#!/usr/bin/env bash
# The mutation check: small, realistic breakages of the runner, the
# classification, the statistics, the probe's record writer and the chart
# and report scripts (tests/mutants, one a line). Each is applied to a copy
# of the tree and must make the fast tier fail: the mutant's checks (parts
# of make unit, cheapest first) run until one fails. A mutant that
# survives every check is a FAIL: the tests would pass on broken code.
#   tests/mutation.sh [ID...]     (default: every mutant)
# One PASS/FAIL line per mutant; prints what it cost at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
list=tests/mutants
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)

# A copy of the tree as git has it (tracked files, as changed in the work
# tree), so nothing here touches the checkout or its build/.
git ls-files -z --cached --others --exclude-standard | cpio -0pdm --quiet "$tmp/tree" 2>/dev/null ||
	{ echo "FAIL: mutation: cannot copy the tree"; exit 0; }
cd "$tmp/tree" || exit 0
# a repository of its own: some checks clone the tree as a user would
git init -q && git add -A && git -c user.name=mutation -c user.email=mutation@localhost commit -qm copy ||
	{ echo "FAIL: mutation: cannot make the copy a repository"; exit 0; }
if ! make -s -j"$(nproc)" CFLAGS='-O0 -g' unit-bins >"$tmp/base.log" 2>&1; then
	echo "FAIL: mutation: the unmutated copy does not build: $(tail -n 3 "$tmp/base.log" | tr '\n' ' ')"
	exit 0
fi

# check NAME: run one check; 0 = it passed (the mutant survived it).
#   unit:NAME     build/unit/test_NAME (plain), rebuilt
#   script:SCRIPT tests/SCRIPT.sh (the runner rebuilt first, as for all)
check() {
	local kind=${1%%:*} what=${1#*:} out=$tmp/check.txt
	# the runner as the tree now is (a restored file is rebuilt too)
	make -s CFLAGS='-O0 -g' runner >"$out" 2>&1 || return 1
	case $kind in
	unit)
		make -s CFLAGS='-O0 -g' "build/unit/test_$what-plain" >"$out" 2>&1 || return 1
		"build/unit/test_$what-plain" >"$out" 2>&1 ;;
	script)
		"tests/$what.sh" >"$out" 2>&1 && ! grep -q '^FAIL: ' "$out" ;;
	*) echo "FAIL: mutation: $list: unknown check '$1'"; return 0 ;;
	esac
}

# Every check a mutant names must pass on the unmutated tree, or a mutant
# it "kills" proves nothing.
declare -A base_ok
while IFS=$'\x1f' read -r id file expr checks; do
	for c in $checks; do
		[ -n "${base_ok[$c]:-}" ] && continue
		if check "$c"; then base_ok[$c]=1; else
			base_ok[$c]=0
			echo "FAIL: mutation: check $c fails on the unmutated tree: $( (grep -m2 '^FAIL' "$tmp/check.txt" || tail -n 3 "$tmp/check.txt") | tr '\n' ' ')"
		fi
	done
done < <(sed -e '/^#/d' -e '/^[[:space:]]*$/d' -e 's/[[:space:]]*@@[[:space:]]*/\x1f/g' "$root/$list")

n=0
while IFS=$'\x1f' read -r id file expr checks; do
	[ $# -eq 0 ] || printf '%s\n' "$@" | grep -qx -- "$id" || continue
	n=$((n + 1))
	cp -p "$file" "$tmp/orig"
	sed -i -e "$expr" "$file"
	if cmp -s "$file" "$tmp/orig"; then
		echo "FAIL: mutation: $id: '$expr' changes nothing in $file (the code moved: update tests/mutants)"
		continue
	fi
	killer=
	for c in $checks; do
		[ "${base_ok[$c]}" = 1 ] || continue
		if ! check "$c"; then killer=$c; break; fi
	done
	cp -p "$tmp/orig" "$file"
	touch "$file" # the next build sees the original again
	if [ -n "$killer" ]; then
		echo "PASS: mutation: $id ($file) is caught by $killer"
	else
		echo "FAIL: mutation: $id ($file: $expr) survives: $checks all pass on broken code"
	fi
done < <(sed -e '/^#/d' -e '/^[[:space:]]*$/d' -e 's/[[:space:]]*@@[[:space:]]*/\x1f/g' "$root/$list")
echo "# mutation: $n mutants in $(($(date +%s) - t0)) s"
