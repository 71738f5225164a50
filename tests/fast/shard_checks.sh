#!/usr/bin/env bash
# test: what a returned shard may hold, the code a shard records (scripts/shard-run.sh --check, --commit)
# What make reproduce HOSTS=... takes as a shard, and the code a shard
# records, without ssh or boots (tests/slow/ssh_shards.sh checks both in whole
# runs over ssh):
#  - scripts/shard-run.sh --check DIR takes a shard of regular files and
#    directories, a boot's file of 16 MiB; it refuses, naming the path, a
#    symbolic link (DIR itself included), a FIFO, a file over 256 MiB (a
#    sparse one: its size, not its blocks), a boot's file over 16 MiB;
#  - --commit is HEAD's commit in a clean checkout, COMMIT+TREE with an
#    uncommitted change to a script (another TREE for another change), or
#    with an untracked source file (the Makefile compiles bench/*/*.c by
#    wildcard), not with an ignored one, and
#    the commit alone when only make reproduce's own output changed
#    (studies/*/run/, REPORT.md).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "shard checks"
check() { scripts/shard-run.sh --check "$@"; }

# --- --check -----------------------------------------------------------------------
d=$tmp/shard
mkdir -p "$d/boots/c0-r0"
echo boot_id >"$d/raw.csv"
truncate -s 16M "$d/boots/c0-r0/console.log"
msg=$(check "$d" 2>&1) && [ -z "$msg" ] &&
	ok "--check takes a shard of regular files and directories, a boot's file of 16 MiB" ||
	bad "--check of a plain shard: $msg"
# refused LABEL PATH WHAT: --check DIR fails, naming PATH as WHAT; PATH removed
refused() {
	local msg
	if msg=$(check "$d" 2>&1); then
		bad "--check took a shard holding $1"
	else
		grep -qF "$2 is $3" <<<"$msg" && ok "--check refuses $1 in a shard, naming it: $msg" ||
			bad "--check of a shard with $1: $msg"
	fi
	rm -rf -- "$2"
}
ln -s /etc "$d/boots/c0-r0/etc"
refused "a symbolic link to /etc" "$d/boots/c0-r0/etc" "a symbolic link"
mkfifo "$d/fifo"
refused "a FIFO" "$d/fifo" "a FIFO"
# (a device node: made as root only, /dev/null's numbers)
! mknod "$d/null" c 1 3 2>/dev/null || refused "a device node" "$d/null" "a device node"
truncate -s 301M "$d/sparse"
refused "a sparse file of 301 MiB" "$d/sparse" "$((301 << 20)) bytes"
truncate -s $(((16 << 20) + 1)) "$d/boots/c0-r0/channel"
refused "a boot's file of 16 MiB and a byte" "$d/boots/c0-r0/channel" "$(((16 << 20) + 1)) bytes"
ln -s "$d" "$tmp/link"
if msg=$(check "$tmp/link" 2>&1); then
	bad "--check took a shard that is a symbolic link"
else
	grep -qF "$tmp/link is a symbolic link" <<<"$msg" && ok "--check refuses a shard that is a symbolic link" ||
		bad "--check of a linked shard: $msg"
fi

# --- --commit ----------------------------------------------------------------------
c=$tmp/checkout
mkdir -p "$c/scripts" "$c/studies/one/run"
cp scripts/shard-run.sh "$c/scripts/"
echo a >"$c/studies/one/run/raw.csv"
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
# an untracked file is code too (bench/*/*.c is compiled by wildcard); an
# ignored one (build/) is not
mkdir -p "$c/bench/ground" "$c/build"
echo 'build/' >"$c/.git/info/exclude"
echo 'int extra;' >"$c/bench/ground/extra.c"
echo 'built' >"$c/build/crngbench-run"
out=$(code)
[[ $out =~ ^$head\+[0-9a-f]{40}$ ]] && rm "$c/bench/ground/extra.c" && [ "$(code)" = "$head" ] &&
	ok "--commit with an untracked bench/ground/extra.c is COMMIT+TREE; an ignored build/ changes nothing" ||
	bad "--commit with an untracked source file: '$out' (HEAD $head), then without it: '$(code)'"
echo b >>"$c/studies/one/run/raw.csv"
echo again >>"$c/REPORT.md"
# files keep-run writes anew (untracked in a stand-in), and a study page
echo '{}' >"$c/studies/one/run/meta.json"
mkdir -p "$c/studies/two/run" && echo seed >"$c/studies/two/run/seed"
echo page >"$c/studies/one/README.md"
out=$(code)
[ "$out" = "$head" ] && ok "--commit leaves out make reproduce's own output (studies/*/run/, the study pages, REPORT.md)" ||
	bad "--commit with studies/*/run/, a study page and REPORT.md changed: '$out', HEAD $head"
