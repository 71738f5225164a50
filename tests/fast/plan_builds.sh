#!/usr/bin/env bash
# test: make reproduce's kernel builds in its plan
# make reproduce's kernel builds in its plan (plots/buildcost.py), against
# a cache of its own (CRNGBENCH_CACHE) and a cost table of its own
# (--table): each build directory with something to build costs cold_s and
# variant_s for each further variant from cold, variant_s per variant when
# it has been built in; a kernel whose image is there with the key of its
# inputs now (kernel/build.sh --status) costs nothing, one built from other
# inputs is built again; a kernel two matrices share counts once; the
# cache is not written; a bad row of the table is an error naming the file
# and line. kernel/build-cost has a row for every base and architecture.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "plan builds"
root=$PWD
export CRNGBENCH_RUNNER=$root/${CRNGBENCH_RUNNER:-build/crngbench-run}
bc=$root/plots/buildcost.py
py=/usr/bin/python3
export CRNGBENCH_CACHE=$tmp/cache

# a: 6.1 x86_64 HZ=250 stock,block; b: block,legacy at HZ=250 and HZ=100
printf 'name = a\nvariant = stock,block\naccel = tcg\nhz = 250\n' >"$tmp/a.matrix"
printf 'name = b\nvariant = block,legacy\naccel = tcg\nhz = 250,100\n' >"$tmp/b.matrix"
cat >"$tmp/cost" <<'T'
# a test's costs
base  arch    cold_s  variant_s  source
6.1   x86_64  100     10         bench-build
T
# cost NAME WANT-SECONDS WANT-TO-BUILD WANT-DIRS WANT-COLD [ARGS...]: the JSON estimate
cost() {
	local name=$1 secs=$2 n=$3 d=$4 c=$5 out
	shift 5
	out=$("$bc" --json --table "$tmp/cost" "$@" 2>&1) || { bad "$name: buildcost.py failed: $out"; return; }
	$py - "$out" "$secs" "$n" "$d" "$c" <<'PY' && ok "$name (~$secs s)" || bad "$name: wanted $secs s, $n kernels in $d dirs ($c cold): $(head -c 600 <<<"$out")"
import json, sys
e, secs, n, d, c = json.loads(sys.argv[1]), float(sys.argv[2]), *map(int, sys.argv[3:])
assert abs(e["total_s"] - secs) < 1e-6, e["total_s"]
assert (e["to_build"], e["build_dirs"], e["cold"]) == (n, d, c), (e["to_build"], e["build_dirs"], e["cold"])
PY
}
cost "nothing built: cold_s + variant_s per further variant, per build directory" 220 4 2 2 \
	--matrix "$tmp/b.matrix"
[ ! -e "$CRNGBENCH_CACHE" ] && ok "the estimate writes nothing into the cache" || bad "the estimate created $CRNGBENCH_CACHE"
cost "a kernel two matrices share counts once (a alone 110 s, b alone 220 s)" 230 5 2 2 --matrix "$tmp/a.matrix" --matrix "$tmp/b.matrix"

# one kernel built: its image and its key, where and as kernel/build.sh says
st=$(KERNEL_HZ=250 kernel/build.sh --status stock 2>&1) || bad "kernel/build.sh --status: $st"
key=$(cut -d' ' -f4 <<<"$st") build=$(cut -d' ' -f5- <<<"$st")
kdir=$(KERNEL_HZ=250 kernel/build.sh --where stock)
mkdir -p "$kdir"
: >"$kdir/bzImage"
echo "$key" >"$kdir/key"
cost "one variant's kernel built: its cost is left out" 220 4 2 2 --matrix "$tmp/a.matrix" --matrix "$tmp/b.matrix"
echo 0123456789abcdef >"$kdir/key"
cost "a kernel built from other inputs (another key) is built again" 230 5 2 2 \
	--matrix "$tmp/a.matrix" --matrix "$tmp/b.matrix"
out=$("$bc" --table "$tmp/cost" --matrix "$tmp/a.matrix" 2>&1)
grep -q "stock,block to build (stale: stock), cold build directory" <<<"$out" &&
	grep -q "^kernels: 2 to build in 1 build directory (1 from cold), ~1 min 50 s ($tmp/cost)$" <<<"$out" &&
	ok "the text names what is stale and sums up in one line" || bad "text: $out"
echo "$key" >"$kdir/key"
# the HZ=250 build directory built in before (its vmlinux)
case $build in "$CRNGBENCH_CACHE"/build/*-hz250) ;; *) bad "--status names build directory '$build'" ;; esac
mkdir -p "$build"
: >"$build/vmlinux"
cost "a build directory built in before: variant_s per variant" 130 4 2 1 \
	--matrix "$tmp/a.matrix" --matrix "$tmp/b.matrix"

# the table: bad rows named by file and line, before anything runs
# bad_table NAME WANT ROW-LINE: the test table with ROW-LINE appended
bad_table() {
	local name=$1 want=$2 out rc
	cp "$tmp/cost" "$tmp/bad"
	echo "$3" >>"$tmp/bad"
	out=$("$bc" --table "$tmp/bad" --matrix "$tmp/a.matrix" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && grep -qF -- "$want" <<<"$out" && ! grep -q Traceback <<<"$out" && ok "$name" ||
		bad "$name: exit $rc, wanted '$want': $out"
}
bad_table "a row without a field is refused, naming the file and line" \
	"$tmp/bad line 4 has 4 fields where its header has 5" "6.12  x86_64  100  bench-build"
bad_table "seconds that are not a number are refused, naming line and column" \
	"$tmp/bad line 4, column variant_s: 'soon' is not a number of seconds above 0" "6.12  x86_64  100  soon  bench-build"
bad_table "an unknown architecture is refused, naming the known ones" \
	"$tmp/bad line 4: arch 'vax' is not a row of kernel/arches (x86_64, armv5" "6.1  vax  100  10  bench-build"
bad_table "a second row for a base and architecture is refused" \
	"$tmp/bad line 4: a second row for base 6.1, arch x86_64" "6.1  x86_64  100  10  bench-build"
bad_table "an unknown source is refused" \
	"$tmp/bad line 4, column source: 'guess' is neither check-cold nor reproduce-cold nor bench-build nor derived" "6.12  x86_64  1  1  guess"
printf 'base arch cold_s variant_s source\n6.12 x86_64 1 1 derived\n' >"$tmp/bad"
out=$("$bc" --table "$tmp/bad" --matrix "$tmp/a.matrix" 2>&1)
[ $? -ne 0 ] && grep -qF "$tmp/bad has no row for base 6.1, arch x86_64: measure one (make bench-build KERNEL_BASE=6.1 KERNEL_ARCH=x86_64)" <<<"$out" &&
	ok "a kernel without a row in the table is named, with how to measure it" || bad "missing row: $out"

# kernel/build-cost itself: every base and kernel/arches row, read cleanly
$py - <<'PY' && ok "kernel/build-cost has a row for every base and architecture" || bad "kernel/build-cost rows"
import sys
sys.path.insert(0, "plots")
import buildcost, runlib
costs = buildcost.read_costs("kernel/build-cost")
want = {(b, a) for b in runlib.fact_table("bases") for a in runlib.fact_table("arches")}
assert set(costs) == want, set(costs) ^ want
PY
