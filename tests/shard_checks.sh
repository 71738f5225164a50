#!/usr/bin/env bash
# The code a shard of make reproduce HOSTS=... records, without ssh or
# boots (tests/ssh_shards.sh checks it in whole runs over ssh):
# scripts/shard-run.sh --commit is HEAD's commit in a clean checkout,
# COMMIT+TREE with an uncommitted change to a script (another TREE for
# another change), and the commit alone when only make reproduce's own
# output changed (plots/runs/, REPORT.md).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
t_begin "shard checks"

# --- --commit ----------------------------------------------------------------------
c=$tmp/checkout
mkdir -p "$c/scripts" "$c/plots/runs/one"
cp scripts/shard-run.sh "$c/scripts/"
echo a >"$c/plots/runs/one/raw.csv"
echo report >"$c/REPORT.md"
git -C "$c" init -q && git -C "$c" add -A &&
	git -C "$c" -c user.name=t -c user.email=t@localhost commit -qm checkout || bad "cannot make a checkout"
head=$(git -C "$c" rev-parse HEAD)
code() { "$c/scripts/shard-run.sh" --commit 2>&1; }
clean=$(code)
[ "$clean" = "$head" ] && ok "--commit in a clean checkout is HEAD's commit" || bad "--commit of a clean checkout: '$clean', HEAD $head"
echo "# an edit" >>"$c/scripts/shard-run.sh"
one=$(code)
echo "# another" >>"$c/scripts/shard-run.sh"
two=$(code)
[[ $one =~ ^$head\+[0-9a-f]{40}$ ]] && [[ $two =~ ^$head\+[0-9a-f]{40}$ ]] && [ "$one" != "$two" ] &&
	ok "--commit with an uncommitted change to a script is COMMIT+TREE, another TREE for another change" ||
	bad "--commit with changes: '$one', then '$two'"
git -C "$c" checkout -q -- scripts/shard-run.sh
echo b >>"$c/plots/runs/one/raw.csv"
echo again >>"$c/REPORT.md"
out=$(code)
[ "$out" = "$head" ] && ok "--commit leaves out make reproduce's own output (plots/runs/, REPORT.md)" ||
	bad "--commit with plots/runs/ and REPORT.md changed: '$out', HEAD $head"
