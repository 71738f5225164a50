#!/usr/bin/env bash
# test: your own patch, booted and mailed: make bench, then make post
# needs: kernels
# Issue 47's done-when, with real boots (tests/fast/own_patch.sh makes the
# same steps on a fixture run). In a scratch copy of the checkout (a git
# repository of its own), as docs/own-patch.md says:
# - a one-line random.c patch that is not in the repository: the jitter
#   timer armed at jiffies + 1 in try_to_generate_entropy() (its bucket
#   is then a tick later: the jitter loop credits a bit every other
#   tick), made with git on stock's random.c (base 6.1's pristine file
#   under stock's patches) and written by git format-patch, goes into
#   6.1's series alone, its variant below a line [6.1] of kernel/variants;
# - make lint fails on 6.12 while the variant is of every base, naming
#   what to do, and passes once it is 6.1's, checking the patch;
# - make bench VARIANTS=stock,mine ACCELS=icount CPUS=qemu64 REPS=2 (the
#   quick matrix's icount cells of qemu64: 8 boots) builds mine (an
#   incremental build in the warm cache) and boots both;
# - make post RUN=results/latest without a git identity refuses and
#   writes nothing; with one (GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL) it
#   writes the series: exactly that patch as [PATCH 1/1] from that
#   identity under a cover letter quoting the run's figures of mine
#   against stock, no attachment (tests/lib/runmail_check.py);
# - git status shows no tracked file changed by make post.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "own patch boots"
unset MAKEFLAGS MAKELEVEL MFLAGS GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL \
	GIT_DIR GIT_WORK_TREE KERNEL_BASE KERNEL_ARCH MATRIX VARIANTS CPUS ACCELS REPS SETS RUNFLAGS
# the machine's kernel cache (its warm build directory); no git identity
# of the machine's
CRNGBENCH_CACHE=$(scripts/cache-dir.sh) || exit 1
export CRNGBENCH_CACHE GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$tmp/gitconfig
: >"$GIT_CONFIG_GLOBAL"
co=$tmp/co
g() { git -C "$co" -c user.name=standin -c user.email=standin@checkout.test "$@"; }
if ! { tree_copy "$co" && runner_copy "$co" && g init -q && g add -A && g commit -qm "the checkout"; }; then
	bad "cannot copy the checkout into a git repository of its own"
	exit 0
fi

# --- the patch: git format-patch of one line of stock's random.c ---------------
if ! tree=$(KERNEL_BASE=6.1 kernel/build.sh --tree stock 2>"$tmp/err" | tail -n 1) || [ ! -d "$tree.orig" ]; then
	bad "base 6.1's tree: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
	exit 0
