#!/usr/bin/env bash
# test: make reproduce over real ssh to a second host in a network namespace
# make reproduce HOSTS=:,root@<host> over real ssh, with a second host made
# on this machine: two network namespaces of the test's own (A, where make
# reproduce runs; B, the other host) joined by a veth pair with link-local
# addresses, an sshd (Debian's openssh-server) in B started with a config,
# host key and authorized key made in the test's temp dir, and its own
# mount namespace, where a clone of the stand-in checkout
# (tests/lib/reproduce_standin.sh, fake-qemu boots) is mounted at the stand-in's
# path: the other host's checkout, at the same path, at the same commit,
# with its own results/. ssh finds the key through GNU parallel's
# PARALLEL_SSH ('ssh -F <config>'), as README says; nothing of ~/.ssh is
# read or written. Checked:
#   - the two shards run one on each host, the remote one comes back over
#     ssh (rsync) and is removed on B, the merged run holds every boot of
#     the plan once;
#   - a host at another commit is refused before anything runs, naming it;
#   - a host that drops mid-run (every process of B killed) leaves the run
#     unmerged with "make reproduce again resumes it", and it does;
#   - a host holding a shard of another matrix sets it aside and runs the
#     shard again: the merged run is this matrix's plan;
#   - B with this checkout itself (A's mounted at the path: a shared
#     filesystem) is refused before anything runs, naming it: nothing is
#     run, returned onto itself or removed;
#   - a host whose checkout has an uncommitted edit to a script is refused
#     before anything runs, naming it;
#   - a symbolic link to /etc, a FIFO and a device node put into B's shard
#     while it runs do not come back (rsync without -lD); the run merges;
#   - a sparse file of 301 MiB put into B's shard while it runs is refused
#     on B, named, and does not come back; the run is not merged.
# Everything is removed on exit (sshd, namespaces, veth, temp dir). SKIP,
# with the reason, where namespaces or sshd cannot be made.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "ssh shards"
skip() { echo "SKIP: ssh shards: $*"; exit 0; }
brief() { tail -n 6 <<<"$1" | tr '\n' ' ' | head -c 800; }

[ "$(id -u)" = 0 ] || skip "network namespaces and an sshd of the test's own need root"
for c in ip unshare /usr/sbin/sshd ssh ssh-keygen rsync parallel; do
	command -v "$c" >/dev/null ||
		skip "'$c' is not installed (scripts/deps.sh installs iproute2's ip, openssh-server, rsync, parallel)"
done

