#!/usr/bin/env bash
# test: hostile input, round five: links at fixed names, one integer rule, BUILD, paths as one name
# The fifth hostile round (issue 46, "hostile input, round five"). Each
# check below failed on the code before its fix.
#  2  a symbolic link at a fixed temporary name (REPORT.md.tmp,
#     OUTPUT.cpio.tmp, build/.bench-times, the kernel cache's build.lock)
#     or at a directory the tools write into (studies, plots/figures):
#     nothing is written through it, nothing elsewhere is lost; files are
#     written fresh beside their target (scripts/fresh.sh, plots/tool.py's
#     replacing) and renamed over it (make reproduce's
#     studies/reproduce-time.csv: tests/slow/reproduce.sh)
#  9  one integer rule for every reader: the runner's matrix settings,
#     options, run.args and seed refuse '+3' and ' 3' as raw.csv does
#     (the C rule itself: tests/unit/test_record.c, test_matrix.c); the
#     Python readers' run.args shard and meta.json release take ASCII
#     digits ('²' passed str.isdigit() and crashed int())
# 10  a BUILD where the runner cannot find kernel/ is refused before
#     anything is built
# and the audit of the scripts, the Makefile and kernel/build.sh: a path
# reaches each tool as one name (a checkout at a path with a space and
# quotes keys its kernels as any other; a patch naming ../x is refused; a
# BUILD that looks like an option is a name), and a run's text cannot
# change how the lines around it read (time-split.sh) or glob (deps.sh).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "hostile round 5"
root=$PWD
runner=${CRNGBENCH_RUNNER:-$root/build/crngbench-run}
# intact FILE: FILE still holds "precious" (the victim a link points to)
intact() { [ "$(cat "$1" 2>/dev/null)" = precious ]; }
victim() { echo precious >"$1"; }
co=$tmp/co
tree_copy "$co"
mkdir -p "$co/build"
cp "$runner" "$co/build/crngbench-run"

# --- 2: fixed temporary names ------------------------------------------------------
victim "$tmp/v-report"
ln -s "$tmp/v-report" "$co/REPORT.md.tmp"
out=$(cd "$co" && CRNGBENCH_RUNNER=$co/build/crngbench-run python3 plots/report_tables.py studies/quick/run REPORT.md 2>&1)
rc=$?
[ $rc -eq 0 ] && intact "$tmp/v-report" && [ -f "$co/REPORT.md" ] && [ ! -L "$co/REPORT.md" ] &&
	! compgen -G "$co/.REPORT.md.*" >/dev/null &&
	ok "REPORT.md.tmp a link: report_tables.py writes REPORT.md fresh beside it, nothing through the link" ||
	bad "REPORT.md.tmp a link: exit $rc, victim $(intact "$tmp/v-report" && echo intact || echo OVERWRITTEN): $(brief "$out")"

# scripts/fresh.sh, the shell's one way: a link at TARGET.tmp or at TARGET
# itself changes nothing elsewhere; a command that fails leaves TARGET
mkdir -p "$tmp/fw"
victim "$tmp/v-fw"
ln -s "$tmp/v-fw" "$tmp/fw/out.tmp"
ln -s "$tmp/v-fw" "$tmp/fw/out"
out=$(cd "$tmp/fw" && umask 027 && . "$root/scripts/fresh.sh" && write_whole out echo new &&
	! write_whole out sh -c 'echo half; exit 3' && stat -c %a out 2>&1)
[ "$out" = 640 ] && [ "$(cat "$tmp/fw/out")" = new ] && [ ! -L "$tmp/fw/out" ] && intact "$tmp/v-fw" &&
	[ "$(find "$tmp/fw" -name '.out.*' | wc -l)" = 0 ] &&
	ok "scripts/fresh.sh: write_whole replaces a link at the target, writes nothing through out.tmp, keeps the target when the command fails, mode 0666 less the umask" ||
	bad "scripts/fresh.sh write_whole: mode '$out', out '$(cat "$tmp/fw/out" 2>&1)', victim '$(cat "$tmp/v-fw")', left: $(ls -A "$tmp/fw" | tr '\n' ' ')"

