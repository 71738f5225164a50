#!/usr/bin/env bash
# test: bench stage order and call graph
# The runner's structure (DESIGN.md): bench/ is cut along its pipeline into
# stage folders, and a file uses only its own folder's files and those of
# earlier stages (the order below, the one definition of it); bench/run.c
# and bench/options.c stand on top of them all. Checked twice: by
# includes (#include "..." of another bench file) and by calls (an edge A
# -> B where A's object leaves a symbol undefined that B's object defines:
# nm of the objects make unit-bins built). No two files call each other,
# directly or round a longer circle; the same of guest-image/*.c (the
# probe) and of plots/*.py by their imports.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "callgraph"
stages="ground machines matrix rows results summary boot merge"

# symbols OBJ...: "D|U <source> <symbol>" lines, one per global symbol;
# <source> is the object's path under build/unit/plain/ (bench/rows/row.c).
symbols() {
	local o src
	for o in "$@"; do
		src=${o#build/unit/plain/}
		src=${src%.o}.c
		nm -g --defined-only "$o" | awk -v s="$src" 'NF == 3 { print "D", s, $3 }'
		nm -u "$o" | awk -v s="$src" '{ print "U", s, $NF }'
	done
}

# includes FILE...: "D <file> <file>" and "U <file> <included>" lines for
# each #include "..." of a file of this tree, paths from the top.
includes() {
	python3 - "$@" <<'PY'
import os, re, sys
for f in sys.argv[1:]:
    print("D", f, f)
    for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', open(f).read(), re.M):
        t = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
        if os.path.exists(t):
            print("U", f, t)
PY
}

# graph SYMS CHECK: the edges of SYMS (the format above), then CHECK:
# "circle" prints the first circle found ("a.c -> b.c -> a.c"); "order"
# prints each edge from a bench file to one of a later stage ($stages;
# bench/*.c on top of all), "a.c -> b.c (rows uses boot)".
graph() {
	python3 - "$1" "$2" "$stages" <<'PY'
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
if sys.argv[2] == "order":
    order = sys.argv[3].split()
    def stage(p):
        parts = p.split("/")
        if len(parts) == 2:
            return len(order), "top"
        if len(parts) != 3 or parts[1] not in order:
            return -1, parts[1]
        return order.index(parts[1]), parts[1]
    for a in sorted(graph):
        if stage(a)[0] < 0:
            print(f"{a} (the folder '{stage(a)[1]}' is no stage)")
        for b in graph[a]:
            if stage(b)[0] > stage(a)[0]:
                print(f"{a} -> {b} ({stage(a)[1]} uses {stage(b)[1]})")
    sys.exit(0)
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
# edges in SYMS never VERB each other round a circle.
no_circle() {
	local c
	c=$(graph "$3" circle)
	if [ -n "$c" ]; then
		echo "FAIL: callgraph: $1 $2 each other in a circle: $c"
	else
		echo "PASS: callgraph: no two $1 $2 each other, directly or round a circle ($4 files)"
	fi
}

# in_order HOW SYMS N: one line, PASS if no edge of SYMS (N files) runs from
# a stage to a later one.
in_order() {
	local bad
	bad=$(graph "$2" order)
	if [ -n "$bad" ]; then
		echo "FAIL: callgraph: bench files $1 a later stage's ($stages):$(printf ' %s;' "$bad" | tr '\n' ' ')"
	else
		echo "PASS: callgraph: bench's $3 files $1 only their own stage's and earlier stages' ($stages, then bench/*.c)"
	fi
}

# The detectors themselves: two files that call each other are a circle,
# and a ground file that calls a boot file breaks the order.
printf 'int pong(int);\nint ping(int n) { return n ? pong(n - 1) : 0; }\n' >"$tmp/ping.c"
printf 'int ping(int);\nint pong(int n) { return n ? ping(n - 1) : 1; }\n' >"$tmp/pong.c"
if cc -c -o "$tmp/ping.o" "$tmp/ping.c" && cc -c -o "$tmp/pong.o" "$tmp/pong.c" &&
	symbols "$tmp/ping.o" "$tmp/pong.o" >"$tmp/self.sym" &&
	[ -n "$(graph "$tmp/self.sym" circle)" ]; then
	echo "PASS: callgraph: the check finds a circle between two files that call each other"
else
	echo "FAIL: callgraph: the check finds no circle in ping.c <-> pong.c: $(tr '\n' ' ' <"$tmp/self.sym" 2>/dev/null)"
fi
printf 'D bench/ground/a.c a\nU bench/ground/a.c b\nD bench/boot/b.c b\nU bench/boot/b.c a\nD bench/x/c.c c\n' >"$tmp/order.sym"
case $(graph "$tmp/order.sym" order) in
*"bench/ground/a.c -> bench/boot/b.c (ground uses boot)"*"'x' is no stage"*)
	echo "PASS: callgraph: the check finds a ground file that calls a boot file, and a folder that is no stage" ;;
*) echo "FAIL: callgraph: the order check missed ground -> boot or a folder that is no stage: $(graph "$tmp/order.sym" order | tr '\n' ' ')" ;;
esac

# The objects of today's bench sources (a stale object of a removed file is
# not read): make unit-bins builds them, bench/run.c's among them.
objs=() missing=
for c in bench/*.c bench/*/*.c; do
	o=build/unit/plain/${c%.c}.o
	if [ -e "$o" ]; then objs+=("$o"); else missing+=" $c"; fi
done
if [ -n "$missing" ]; then
	echo "FAIL: callgraph: bench files with no object (make unit-bins):$missing"
else
	symbols "${objs[@]}" >"$tmp/bench.sym"
	no_circle "bench files" call "$tmp/bench.sym" ${#objs[@]}
	in_order call "$tmp/bench.sym" ${#objs[@]}
fi
includes bench/*.[ch] bench/*/*.[ch] >"$tmp/bench.inc"
in_order include "$tmp/bench.inc" "$(grep -c '^D' "$tmp/bench.inc")"

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
symbols "${gobjs[@]}" >"$tmp/guest.sym"
no_circle "guest-image/*.c files" call "$tmp/guest.sym" ${#gobjs[@]}

# plots/ alike (DESIGN.md, plots/runlib.py): an edge A -> B where A.py
# imports B.py (import B, from B import ...), in the symbols format above.
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