na=crngssh$$a nb=crngssh$$b
# link-local addresses, only ever inside the test's two namespaces
net=169.254.$(($$ % 200 + 20))
a_ip=$net.1 b_ip=$net.2
cleanup() {
	local p
	for ns in "$nb" "$na"; do
		# the processes the test started there (sshd, its sessions)
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
		ip netns del "$ns" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
ip netns add "$na" 2>"$tmp/err" && ip netns add "$nb" 2>>"$tmp/err" ||
	skip "cannot make a network namespace here (ip netns add: $(head -c 200 "$tmp/err"))"
# the veth's two ends made inside the namespaces: the root one is untouched
if ! { ip link add cs$$a netns "$na" type veth peer name cs$$b netns "$nb" &&
	ip -n "$na" addr add "$a_ip/30" dev cs$$a && ip -n "$nb" addr add "$b_ip/30" dev cs$$b &&
	ip -n "$na" link set lo up && ip -n "$nb" link set lo up &&
	ip -n "$na" link set cs$$a up && ip -n "$nb" link set cs$$b up; } 2>"$tmp/err"; then
	skip "cannot join two namespaces by a veth pair: $(head -c 200 "$tmp/err")"
fi

# the stand-in checkout (A) and its clone (B, mounted at the same path there)
# shellcheck source=tests/lib/reproduce_standin.sh
. tests/lib/reproduce_standin.sh
s=$tmp/s remote=$tmp/remote
FAKE_DELAY=2 standin "$s" || { bad "cannot make the stand-in checkout"; exit 0; }
# (its build/ newer than the clone's sources: make there builds nothing)
git clone -q "$s" "$remote" && cp -a "$s/build" "$remote/" &&
	{ [ ! -d "$remote/build/unit" ] || find "$remote/build/unit" -type f -exec touch {} +; } && touch "$remote"/build/* ||
	{ bad "cannot clone the stand-in checkout"; exit 0; }

# ssh: keys and configs of the test's own
ssh-keygen -q -t ed25519 -N '' -f "$tmp/hostkey" && ssh-keygen -q -t ed25519 -N '' -f "$tmp/id" ||
	{ bad "ssh-keygen failed"; exit 0; }
cp "$tmp/id.pub" "$tmp/authorized_keys"
echo "$b_ip $(cut -d' ' -f1,2 "$tmp/hostkey.pub")" >"$tmp/known_hosts"
cat >"$tmp/sshd_config" <<EOF
ListenAddress $b_ip
HostKey $tmp/hostkey
AuthorizedKeysFile $tmp/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile none
MaxStartups 50
LogLevel ERROR
EOF
cat >"$tmp/ssh_config" <<EOF
Host *
	IdentityFile $tmp/id
	IdentitiesOnly yes
	UserKnownHostsFile $tmp/known_hosts
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking yes
	BatchMode yes
	ConnectTimeout 10
	ServerAliveInterval 2
	ServerAliveCountMax 3
EOF

# start_b [DIR]: sshd in B, in a mount namespace of its own where the clone
# (or DIR) is the checkout (at the stand-in's path) and /run a tmpfs
# (sshd's /run/sshd), so nothing outside the test's temp dir changes.
# stop_b: every process of B killed.
start_b() {
	(ip netns exec "$nb" unshare -m --propagation private sh -c '
		mount --bind "$1" "$2" && mount -t tmpfs tmpfs /run && mkdir -m 755 /run/sshd &&
		exec /usr/sbin/sshd -D -e -f "$3"' sh "${1:-$remote}" "$s" "$tmp/sshd_config" 2>>"$tmp/sshd.log" &)
	for _ in $(seq 100); do
		ip netns exec "$na" ssh -F "$tmp/ssh_config" "root@$b_ip" true 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}
stop_b() { for p in $(ip netns pids "$nb"); do kill -9 "$p" 2>/dev/null; done; }
start_b || skip "the sshd in the test's namespace does not answer: $(tail -n 3 "$tmp/sshd.log" | tr '\n' ' ')"
# ssh from A to B reaches the clone, not the stand-in (an untracked file
# of the clone alone)
echo B >"$remote/.which-host"
there=$(ip netns exec "$na" ssh -F "$tmp/ssh_config" "root@$b_ip" cat "$s/.which-host" 2>&1)
if [ "$there" = B ] && [ ! -e "$s/.which-host" ]; then
	ok "root@$b_ip answers over ssh between the test's namespaces, with its own checkout at $s"
else
	bad "ssh to root@$b_ip does not see the clone at $s: $there"
fi
# (an untracked file is code: scripts/shard-run.sh --commit counts it)
rm -f "$remote/.which-host"

hosts=":,root@$b_ip"
# reproduce: make reproduce in A, as README shows it; its output
# in $tmp/out and $out, its exit status in $tmp/rc and $rc
reproduce() {
	(cd "$s" && ip netns exec "$na" env PARALLEL_SSH="ssh -F $tmp/ssh_config" \
		make reproduce RUNS=one HOSTS="$hosts" QEMU=tests/lib/fake-qemu) >"$tmp/out" 2>&1
	echo $? >"$tmp/rc"
}
result() { out=$(cat "$tmp/out"); rc=$(cat "$tmp/rc"); }
expected=$(cd "$s" && build/crngbench-run --matrix bench/mini.matrix --print-axis plan |
	awk -F, 'NR > 1 { for (r = 0; r < $2; r++) print $1 "," r }' | sort)
cells() { paste -d, <(tests/lib/csvget.py "$1/raw.csv" cell) <(tests/lib/csvget.py "$1/raw.csv" rep) | sort; }
same_as_plan() { [ -n "$expected" ] && [ "$(cells "$1" 2>/dev/null)" = "$expected" ]; }
run=$s/results/reproduce/one sd=$s/results/reproduce/shards/one rsd=$remote/results/reproduce/shards/one
# fresh: the run, its kept copy and both hosts' results removed
fresh() { rm -rf "$s/results" "$s/studies/one/run" "$remote/results"; }
# midrun CMD...: reproduce in the background; once B's shard has started
# (its run.matrix: its first boot takes FAKE_DELAY s), CMD ... DIR, DIR the
# shard in B's checkout; then the run's end (result)
midrun() {
	local rpid d=''
	reproduce &
	rpid=$!
	for _ in $(seq 600); do
		d=$(compgen -G "$rsd/shard-*/run.matrix" | head -n 1)
		[ -z "$d" ] || break
		sleep 0.1
	done
	if [ -n "$d" ]; then "$@" "${d%/run.matrix}"; else bad "B's shard did not start: $(brief "$(cat "$tmp/out")")"; fi
	wait "$rpid"
	result
}
merged_ok() {
	if [ "$rc" = 0 ] && same_as_plan "$run" && [ -f "$s/studies/one/run/raw.csv" ]; then
		ok "$1: the merged run holds every boot of the plan once ($(wc -l <<<"$expected") boots), kept in studies/one/run"
	else
		bad "$1: exit $rc, merged run against the plan: $(diff <(echo "$expected") <(cells "$run" 2>&1) | head -4 | tr '\n' ' '); $(brief "$out")"
	fi
}

