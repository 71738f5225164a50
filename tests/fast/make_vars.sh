#!/usr/bin/env bash
# test: make variables are data, never code (make help, run, report, distclean)
# A make variable's value is data, never code: make help shows each value
# as it is, make run hands QEMU to the runner as one word, make report
# names a bad FROM without running it, and make distclean removes the
# cache directory CRNGBENCH_CACHE names, one path even with a space in
# it. The variables of the Makefile's DATA_VARS refuse shell and make
# characters outright.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "make variables"
# a value that would run touch if it reached a shell as code, in any quoting
evil() { printf "x'\"; touch %s; echo \"'" "$tmp/PWNED_$1"; }

for v in QEMU FROM HOSTS V CRNGBENCH_CACHE KERNEL_TARBALL; do
	out=$(make -s help "$v=$(evil "$v")" 2>&1)
	val=$(evil "$v")
	[ ! -e "$tmp/PWNED_$v" ] && grep -qF -- "$v=$val" <<<"$out" &&
		ok "make help shows $v as it is, and runs none of it" ||
		bad "make help $v=...: $([ -e "$tmp/PWNED_$v" ] && echo 'the value ran; ')$(brief "$out")"
done

out=$(make -s report FROM="$(evil FROM)" 2>&1)
rc=$?
[ $rc -ne 0 ] && [ ! -e "$tmp/PWNED_FROM" ] && grep -qF -- "error: FROM='$(evil FROM)': give FROM=committed" <<<"$out" &&
	ok "make report FROM=<bad> is refused, naming the value, and runs none of it" ||
	bad "make report FROM=...: exit $rc, $([ -e "$tmp/PWNED_FROM" ] && echo 'the value ran; ')$(brief "$out")"

# make -n: the command make run would give, not run (no runner, no QEMU)
out=$(make -n run QEMU="$(evil QEMU)" 2>&1)
grep -qF -- "--qemu '$(evil QEMU | sed "s/'/'\\\\''/g")'" <<<"$out" &&
	ok "make run hands QEMU to the runner as one quoted word" ||
	bad "make run QEMU=...: the runner's command line: $(grep -F -- --qemu <<<"$out" | head -c 300)"

mkdir -p "$tmp/a" "$tmp/b" "$tmp/a $tmp/b" "$tmp/build"
make -s distclean BUILD="$tmp/build" CRNGBENCH_CACHE="$tmp/a $tmp/b" >"$tmp/out" 2>&1
[ -d "$tmp/a" ] && [ -d "$tmp/b" ] && [ ! -e "$tmp/a $tmp/b" ] && [ ! -e "$tmp/build" ] &&
	ok "make distclean removes the one cache directory CRNGBENCH_CACHE names, a space in its path" ||
	bad "make distclean CRNGBENCH_CACHE='$tmp/a $tmp/b': a $([ -d "$tmp/a" ] && echo kept || echo removed), b $([ -d "$tmp/b" ] && echo kept || echo removed), the named one $([ -e "$tmp/a $tmp/b" ] && echo kept || echo removed): $(brief "$(cat "$tmp/out")")"