# the probe-only guest image, written as OUTPUT.cpio.tmp and renamed
if [ "$(id -u)" = 0 ]; then
	printf '#!/bin/sh\n' >"$tmp/probe" && chmod +x "$tmp/probe"
	victim "$tmp/v-cpio"
	ln -s "$tmp/v-cpio" "$tmp/img.cpio.tmp"
	out=$(guest-image/build-probe-image.sh "$tmp/probe" "$tmp/img.cpio" 2>&1)
	rc=$?
	[ $rc -eq 0 ] && intact "$tmp/v-cpio" && [ -s "$tmp/img.cpio" ] && [ ! -L "$tmp/img.cpio" ] &&
		ok "OUTPUT.cpio.tmp a link: build-probe-image.sh writes the image fresh beside it, nothing through the link" ||
		bad "build-probe-image.sh with OUTPUT.cpio.tmp a link: exit $rc, victim $(intact "$tmp/v-cpio" && echo intact || echo OVERWRITTEN): $(brief "$out")"
else
	echo "SKIP: hostile round 5: the guest image's temporary file: build-probe-image.sh needs root (mknod)"
fi

# make bench's stage times: a fresh file in BUILD (deps.sh stops it here:
# an unknown matrix, before anything is installed)
victim "$tmp/v-bench"
ln -s "$tmp/v-bench" "$co/build/.bench-times"
out=$(make -C "$co" -s bench MATRIX=nosuch CRNGBENCH_CACHE="$tmp/cache" 2>&1)
rc=$?
[ $rc -ne 0 ] && intact "$tmp/v-bench" && grep -q "no matrix 'nosuch'" <<<"$out" &&
	[ "$(find "$co/build" -name '.bench-times.*' | wc -l)" = 0 ] &&
	ok "build/.bench-times a link: make bench writes its stage times into a fresh file, nothing through the link" ||
	bad "make bench with build/.bench-times a link: exit $rc, victim $(intact "$tmp/v-bench" && echo intact || echo TRUNCATED): $(brief "$out")"

# the kernel cache's lock: a link there is refused, never truncated (a
# tarball of another version than the base's: build.sh stops after
# unpacking it)
mkdir -p "$tmp/fake/linux-6.12.1" "$tmp/kcache"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 1\n' >"$tmp/fake/linux-6.12.1/Makefile"
tar -C "$tmp/fake" -cJf "$tmp/fake.tar.xz" linux-6.12.1
victim "$tmp/v-lock"
ln -s "$tmp/v-lock" "$tmp/kcache/build.lock"
out=$(KERNEL_BASE=6.1 KERNEL_TARBALL=$tmp/fake.tar.xz CRNGBENCH_CACHE=$tmp/kcache kernel/build.sh stock 2>&1)
rc=$?
if grep -q "missing build tools\|compiler .* not found" <<<"$out"; then
	echo "SKIP: hostile round 5: kernel/build.sh's lock: the kernel build tools are not installed"
else
	[ $rc -ne 0 ] && intact "$tmp/v-lock" && grep -q "build.lock is a symbolic link: refused" <<<"$out" &&
		ok "the kernel cache's build.lock a link: refused by name, the file it points to untouched" ||
		bad "kernel/build.sh with build.lock a link: exit $rc, victim $(intact "$tmp/v-lock" && echo intact || echo TRUNCATED): $(brief "$out")"
fi