# 1. The two-host run: one shard per host, the remote one returned.
reproduce
result
if [ "$rc" = 0 ] && grep -q '^\[one 1/2\]' <<<"$out" && grep -q '^\[one 2/2\]' <<<"$out" &&
	[ -f "$sd/shard-1/raw.csv" ] && [ -f "$sd/shard-2/raw.csv" ]; then
	ok "make reproduce HOSTS=$hosts runs shards 1/2 and 2/2 and has both back"
else
	bad "make reproduce HOSTS=$hosts: exit $rc: $(brief "$out")"
fi
# B's checkout made its shard directory, and make reproduce removed it once the
# shard was back
if [ -d "$rsd" ] && [ -z "$(ls -A "$rsd")" ]; then
	ok "a shard ran in B's checkout and came back over ssh (B's copy removed)"
else
	bad "B's shard directory after the run holds: $(cd "$rsd" 2>&1 && find . | head -n 8 | tr '\n' ' ')"
fi
merged_ok "two hosts"

# 2. A host at another commit: refused before anything runs, naming it.
fresh
git -C "$remote" -c user.name=t -c user.email=t@localhost commit -q --allow-empty -m "another commit"
reproduce
result
if [ "$rc" != 0 ] && grep -q "must be at this commit" <<<"$out" && grep -q "root@$b_ip" <<<"$out" &&
	[ ! -e "$sd" ] && [ ! -e "$rsd" ]; then
	ok "a host at another commit is refused before anything runs, naming it"
else
	bad "a host at another commit: exit $rc: $(brief "$out")"
fi
git -C "$remote" reset -q --hard HEAD~1

# 3. A host that drops mid-run: every process of B killed while its shard
# boots (its first boot takes FAKE_DELAY s). The run is not merged and
# says how to go on; run again with B back, it completes.
fresh
midrun stop_b
if [ "$rc" != 0 ] && grep -q "did not finish.*make reproduce again resumes it" <<<"$out" &&
	[ ! -e "$run" ] && [ ! -e "$s/studies/one/run" ] && compgen -G "$rsd/shard-*/run.matrix" >/dev/null; then
	ok "a host that drops mid-run: the run is not merged, and make reproduce says it resumes it"
else
	bad "a host that drops mid-run: exit $rc, merged: $([ -e "$run" ] && echo yes || echo no): $(brief "$out")"
fi
start_b || { bad "sshd in B does not start again"; exit 0; }
reproduce
result
merged_ok "run again with the host back"

