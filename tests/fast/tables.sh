#!/usr/bin/env bash
# test: fact tables and their reader
# The fact tables (kernel/arches, kernel/bases) and their one shell reader
# (scripts/table.sh): columns by name, '-' as empty, a missing row or column
# an error naming what exists; and no reader of those tables by position.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "tables"
# shellcheck source=scripts/table.sh
. scripts/table.sh

cat >"$tmp/t" <<'T'
# a comment
name  b   a
r1    x   -
r2    y   z
T
# the same table with its columns swapped reads the same
cat >"$tmp/u" <<'T'
name  a   b
r1    -   x
r2    z   y
T
for f in t u; do
	got="$(table_get "$tmp/$f" r1 b)|$(table_get "$tmp/$f" r1 a)|$(table_get "$tmp/$f" r2 a)"
	[ "$got" = "x||z" ] && ok "by column name, '-' read as empty ($f)" || bad "table $f read '$got', want 'x||z'"
done
[ "$(table_keys "$tmp/t" | tr '\n' ' ')" = "r1 r2 " ] && ok "table_keys lists the rows, not the header" ||
	bad "table_keys: $(table_keys "$tmp/t" | tr '\n' ' ')"
[ "$(table_row "$tmp/t" r2)" = "r2    y   z" ] && ok "table_row gives the row as written" || bad "table_row: '$(table_row "$tmp/t" r2)'"
err=$(table_get "$tmp/t" r1 c 2>&1); rc=$?
[ $rc = 2 ] && grep -q "has no column 'c' (its columns: name  b   a)" <<<"$err" &&
	ok "a missing column is an error naming the columns" || bad "missing column: rc=$rc '$err'"
err=$(table_get "$tmp/t" r9 a 2>&1); rc=$?
[ $rc = 2 ] && grep -q "has no row 'r9' (its rows: r1 r2 )" <<<"$err" &&
	ok "a missing row is an error naming the rows" || bad "missing row: rc=$rc '$err'"
[ "$(sh -c '. scripts/table.sh; table_get kernel/bases "$(table_keys kernel/bases | head -n 1)" package')" != "" ] &&
	ok "POSIX sh reads it too (the Makefile's recipes)" || bad "table.sh under sh"
[ "$(scripts/table.sh kernel/arches armv5 dtb)" = versatile-pb.dtb ] && ok "runs as a command" || bad "scripts/table.sh as a command"

# every row of each table has every column
for f in kernel/arches kernel/bases; do
	bad=$(awk '!/^#/ && NF { if (!n) n = NF; else if (NF != n) print FILENAME ":" NR ": " NF " fields, the header has " n }' "$f")
	[ -z "$bad" ] && ok "$f: every row has the header's columns" || bad "$bad"
done

# nobody reads the tables by position: no awk on them and no 'read -r _'
pos=$(grep -n -E "awk[^|]*(kernel/|\\\$here/)(arches|bases)|read -r _.*<<<\"\\\$row\"" \
	kernel/build.sh scripts/*.sh Makefile tests/*.sh 2>/dev/null | grep -v '^tests/fast/tables.sh:')
[ -z "$pos" ] && ok "no reader of kernel/arches or kernel/bases by column position" || bad "read by position: $pos"

# the cache directory is defined once: scripts/cache-dir.sh
dup=$(grep -n -E '\.cache[}/)]' kernel/*.sh scripts/*.sh tests/*.sh Makefile 2>/dev/null |
	grep -v -E '^scripts/cache-dir.sh:|^tests/fast/tables.sh:')
[ -z "$dup" ] && ok "the cache directory's default is spelled once (scripts/cache-dir.sh)" || bad "cache default spelled again: $dup"
[ "$(CRNGBENCH_CACHE=/x scripts/cache-dir.sh)|$(env -u CRNGBENCH_CACHE XDG_CACHE_HOME=/y scripts/cache-dir.sh)|$(env -u CRNGBENCH_CACHE -u XDG_CACHE_HOME HOME=/h scripts/cache-dir.sh)" = \
	"/x|/y/crngbench|/h/.cache/crngbench" ] && ok "cache-dir.sh: CRNGBENCH_CACHE, else XDG_CACHE_HOME, else ~/.cache" || bad "cache-dir.sh precedence"

# Where kernels go is spelled by kernel/build.sh (--where, --kernels-dir)
# and, for the runner, by bench/machines/arch.c: with no --kernels, the runner asks
# build.sh for the directory and must look for each kernel exactly where
# build.sh puts it, on every kernel row, under another cache too.
runner=build/crngbench-run
if [ ! -x "$runner" ]; then
	bad "kernel directories: $runner not built"
else
	for spec in "x86_64 250 x86_64 qemu64" "armv5 100 armv5-versatilepb default" "m68k 100 m68k-q800 default" \
		"mipsel 100 mipsel-malta default"; do
		set -- $spec
		want=$(CRNGBENCH_CACHE=$tmp/cache KERNEL_ARCH=$1 KERNEL_HZ=$2 kernel/build.sh --where legacy 2>&1)
		got=$(CRNGBENCH_CACHE=$tmp/cache "$runner" --out "$tmp/o-$1" --set variant=legacy --set arch="$3" \
			--set hz="$2" --set cpu="$4" --set trace=off --set accel=tcg --dry-run 2>&1 |
			sed -n "s/.*is not built (\(.*\)\/[^/]* missing).*/\1/p")
		case $want in
		"$tmp/cache/kernels/"*/legacy-hz"$2"*) ;;
		*) bad "kernel/build.sh --where legacy ($1): '$want' is not under the cache's kernels/<base>/" ;;
		esac
		[ -n "$got" ] && [ "$got" = "$want" ] && ok "the runner looks for $3's kernel where kernel/build.sh puts it ($want)" ||
			bad "kernel directory of $3: runner '$got', kernel/build.sh '$want'"
	done
