#!/usr/bin/env bash
# A make variable's value is data, never code: make help shows each value
# as it is, make run hands QEMU to the runner as one word, make report
# names a bad FROM without running it, and make distclean removes the
# cache directory CRNGBENCH_CACHE names, one path even with a space in
# it. The variables of the Makefile's DATA_VARS refuse shell and make
# characters outright.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
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