# 4. A host holding a shard of another matrix (reps and min_reps 1, not 3) under this
# run's seed: it sets it aside, named, and runs the shard again; nothing of
# it is merged.
seed=$(cat "$sd/seed")
fresh
mkdir -p "$sd" "$rsd"
echo "$seed" >"$sd/seed"
echo 2 >"$sd/count"
(cd "$s" && sed 's/^reps = .*/reps = 1/; s/^min_reps = .*/min_reps = 1/' bench/mini.matrix >"$tmp/other.matrix" &&
	for k in 1 2; do
		build/crngbench-run --matrix "$tmp/other.matrix" --seed "$seed" --shard $k/2 --qemu tests/lib/fake-qemu \
			--image build/guest.cpio --quiet --out "$rsd/shard-$k" >/dev/null 2>&1 || exit 1
	done) || { bad "cannot make the shards of another matrix"; exit 0; }
reproduce
result
if grep -q "is not shard ./2 of this run (its plan (run.matrix) is not bench/mini.matrix's" <<<"$out" &&
	compgen -G "$rsd/shard-*.other-*" >/dev/null; then
	ok "a host holding a shard of another matrix sets it aside, naming it, and runs the shard again"
else
	bad "a shard of another matrix on the host: exit $rc: $(brief "$out")"
fi
merged_ok "with a shard of another matrix on the host"

# 5. B with this checkout itself: A's mounted at its path, as a shared
# filesystem would. Refused before anything runs, naming it; nothing of
# the check is left.
stop_b
start_b "$s" || { bad "sshd in B does not start with A's checkout"; exit 0; }
fresh
reproduce
result
if [ "$rc" != 0 ] && grep -q "root@$b_ip sees the files made here" <<<"$out" && [ ! -e "$sd" ] &&
	! compgen -G "$s/.crngbench-host*" >/dev/null; then
	ok "a host whose checkout is this one is refused before anything runs, naming it"
else
	bad "a host whose checkout is this one: exit $rc, shards: $(ls "$sd" 2>&1 | tr '\n' ' '): $(brief "$out")"
fi
stop_b
start_b || { bad "sshd in B does not start again with its clone"; exit 0; }

# 6. A host whose checkout has an uncommitted edit to a script: its code
# is not this one's. Refused before anything runs, naming it.
fresh
echo "# an uncommitted edit" >>"$remote/scripts/keep-run.sh"
reproduce
result
if [ "$rc" != 0 ] && grep -q "must hold this one's code.*root@$b_ip" <<<"$out" && [ ! -e "$sd" ] && [ ! -e "$rsd" ]; then
	ok "a host with an uncommitted edit to a script is refused before anything runs, naming it"
else
	bad "a host with an uncommitted edit: exit $rc: $(brief "$out")"
fi
git -C "$remote" checkout -q -- scripts/keep-run.sh

# 7. A symbolic link to /etc, a FIFO and a device node (/dev/null's
# numbers) in B's shard: none comes back, and the run merges.
fresh
junk() { ln -s /etc "$1/etc" && mkfifo "$1/fifo" && mknod "$1/null" c 1 3; }
midrun junk
odd=$(find "$sd" ! -type f ! -type d 2>&1)
if [ -z "$odd" ] && [ -d "$sd/shard-1" ] && [ -d "$sd/shard-2" ]; then
	ok "a link to /etc, a FIFO and a device node in B's shard do not come back"
else
	bad "a link, a FIFO and a device node in B's shard: came back: $(tr '\n' ' ' <<<"$odd")"
fi
merged_ok "with a link, a FIFO and a device node in B's shard"

# 8. A sparse file of 301 MiB (no block on disk) in B's shard:
# refused on B, named; the shard does not come back, the run is not merged.
fresh
big() { truncate -s 301M "$1/big"; }
midrun big
if [ "$rc" != 0 ] && grep -q "shard-./big is $((301 << 20)) bytes" <<<"$out" &&
	! compgen -G "$sd/shard-*/big" >/dev/null && [ ! -e "$run" ]; then
	ok "a sparse file of 301 MiB in B's shard is refused there, named, and does not come back"
else
	bad "a sparse file of 301 MiB in B's shard: exit $rc, here: $(ls -ls "$sd"/shard-*/big 2>&1 | tr '\n' ' '): $(brief "$out")"
fi