fi

# Python's reader of the tables (plots/runlib.py fact_table) reads what
# the shell's does, every cell.
for f in kernel/arches kernel/bases studies/quick/study; do
	want=$(for k in $(table_keys "$f"); do
		for c in $(awk '!/^#/ && NF {print; exit}' "$f"); do printf '%s %s=%s\n' "$k" "$c" "$(table_get "$f" "$k" "$c")"; done
	done)
	got=$(python3 -c '
import sys
sys.path.insert(0, "plots")
import runlib
for k, row in runlib.fact_table(sys.argv[1]).items():
    for c, v in row.items():
        print(f"{k} {c}={v}")' "$f" 2>&1)
	[ "$got" = "$want" ] && ok "plots/runlib.py reads $f as scripts/table.sh does" ||
		bad "$f: Python and shell readers differ: $(diff <(echo "$want") <(echo "$got") | head -3 | tr '\n' ' ')"
done

# kernel/bases: every row's series exists with every patch its variants
# name in kernel/variants (scripts/variants.sh: those of every base and
# its own), vdso_getrandom is yes or no, and every base-<name>/ directory
# of kernel/config names a row (a misspelt one would be silently left out)
for b in $(table_keys kernel/bases); do
	d=$(table_get kernel/bases "$b" patches)
	miss=
	for n in $(KERNEL_BASE=$b scripts/variants.sh --lines | awk 'NR == FNR { v[$1]; next }
		!/^#/ && $1 in v { for (i = 2; i <= NF; i++) print $i }' - kernel/variants | sort -u); do
		ls "$d/$n"-*.patch >/dev/null 2>&1 || miss="$miss $n"
	done
	[ -d "$d" ] && [ -z "$miss" ] && ok "base $b: its series $d has every patch its variants of kernel/variants name" ||
		bad "base $b: series $d missing:${miss:- the directory}"
	used=
	for n in $(table_get kernel/bases "$b" base_patches | tr , ' '); do
		ls "$d/$n"-*.patch >/dev/null 2>&1 || miss="$miss $n"
		! awk '!/^#/ && NF {for (i = 2; i <= NF; i++) print $i}' kernel/variants | grep -qx -- "$n" || used="$used $n"
	done
	[ -z "$miss$used" ] && ok "base $b: its base_patches are in its series and not variants' patches" ||
		bad "base $b: base_patches missing from $d:${miss:- none}; also named by kernel/variants:${used:- none}"
	case $(table_get kernel/bases "$b" vdso_getrandom) in
	yes | no) ok "base $b: vdso_getrandom is yes or no" ;;
	*) bad "base $b: vdso_getrandom '$(table_get kernel/bases "$b" vdso_getrandom)' is neither yes nor no" ;;
	esac
done
bad=
for d in kernel/config/base-* kernel/config/*/base-*; do
	[ -d "$d" ] || continue
	b=${d##*/base-}
	table_keys kernel/bases | grep -qx -- "$b" || bad="$bad $d"
done
[ -z "$bad" ] && ok "every kernel/config base-<name>/ directory names a row of kernel/bases" ||
	bad "kernel/config directories of no base (kernel/bases):$bad"

# studies/: each study's matrix exists, how, block and post are values
# make reproduce knows, each block is in one page (REPORT.md or a study
# page, studies/README.md or studies/<name>/README.md) and has its tables.py,
# one study feeds the main block, and the budgets add up to at most 5 MiB
# (docs/reproduce.md).
# shellcheck source=scripts/studies.sh
. scripts/studies.sh
bad='' kib=0 mains=0
for r in $(studies); do
	m=$(study_get "$r" matrix) how=$(study_get "$r" how)
	rep=$(study_get "$r" block) post=$(study_get "$r" post)
	b=$(study_get "$r" budget_kib)
	case $rep in '' | main | "$r") ;; *) bad="$bad $r: block '$rep';" ;; esac
	[ -z "$rep" ] || [ -f "studies/$r/tables.py" ] || bad="$bad $r: no tables.py;"
	scripts/studies.sh --matrix "$m" >/dev/null 2>&1 || bad="$bad $r: no matrix $m;"
	case $how in runner | bench-parallel) ;; *) bad="$bad $r: how '$how';" ;; esac
	case $post in '' | run | hz) ;; *) bad="$bad $r: post '$post';" ;; esac
	[ "$rep" != main ] || mains=$((mains + 1))
	pg=$(grep -lxF "<!-- tables:$rep:begin -->" REPORT.md studies/README.md studies/*/README.md 2>/dev/null)
	[ -z "$rep" ] || { [ -n "$pg" ] && [ "$(wc -l <<<"$pg")" = 1 ] && grep -qxF "<!-- tables:$rep:end -->" "$pg"; } ||
		bad="$bad $r: no tables:$rep block in REPORT.md or one study page;"
	[[ $b =~ ^[1-9][0-9]*$ ]] && kib=$((kib + b)) || bad="$bad $r: budget_kib '$b';"
done
[ $mains -eq 1 ] || bad="$bad $mains rows feed the main block;"
[ $kib -le 5120 ] || bad="$bad budgets add up to $kib KiB, over 5 MiB;"
[ -z "$bad" ] && ok "studies/: matrices exist, known hows, report blocks and post roles; budgets $kib KiB of 5 MiB" ||
	bad "studies/:$bad"
