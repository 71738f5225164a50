#!/usr/bin/env bash
# test: lint: clang-format, cppcheck, checkpatch --strict of every patch
# make lint: clang-format (kernel style, check mode), cppcheck, and the
# kernel's own checkpatch.pl --strict on every patch, each base's series
# by that base's checkpatch, run from within its tree. PASS:/FAIL: lines.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "lint"
status=0
# bad is t_begin's, and marks the exit status
bad() { echo "FAIL: lint: $*"; status=1; }

csrc=$(git ls-files '*.c' '*.h' 2>/dev/null || find guest-image bench tests -name '*.[ch]')
if out=$(clang-format --dry-run --Werror $csrc 2>&1); then
	ok "clang-format (kernel .clang-format)"
else
	bad "clang-format: $(echo "$out" | grep -m3 'error' | tr '\n' ' ') (fix: clang-format -i FILE)"
fi

if out=$(cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,portability,performance \
	--inline-suppr -D__x86_64__ -D__GNUC__ $csrc 2>&1); then
	ok "cppcheck"
else
	bad "cppcheck: $(echo "$out" | head -5 | tr '\n' ' ')"
fi

# checkpatch needs the tree (scripts/checkpatch.pl and its spelling lists):
# build.sh --tree checks that the base's variants' series apply (a variant
# of one base only, below a line [BASE] of kernel/variants, on that base
# alone: scripts/variants.sh) and names its tree.
# The Debian source trees have no git history, so checkpatch calls every
# upstream commit a message cites unknown (UNKNOWN_COMMIT_ID): that one
# check is left out; the cited commits' form is still checked.
# shellcheck source=scripts/table.sh
. scripts/table.sh
err=$tmp/err
for b in $(table_keys kernel/bases); do
	if ! tree=$(KERNEL_BASE=$b kernel/build.sh --tree "$(KERNEL_BASE=$b scripts/variants.sh)" 2>"$err"); then
		hint=
		! grep -q "kernel/variants names patch" "$err" ||
			hint=" (a variant whose patches only some bases' series hold goes below a line [BASE] of kernel/variants: see its head)"
		bad "base $b: kernel/build.sh --tree failed, cannot run its checkpatch: $(tail -n 2 "$err" | tr '\n' ' ')$hint"
		continue
	fi
	dir=$(table_get kernel/bases "$b" patches)
	n=0
	for p in "$dir"/*.patch; do
		[ -e "$p" ] || continue
		n=$((n + 1))
		if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --quiet --ignore UNKNOWN_COMMIT_ID "$OLDPWD/$p" 2>&1); then
			ok "checkpatch --strict of $b: $p"
		else
			bad "checkpatch --strict of $b: $p: $(echo "$out" | head -3 | tr '\n' ' ')"
		fi
	done
	[ "$n" -gt 0 ] || bad "base $b: no patches in $dir"
done
exit $status