# a directory the tools write into, a link in the checkout: studies
# (keep-run.sh replaces studies/NAME/run whole) and plots/figures
# (plots/report.sh moves the charts there)
mkdir -p "$tmp/outside/quick"
victim "$tmp/outside/quick/precious"
mv "$co/studies" "$tmp/runs-real"
ln -s "$tmp/outside" "$co/studies"
out=$(cd "$co" && scripts/keep-run.sh quick "$tmp/runs-real/quick" 2>&1)
rc=$?
[ $rc -ne 0 ] && intact "$tmp/outside/quick/precious" && grep -q "studies is a symbolic link: refused" <<<"$out" &&
	ok "studies a link: keep-run.sh refuses it before anything is copied or removed" ||
	bad "keep-run.sh with studies a link: exit $rc, outside/quick/precious $(intact "$tmp/outside/quick/precious" && echo kept || echo REMOVED): $(brief "$out")"
rm "$co/studies" && mv "$tmp/runs-real" "$co/studies"
mkdir -p "$tmp/figs" "$tmp/r2/plots"
victim "$tmp/figs/1-nethack.png"
cp -r studies/quick/run/. "$tmp/r2/"
printf 'chart' >"$tmp/r2/plots/1-nethack.png"
mv "$co/plots/figures" "$tmp/figures-real"
ln -s "$tmp/figs" "$co/plots/figures"
out=$(cd "$co" && CRNGBENCH_RUNNER=$co/build/crngbench-run plots/report.sh "$tmp/r2" 2>&1)
rc=$?
[ $rc -ne 0 ] && intact "$tmp/figs/1-nethack.png" && grep -q "plots/figures is a symbolic link: refused" <<<"$out" &&
	ok "plots/figures a link: plots/report.sh refuses it before REPORT.md or a chart is written" ||
	bad "plots/report.sh with plots/figures a link: exit $rc, the chart there $(intact "$tmp/figs/1-nethack.png" && echo kept || echo REPLACED): $(brief "$out")"
rm "$co/plots/figures" && mv "$tmp/figures-real" "$co/plots/figures"

# --- 9: one integer rule -------------------------------------------------------------
for s in min_reps=+3 'reps=+5' 'timeout=30s' 'precision=5x'; do
	out=$("$runner" --matrix studies/quick/quick.matrix --set "$s" --print-axis plan 2>&1)
	rc=$?
	[ $rc -ne 0 ] && grep -qF -- "--set $s: need " <<<"$out" && grep -q "digits only: no sign, space or other character" <<<"$out" &&
		ok "--set $s is refused, naming the setting, the value and what is accepted" || bad "--set $s: exit $rc: $(brief "$out")"
done
out=$("$runner" --matrix studies/quick/quick.matrix --set 'min_reps = 3' --print-axis plan 2>&1)
[ $? -eq 0 ] && ok "min_reps = 3 is taken (white space around '=' is the line's syntax, not the value's)" ||
	bad "--set 'min_reps = 3': $(brief "$out")"
