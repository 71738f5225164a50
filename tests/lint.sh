#!/usr/bin/env bash
# make lint: clang-format (kernel style, check mode), cppcheck, and the
# kernel's own checkpatch.pl --strict on every patch. PASS:/FAIL: lines.
set -uo pipefail
cd "$(dirname "$0")/.."
cache=$(scripts/cache-dir.sh)
status=0
say() { echo "$*"; case $1 in FAIL:) status=1 ;; esac; }

csrc=$(git ls-files '*.c' '*.h' 2>/dev/null || find guest-image bench tests -name '*.[ch]')
if out=$(clang-format --dry-run --Werror $csrc 2>&1); then
	say PASS: "lint: clang-format (kernel .clang-format)"
else
	say FAIL: "lint: clang-format: $(echo "$out" | grep -m3 'error' | tr '\n' ' ') (fix: clang-format -i FILE)"
fi

if out=$(cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,portability,performance \
	--inline-suppr -D__x86_64__ -D__GNUC__ $csrc 2>&1); then
	say PASS: "lint: cppcheck"
else
	say FAIL: "lint: cppcheck: $(echo "$out" | head -5 | tr '\n' ' ')"
fi

# checkpatch needs the tree (scripts/checkpatch.pl and its spelling lists).
if ! kernel/build.sh --check "$(scripts/variants.sh)" >/dev/null 2>&1; then
	say FAIL: "lint: kernel/build.sh --check failed, cannot run checkpatch"
	exit 1
fi
tree=$(ls -d "$cache"/src/linux-*[0-9] 2>/dev/null | grep -v '\.orig$' | head -n 1)
for p in kernel/patches/*.patch; do
	if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --no-tree --quiet "$OLDPWD/$p" 2>&1); then
		say PASS: "lint: checkpatch --strict $(basename "$p")"
	else
		say FAIL: "lint: checkpatch --strict $(basename "$p"): $(echo "$out" | head -3 | tr '\n' ' ')"
	fi
done
exit $status
