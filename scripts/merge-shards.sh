#!/usr/bin/env bash
# Merge the results directories of one sharded run into one run.
#   scripts/merge-shards.sh OUT SHARD_DIR...
# Every shard must come from the same matrix and seed (run.matrix and seed
# identical); boots are disjoint by construction, a boot seen twice is an
# error. The merged run is summarized by the runner like any other.
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "merge-shards: error: $*" >&2; exit 2; }
[ $# -ge 2 ] || die "usage: scripts/merge-shards.sh OUT SHARD_DIR..."
out=$1; shift
[ ! -e "$out/raw.csv" ] || die "$out already holds a run"
first=$1
for d in "$@"; do
	[ -f "$d/raw.csv" ] || die "$d is not a results directory (no raw.csv)"
	cmp -s "$first/run.matrix" "$d/run.matrix" || die "$d ran another matrix than $first (run.matrix differs)"
	cmp -s "$first/seed" "$d/seed" || die "$d used another seed than $first; run every shard with the same --seed"
done
mkdir -p "$out/boots"
cp "$first/run.matrix" "$first/seed" "$out/"
for t in raw reads traces; do
	head -n 1 "$first/$t.csv" >"$out/$t.csv"
	for d in "$@"; do tail -n +2 "$d/$t.csv" >>"$out/$t.csv"; done
done
dups=$(tail -n +2 "$out/raw.csv" | cut -d, -f1 | sort | uniq -d | head -n 3)
[ -z "$dups" ] || die "boots recorded by more than one shard: $dups (were the shards K/N all different?)"
for d in "$@"; do cp -r "$d"/boots/. "$out/boots/"; done
{
	echo "{"
	echo "  \"merged_from\": ["
	for d in "$@"; do echo "    \"$d\"$([ "$d" = "${!#}" ] || echo ,)"; done
	echo "  ],"
	sed -n '2,$p' "$first/meta.json"
} >"$out/meta.json"
make -s runner >/dev/null
build/crngbench-run --summarize "$out" --seed "$(cat "$out/seed")"
echo "merged $# shards into $out: $(($(wc -l <"$out/raw.csv") - 1)) boots"