fi
stock=$(awk '$1 == "stock" { $1 = ""; print }' kernel/variants)
u=$tmp/user
mkdir -p "$u/drivers/char" && cp "$tree.orig/drivers/char/random.c" "$u/drivers/char/"
for n in $stock; do patch -s -p1 -d "$u" <kernel/patches/"$n"-*.patch || { bad "stock's patch $n does not apply"; exit 0; }; done
# the same bytes every time: the same kernel key, a build once per machine
export GIT_AUTHOR_DATE="2026-01-01 12:00:00 +0000" GIT_COMMITTER_DATE="2026-01-01 12:00:00 +0000"
ug() { git -C "$u" -c user.name="Grace Hopper" -c user.email=grace@navy.test "$@"; }
if ! { ug init -q && ug add -A && ug commit -qm "stock's random.c" &&
	sed -i 's/^\t\t\tmod_timer(&stack.timer, jiffies);$/\t\t\tmod_timer(\&stack.timer, jiffies + 1);/' "$u/drivers/char/random.c" &&
	[ "$(ug diff --numstat)" = "1	1	drivers/char/random.c" ] &&
	ug commit -qa -s -m "random: arm the jitter timer a tick later" -m "Arm the jitter entropy timer of try_to_generate_entropy() to expire at
jiffies + 1 instead of jiffies. The timer wheel rounds an expiry up to
the next bucket, so the timer now fires every other tick, and the
jitter loop credits its bits at half the rate: a patch whose cost shows
in the time to CRNG ready." && ug format-patch -q -o "$tmp/fp" -1; }; then
	bad "the patch could not be made on stock's random.c (one line changed: mod_timer(&stack.timer, jiffies))"
	exit 0
fi
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE
patch=kernel/patches/0010-random-arm-the-jitter-timer-a-tick-later.patch
cp "$tmp"/fp/0001-*.patch "$co/$patch"

# --- make lint: of every base, then of 6.1 alone -------------------------------
echo "mine       $stock 0010" >>"$co/kernel/variants"
out=$(make -s -C "$co" lint 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "^FAIL: lint: base 6.12: .*kernel/variants names patch 0010, .*below a line \[BASE\] of kernel/variants" <<<"$out"
verdict $? "make lint fails on 6.12 while mine is of every base, saying where a one-base variant goes" "rc $rc: $(grep -m1 FAIL <<<"$out")"
sed -i '$d' "$co/kernel/variants"
printf '[6.1]\nmine       %s 0010\n' "$stock" >>"$co/kernel/variants"
out=$(make -s -C "$co" lint 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^PASS: lint: checkpatch --strict of 6.1: $patch$" <<<"$out" && ! grep -q "^FAIL" <<<"$out"
verdict $? "make lint passes with mine below [6.1], its patch checked by 6.1's checkpatch" "rc $rc: $(grep -m2 FAIL <<<"$out" | tr '\n' ' ')"
g add -A && g commit -qm "mine: my patch, as a variant of 6.1"

# --- make bench: the quick matrix's icount cells of qemu64 ------------------------
if ! make -C "$co" bench VARIANTS=stock,mine ACCELS=icount CPUS=qemu64 REPS=2 >"$tmp/bench.log" 2>&1; then
	bad "make bench VARIANTS=stock,mine failed: $(tail -n 5 "$tmp/bench.log" | tr '\n' ' ')"
	exit 0
fi
run=$(readlink -f "$co/results/latest")
got=$(python3 -c 'import csv, sys; print(*sorted({r["variant"] + ":" + r["status"] for r in csv.DictReader(open(sys.argv[1]))}))' \
	"$run/raw.csv" 2>&1)
grep -q "^\[kernel\] mine-hz250: \(built in .*\|up to date \)(6\.1\.[0-9]*-crngbench-mine)$" "$tmp/bench.log" &&
	[ "$got" = "mine:ok stock:ok" ]
verdict $? "make bench built mine on 6.1 and booted stock and mine, every boot ok" \
	"$(grep "mine-hz250" "$tmp/bench.log" | tail -n 1); variant:status $got"

# --- make post: refused without an identity, then the mail -----------------------
state() { git -C "$co" status --porcelain --untracked-files=all; }
before=$(state)
out=$(make -s -C "$co" post RUN=results/latest 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "git config --global user.email" <<<"$out" && [ ! -e "$run/series" ] && [ "$(state)" = "$before" ]
verdict $? "without a git identity make post refuses and writes nothing" "rc $rc: $(brief "$out")"
out=$(GIT_AUTHOR_NAME="Grace Hopper" GIT_AUTHOR_EMAIL=grace@navy.test make -s -C "$co" post RUN=results/latest 2>&1)
verdict $? "make post RUN=results/latest with a git identity writes the mail" "$(brief "$out")"
python3 tests/lib/runmail_check.py "own patch boots" "$run/series" "$co/$patch" "$run" "$co" "Grace Hopper <grace@navy.test>"
grep -qxF $'+\t\t\tmod_timer(&stack.timer, jiffies + 1);' "$run"/series/0001-*.patch
verdict $? "the mailed patch is the one-line change" "$(grep -h "mod_timer" "$run"/series/0001-*.patch | tr '\n' ' ')"
[ "$(state)" = "$before" ] && [ -z "$before" ]
verdict $? "git status: make post changed no tracked file and added none" "$(state | head -n 5 | tr '\n' ' ')"