for o in "--shard|+1/2" "--shard|1/ 2" "--jobs|+2" "--jobs| 2" "--parallel-jobs|0x2"; do
	opt=${o%%|*} val=${o#*|}
	out=$("$runner" --matrix studies/quick/quick.matrix "$opt" "$val" --print-axis plan 2>&1)
	rc=$?
	[ $rc -ne 0 ] && grep -qF -- "$opt $val: need" <<<"$out" && grep -q "digits only" <<<"$out" &&
		ok "$opt '$val' is refused, naming what is accepted" || bad "$opt '$val': exit $rc: $(brief "$out")"
done
cp -r studies/quick/run "$tmp/q9"
for v in +5 ' 5' '5 5'; do
	printf '%s\n' "$v" >"$tmp/q9/seed"
	out=$("$runner" --summarize "$tmp/q9" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && grep -qF "q9/seed does not hold a seed" <<<"$out" && grep -q "digits only" <<<"$out" &&
		ok "a run's seed '$v' is refused (--summarize), naming the file" || bad "seed '$v': exit $rc: $(brief "$out")"
done
cp studies/quick/run/seed "$tmp/q9/seed"
for line in "jobs = +1" "jobs =  1" "perf = 1x" "shard = 1/1 " "shard = +1/1"; do
	cp studies/quick/run/run.args "$tmp/q9/run.args"
	key=${line%% =*}
	sed -i "s|^$key = .*|$line|" "$tmp/q9/run.args"
	out=$("$runner" --resume --out "$tmp/q9" --quiet 2>&1)
	rc=$?
	[ $rc -ne 0 ] && grep -qF "cannot resume: run.args $line: need" <<<"$out" &&
		ok "run.args '$line' is refused by --resume, naming the line and what is accepted" || bad "run.args '$line': exit $rc: $(brief "$out")"
done
# the Python readers too: '²' is a digit to str.isdigit(), not to int()
cp studies/quick/run/run.args "$tmp/q9/run.args"
sed -i 's|^shard = .*|shard = ²/²|' "$tmp/q9/run.args"
out=$(CRNGBENCH_RUNNER=$runner plots/runstate.py "$tmp/q9" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -qF "q9/run.args: shard '²/²' is not K/N" <<<"$out" && ! grep -q Traceback <<<"$out" &&
	ok "plots/runstate.py refuses run.args 'shard = ²/²' by name (no traceback)" || bad "runstate.py shard ²/²: exit $rc: $(brief "$out")"
cp studies/quick/run/run.args "$tmp/q9/run.args"
sed -i 's/"release": "6\.1\.[0-9]*/"release": "6.1.²/' "$tmp/q9/meta.json"
mkdir -p "$tmp/q9/plots/data"
out=$(CRNGBENCH_RUNNER=$runner python3 plots/prepare.py "$tmp/q9" "$tmp/q9/plots/data" 2>&1)
rc=$?
grep -q '6\.1\.²' "$tmp/q9/meta.json" && [ $rc -eq 0 ] && ! grep -q Traceback <<<"$out" &&
	ok "a run whose meta.json names release 6.1.² is charted (plots/prepare.py: no traceback)" ||
	bad "prepare.py with release 6.1.²: exit $rc: $(brief "$out")"

# --- 10: a BUILD where the runner cannot find kernel/ ------------------------------
for b in "$tmp/elsewhere" build/sub; do
	out=$(make -s runner BUILD="$b" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && [ ! -e "$b" ] && grep -qF "error: BUILD=$b: the runner finds kernel/ beside its own directory" <<<"$out" &&
		grep -q "must be a directory directly under this checkout" <<<"$out" &&
		ok "make runner BUILD=$b is refused before anything is built, naming BUILD and what is accepted" ||
		bad "make runner BUILD=$b: exit $rc, $([ -e "$b" ] && echo 'built there; ')$(brief "$out")"
done
out=$(make -s bench BUILD="$tmp/elsewhere" MATRIX=nosuch CRNGBENCH_CACHE="$tmp/cache" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "error: BUILD=.*directly under this checkout" <<<"$out" && ! grep -q "no matrix" <<<"$out" &&
	ok "make bench BUILD=/elsewhere is refused first, before packages or kernels" || bad "make bench BUILD=/elsewhere: exit $rc: $(brief "$out")"
out=$(make -s runner BUILD="$root/build" 2>&1)
[ $? -eq 0 ] && ok "BUILD=<the checkout>/build, the default's absolute path, is taken" || bad "make runner BUILD=$root/build: $(brief "$out")"

# --- audit ---------------------------------------------------------------------------
# kernel/build.sh in a checkout at a path with a space and quotes: each
# patch reaches sed and cat as one name (xargs and word splitting cut it),
# and its kernels' keys are the same as anywhere
weird="$tmp/a b'c \"d"
mkdir -p "$weird"
cp -r kernel scripts "$weird/"
kst() { (cd "$1" && KERNEL_TARBALL=$tmp/fake.tar.xz KERNEL_BASE=6.12 CRNGBENCH_CACHE=$tmp/kc2 kernel/build.sh --status stock,block 2>&1); }
want=$(kst "$root")
got=$(kst "$weird")
if grep -q "missing build tools\|compiler .* not found" <<<"$want"; then
	echo "SKIP: hostile round 5: kernel/build.sh --status: the kernel build tools are not installed"
else
	[ -n "$want" ] && [ "$got" = "$want" ] &&
		ok "kernel/build.sh in a checkout whose path holds a space and quotes keys its kernels as anywhere" ||
		bad "kernel/build.sh --status at '$weird': '$(brief "$got")', here: '$(brief "$want")'"
	# a patch (EXTRA_PATCHES, from elsewhere) naming a path outside the tree
	printf -- '--- a/x\n+++ b/../../x\n@@ -0,0 +1 @@\n+y\n' >"$tmp/evil.patch"
	out=$(KERNEL_TARBALL=$tmp/fake.tar.xz KERNEL_BASE=6.12 CRNGBENCH_CACHE=$tmp/kc3 EXTRA_PATCHES=$tmp/evil.patch kernel/build.sh --check stock 2>&1)
	rc=$?
	[ $rc -ne 0 ] && grep -qF "a patch modifies '../../x', not a path inside the kernel tree" <<<"$out" && grep -qF "evil.patch" <<<"$out" &&
		[ ! -e "$tmp/kc3/src" ] &&
		ok "a patch naming ../../x is refused, naming the patch, before anything is unpacked" || bad "a patch naming ../../x: exit $rc: $(brief "$out")"
fi

# time-split.sh: a run's host_time.csv (a run resumed here may come from
# elsewhere) cannot break its line or reach the terminal as control codes
mkdir -p "$tmp/ts"
printf 'packages 1.0\nboots 5.5\n' >"$tmp/ts/times"
printf 'accel,boots,skipped,host_s\ntcg\\n\033[2Jx,3,0,5.5\n' >"$tmp/ts/host_time.csv"
out=$(scripts/time-split.sh "$tmp/ts/times" "$tmp/ts" 2>&1)
[ "$(wc -l <<<"$out")" = 1 ] && ! grep -q $'\033' <<<"$out" && grep -qF 'boots 5.5 (tcg\n?[2Jx 5.5 s: 3 boots)' <<<"$out" &&
	ok "time-split.sh: a run's accel text stays on its line, '\\n' as written, control codes as '?'" ||
	bad "time-split.sh: $(od -c <<<"$out" | head -c 300)"

# scripts/deps.sh: a matrix's value is a value, never a glob over this directory
printf 'name = g\nbase = *\n' >"$co/bench/g.matrix"
out=$(cd "$co" && scripts/deps.sh --list --matrix g 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -qF "unknown kernel base '*'" <<<"$out" &&
	ok "scripts/deps.sh names a matrix's base '*' as it is (no glob)" || bad "deps.sh base=*: exit $rc: $(brief "$out")"

# make clean: BUILD as one name, even one that reads as an option
mkdir -p "$co/-x"
out=$(make -C "$co" -s clean BUILD=-x 2>&1)
rc=$?
[ $rc -eq 0 ] && [ ! -e "$co/-x" ] && ok "make clean BUILD=-x removes the directory -x (a name, not an option of rm)" ||
	bad "make clean BUILD=-x: exit $rc, -x $([ -e "$co/-x" ] && echo kept || echo removed): $(brief "$out")"

# A run's text with a bidirectional control (U+202E shows the rest of its
# line reversed, in a mail or a table) is refused as a control character
cp -r tests/fixtures/run "$tmp/bidi"
edit "$tmp/bidi" raw.csv 'for r in rows: r["variant"] = r["variant"].replace("block", "bl\u202eock")'
out=$(plots/render.sh "$tmp/bidi" 2>&1)
clean_error $? "$out" "U+202E" "control character" &&
	ok "a run whose variant holds U+202E (right-to-left override) is refused, naming it" ||
	bad "a variant with U+202E: $(brief "$out")"