for v in MATRIX RESULTS SETS; do
	out=$(make -s help "$v=a;touch $tmp/PWNED_d$v" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && [ ! -e "$tmp/PWNED_d$v" ] && grep -q "$v=.* holds .*: a value here is data" <<<"$out" &&
		ok "$v with a shell character is refused before anything runs" ||
		bad "$v=a;...: exit $rc: $(brief "$out")"
done

# The DATA_VARS are one word each (but SETS and RUNFLAGS): a space or a
# glob character would make a recipe's bare word several, or others.
mkdir -p "$tmp/c" "$tmp/d"
out=$(make -s clean BUILD="$tmp/c $tmp/d" 2>&1)
rc=$?
[ $rc -ne 0 ] && [ -d "$tmp/c" ] && [ -d "$tmp/d" ] && grep -qF "BUILD='$tmp/c $tmp/d' holds whitespace" <<<"$out" &&
	ok "make clean BUILD='/c /d' is refused, removing neither" ||
	bad "make clean BUILD='$tmp/c $tmp/d': exit $rc, c $([ -d "$tmp/c" ] && echo kept || echo removed), d $([ -d "$tmp/d" ] && echo kept || echo removed): $(brief "$out")"
for a in "RESULTS=r ./x" "MATRIX=quick --arch x" "RESULTS=res*"; do
	out=$(make -n run QEMU=true "$a" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && grep -qF "${a%%=*}='${a#*=}' holds " <<<"$out" && ! grep -q crngbench-run <<<"$out" &&
		ok "make run $a is refused before any command" ||
		bad "make -n run $a: exit $rc: $(brief "$out")"
done

# The variables of any text: make would expand a $ in one from the command
# line or the environment as its own code (a command-line one in every
# recipe's environment, make clean's too).
for v in QEMU FROM HOSTS RUNS KERNEL_TARBALL CRNGBENCH_CACHE V JOBS; do
	out=$(make -s clean BUILD="$tmp/nobuild" "$v=x\$(shell touch $tmp/PWNED_m$v)" 2>&1)
	rc=$?
	out2=$(env "$v=x\$(shell touch $tmp/PWNED_e$v)" make -s help 2>&1)
	[ $rc -ne 0 ] && [ ! -e "$tmp/PWNED_m$v" ] && [ ! -e "$tmp/PWNED_e$v" ] && grep -qF "$v='x\$(shell" <<<"$out" &&
		grep -qF "$v='x\$(shell" <<<"$out2" &&
		ok "$v holding \$(shell ...), on the command line or in the environment, is refused and never run" ||
		bad "$v=x\$(shell ...): exit $rc, $([ -e "$tmp/PWNED_m$v" ] && echo 'ran from the command line; ')$([ -e "$tmp/PWNED_e$v" ] && echo 'ran from the environment; ')$(brief "$out") / $(brief "$out2")"
done

# make distclean removes the path CRNGBENCH_CACHE names, or nothing: a
# newline in it is refused, not made a space (another directory).
mkdir -p "$tmp/n1 $tmp/n2"
out=$(make -s distclean BUILD="$tmp/build2" CRNGBENCH_CACHE="$tmp/n1
$tmp/n2" 2>&1)
rc=$?
[ $rc -ne 0 ] && [ -d "$tmp/n1 $tmp/n2" ] && grep -q "CRNGBENCH_CACHE holds a newline" <<<"$out" &&
	ok "make distclean with a newline in CRNGBENCH_CACHE is refused, removing no other directory" ||
	bad "make distclean CRNGBENCH_CACHE='a<newline>b': exit $rc, 'a b' $([ -d "$tmp/n1 $tmp/n2" ] && echo kept || echo removed): $(brief "$out")"

# The kernel cache reaches kbuild's shell unquoted (O=, mkdir -p there):
# make kernels refuses one kbuild cannot take before anything is built
# (the runner is not rebuilt: -o; KERNEL_BUILD records any call).
for c in "$tmp/k k" "$tmp/k;touch $tmp/PWNED_k;" "rel/cache"; do
	out=$(make -s -o "$tmp/kb/crngbench-run" kernels BUILD="$tmp/kb" CRNGBENCH_CACHE="$c" KERNEL_BUILD="touch $tmp/built" 2>&1)
	rc=$?
	[ $rc -eq 2 ] && [ ! -e "$tmp/built" ] && grep -qF "the kernel cache '$c' (CRNGBENCH_CACHE" <<<"$out" &&
		ok "make kernels CRNGBENCH_CACHE='$c' is refused before any build" ||
		bad "make kernels CRNGBENCH_CACHE='$c': exit $rc: $(brief "$out")"
done
[ "$(CRNGBENCH_CACHE=/a/b-1.2_x+y@z~ scripts/cache-dir.sh --kbuild 2>&1)" = /a/b-1.2_x+y@z~ ] &&
	ok "scripts/cache-dir.sh --kbuild takes an absolute path of ._/+@~- and alphanumerics" ||
	bad "scripts/cache-dir.sh --kbuild refused /a/b-1.2_x+y@z~"

# The checkout's own path reaches the report scripts (CRNGBENCH_RUNNER,
# absolute) as one word: a checkout under a directory with a space or a ;
# in its name runs nothing of it (make plots of a run that is not one).
c="$tmp/a b;touch $tmp/PWNED_cwd;x"
mkdir -p "$c" && git ls-files -z Makefile scripts "studies/*/study" "studies/*/*.matrix" kernel/variants plots/render.sh | cpio -0pdm --quiet "$c"
out=$(cd "$c" && make -s -o build/crngbench-run plots RUN="$tmp/norun" 2>&1)
[ ! -e "$tmp/PWNED_cwd" ] && grep -qF "plots/render.sh: error: $tmp/norun/raw.csv not found" <<<"$out" &&
	ok "make plots in a checkout whose path holds a space and a ; hands the runner's path over as one word" ||
	bad "make plots in '$c': $([ -e "$tmp/PWNED_cwd" ] && echo 'the path ran; ')$(brief "$out")"

# make bench-build's fresh caches go under TMPDIR: one kbuild cannot
# build under is refused before any build (KERNEL_TARBALL: a build that
# starts anyway fails at once, not after minutes).
mkdir -p "$tmp/t d"
out=$(TMPDIR="$tmp/t d" make -s bench-build KERNEL_BASE=6.1 KERNEL_TARBALL="$tmp/none.tar.xz" 2>&1)
rc=$?
[ $rc -eq 2 ] && grep -qF "its fresh caches go under TMPDIR ($tmp/t d/crngbench-bench-build." <<<"$out" &&
	ok "make bench-build under a TMPDIR with a space is refused before any build" ||
	bad "make bench-build TMPDIR='$tmp/t d': exit $rc: $(brief "$out")"
