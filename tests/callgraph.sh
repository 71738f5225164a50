#!/usr/bin/env bash
# The runner's structure (DESIGN.md): no two bench/*.c files call each
# other, directly or round a longer circle, and no bench/*.c is over 600
# lines; the same of guest-image/*.c (the probe) and plots/*.py. The file-level call graph comes from the objects the unit tests
# link (build/unit/plain/bench/*.o, built by make unit-bins) and main's
# own bench/run.c: an edge A -> B where A's object leaves a symbol
# undefined that B's object defines (nm). A circle is named file by file.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
t_begin "callgraph"
max_lines=600

# symbols OBJ...: "D|U <source>.c <symbol>" lines, one per global symbol.
symbols() {
	local o src
	for o in "$@"; do
		src=$(basename "$o" .o).c
		nm -g --defined-only "$o" | awk -v s="$src" 'NF == 3 { print "D", s, $3 }'
		nm -u "$o" | awk -v s="$src" '{ print "U", s, $NF }'
	done
}

# cycle <symbols-file>: the first circle found ("a.c -> b.c -> a.c"), or nothing.
cycle() {
	python3 - "$1" <<'PY'
import sys
defs, uses = {}, {}
for line in open(sys.argv[1]):
    kind, src, sym = line.split()
    uses.setdefault(src, set())
    if kind == "D":
        defs[sym] = src
    else:
        uses[src].add(sym)
graph = {a: sorted({defs[s] for s in syms if s in defs and defs[s] != a})
         for a, syms in uses.items()}
state, path = {}, []
def visit(a):
    state[a] = 1
    path.append(a)
    for b in graph[a]:
        if state.get(b) == 1:
            return path[path.index(b):] + [b]
        if b not in state:
            c = visit(b)
            if c:
                return c
    path.pop()
    state[a] = 2
    return None
for a in sorted(graph):
    if a not in state:
        c = visit(a)
        if c:
            print(" -> ".join(c))
            break
PY
}

# no_circle NOUN VERB SYMS N: one line, PASS if the N files (NOUN) of the
# edges in SYMS (the symbols format) never VERB each other round a circle.
no_circle() {
	local c
	c=$(cycle "$3")
	if [ -n "$c" ]; then
		echo "FAIL: callgraph: $1 $2 each other in a circle: $c"
	else
		echo "PASS: callgraph: no two $1 $2 each other, directly or round a circle ($4 files)"
	fi
}

# not_long WHAT FILE...: one line, PASS if no FILE is over max_lines lines.
not_long() {
	local what=$1 long
	shift
	long=$(wc -l "$@" | awk -v m=$max_lines '$2 != "total" && $1 > m { printf " %s (%d lines)", $2, $1 }')
	if [ -n "$long" ]; then
		echo "FAIL: callgraph: $what over $max_lines lines:$long"
	else
		echo "PASS: callgraph: every $what is at most $max_lines lines"
	fi
}

# The detector itself finds a circle: two files that call each other.
printf 'int pong(int);\nint ping(int n) { return n ? pong(n - 1) : 0; }\n' >"$tmp/ping.c"
printf 'int ping(int);\nint pong(int n) { return n ? ping(n - 1) : 1; }\n' >"$tmp/pong.c"
if cc -c -o "$tmp/ping.o" "$tmp/ping.c" && cc -c -o "$tmp/pong.o" "$tmp/pong.c" &&
	symbols "$tmp/ping.o" "$tmp/pong.o" >"$tmp/self.sym" &&
	[ -n "$(cycle "$tmp/self.sym")" ]; then
	echo "PASS: callgraph: the check finds a circle between two files that call each other"
else
	echo "FAIL: callgraph: the check finds no circle in ping.c <-> pong.c: $(tr '\n' ' ' <"$tmp/self.sym" 2>/dev/null)"
fi

# The objects of today's bench/*.c (a stale object of a removed file is not
# read); bench/run.c (main) is not part of the unit tests' library.
objs=() missing=
for c in bench/*.c; do
	o=build/unit/plain/${c%.c}.o
	if [ "$c" = bench/run.c ]; then
		o=$tmp/run.o
		cc -std=c11 -c -o "$o" "$c" 2>"$tmp/cc.err" ||
			echo "FAIL: callgraph: cannot compile $c: $(head -n 2 "$tmp/cc.err" | tr '\n' ' ')"
	fi
	if [ -e "$o" ]; then objs+=("$o"); else missing+=" $c"; fi
done
if [ -n "$missing" ]; then
	echo "FAIL: callgraph: bench files with no unit-test object (make unit-bins; a new file goes in the Makefile's RUNNER_SRC):$missing"
else
	symbols "${objs[@]}" >"$tmp/bench.sym"
	no_circle "bench/*.c files" call "$tmp/bench.sym" ${#objs[@]}
fi
not_long "bench/*.c" bench/*.c

# guest-image/ alike: the probe's files (each compiled here on its own,
# as the probe's build compiles them together)
gobjs=()
for c in guest-image/*.c; do
	o=$tmp/guest-$(basename "$c" .c).o
	if cc -std=c11 -c -o "$o" "$c" 2>"$tmp/cc.err"; then
		gobjs+=("$o")
	else
		echo "FAIL: callgraph: cannot compile $c: $(head -n 2 "$tmp/cc.err" | tr '\n' ' ')"
	fi
done
symbols "${gobjs[@]}" | sed 's/ guest-/ /' >"$tmp/guest.sym"
no_circle "guest-image/*.c files" call "$tmp/guest.sym" ${#gobjs[@]}
not_long "guest-image/*.c" guest-image/*.c

# plots/ alike (DESIGN.md, plots/runlib.py): an edge A -> B where A.py
# imports B.py (import B, from B import ...), in the symbols format above;
# no circle, and no plots/*.py over max_lines.
python3 - plots/*.py >"$tmp/plots.sym" <<'PY'
import ast, os, sys
mine = {os.path.basename(p)[:-3] for p in sys.argv[1:]}
for p in sys.argv[1:]:
    name = os.path.basename(p)
    print("D", name, name[:-3])
    for node in ast.walk(ast.parse(open(p).read(), p)):
        mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
        for m in mods:
            if m in mine:
                print("U", name, m)
PY
no_circle "plots/*.py" import "$tmp/plots.sym" "$(ls plots/*.py | wc -l)"
not_long "plots/*.py" plots/*.py
