#!/usr/bin/env bash
# test: your own patch, measured and mailed: make post RUN= (a stand-in kernel tree)
# Issue 47: a new user's own random.c patch, measured and mailed. In a
# scratch copy of the checkout (a git clone of its own), the patch, which
# is not in the repository, goes into base 6.1's series with a variant of
# its own (kernel/variants), as README's "Your own kernel or patch" says;
# the fixture run stands in for a run of it (its block-v0 renamed to that
# variant, meta.json naming the patch by file and sha256), reached through
# results/latest; a stand-in kernel/build.sh --tree gives a stand-in tree
# (the pristine random.c and a get_maintainer.pl). Then make post
# RUN=results/latest:
# - without a git identity: refused, saying how to set one; nothing
#   written, no tracked file changed;
# - with one: the run's real directory gets series/: the cover letter and
#   exactly that patch as [PATCH 1/1], From and Signed-off-by the
#   identity (no placeholder anywhere), To and Cc get_maintainer.pl's;
#   the cover letter quotes the run's figures for that variant against
#   its baseline (stock), each as summary.csv's cell (cells.fmt), every
#   cell whose CIs do not overlap, names the run's real directory, and
#   reproduces it with its overrides (VARIANTS, ACCELS, REPS, the seed)
#   from its run.matrix, though its last command was a --resume; it
#   names its base (base: Debian linux-source-6.1 6.1.192, no invented
#   base-commit:) and HZ, smp, trust_cpu and nocounter=on in 72 columns;
#   plain text, no attachment, lines of at most 80 columns; no tracked
#   file changed;
# - the checkout's uncommitted patch and variant are named as a warning,
#   gone once committed (the reproduce line then names that commit); a
#   commit beyond origin/main: the mail names both, and the files;
# - the patch file changed after the run: refused (not what was measured).
# - build noise is not sold as the patch's effect (runmail.py's head): in a
#   run of stock and mine where mine's CRNG ready is +1024 ms in the cell
#   whose knob skipped the jitter trial and +3 ms in the trial's cell,
#   both cells are listed (n, medians, CIs, both kernel start to PID 1),
#   the knob's marked, and the headline is the trial's cell; where mine's
#   trials counted another number of samples per bit, that cell is marked
#   and no cell is headlined.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "own patch"
unset MAKEFLAGS MAKELEVEL GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_DIR GIT_WORK_TREE
export GIT_CONFIG_NOSYSTEM=1 HOME=$tmp/home
mkdir -p "$HOME"
co=$tmp/co
if ! { tree_copy "$co" && runner_copy "$co"; }; then
	bad "cannot copy the checkout and its runner"
	exit 0
fi
# the stand-in kernel tree: the pristine random.c beside it (TREE.orig)
k=$tmp/kernel
mkdir -p "$k/tree/scripts" "$k/tree.orig/drivers/char"
cat >"$k/tree/scripts/get_maintainer.pl" <<'EOF'
print((grep { $_ eq "--nom" } @ARGV) ? "rng-list\@lists.test\n" : "Rng Maintainer <rng\@maintainers.test>\n");
EOF
printf 'static int crng_ready(void)\n{\n\treturn 0;\n}\n' >"$k/tree.orig/drivers/char/random.c"
cat >"$co/kernel/build.sh" <<EOF
#!/bin/sh
# a stand-in (tests/fast/own_patch.sh): --tree names the stand-in tree;
# --status keys a kernel by the diff of the user's patch (as build.sh:
# from its first diff line on), not by its message
[ "\$1" = --tree ] && echo "$k/tree"
[ "\$1" = --status ] && echo "\$2 built warm \$(sed -n '/^diff /,\$p' "$co"/kernel/patches/0010-*.patch | sha256sum | cut -c1-16) $k/build"
exit 0
EOF
g() { git -C "$co" -c user.name=standin -c user.email=standin@checkout.test "$@"; }
if ! { g init -q && g add -A && g commit -qm "stand-in checkout"; }; then
	bad "git init in the copy failed"
	exit 0
fi
# the user's patch, as git format-patch writes it
u=$tmp/user
mkdir -p "$u/drivers/char" && cp "$k/tree.orig/drivers/char/random.c" "$u/drivers/char/"
ug() { git -C "$u" -c user.name="Grace Hopper" -c user.email=grace@navy.test "$@"; }
if ! { ug init -q && ug add -A && ug commit -qm base && sed -i 's/return 0;/return 1;/' "$u/drivers/char/random.c" &&
	ug commit -qa -s -m "random: report the CRNG ready at once" -m "A one-line change, measured." &&
	ug format-patch -q -o "$tmp/fp" -1; }; then
	bad "git format-patch of the user's patch failed"
	exit 0
fi
patch=kernel/patches/0010-random-report-the-CRNG-ready-at-once.patch
cp "$tmp"/fp/0001-*.patch "$co/$patch"
echo "mine        0001 0005 0007 0010" >>"$co/kernel/variants"
sha=$(sha256sum <"$co/$patch" | cut -c1-64)
# the fixture run, block-v0 renamed mine: a run of stock and the patch
name=quick-20260101T000000Z
run=$co/results/$name
mkdir -p "$co/results" && cp -r tests/fixtures/run "$run" && ln -s "$name" "$co/results/latest"
MINE_KEY=$(cd "$co" && kernel/build.sh --status mine | cut -d' ' -f4) python3 - "$run" "$patch" "$sha" <<'PY'
import csv, json, os, sys
run, patch, sha = sys.argv[1:]
for f in ("raw.csv", "summary.csv", "reads.csv", "traces.csv"):
    p = os.path.join(run, f)
    if not os.path.exists(p):
        continue
    rows = list(csv.DictReader(open(p, newline="")))
    head = open(p).readline().strip().split(",")
    for r in rows:
        if r.get("variant") == "block-v0":
            r["variant"] = "mine"
        if "release" in r:
            r["release"] = r["release"].replace("-block-v0", "-mine")
    with open(p, "w", newline="") as fh:
        w = csv.DictWriter(fh, head, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
m = json.load(open(os.path.join(run, "meta.json")))
k = m["kernels"]
k["mine-hz250"] = dict(k.pop("block-v0-hz250"), release="6.1.192-crngbench-mine",
                       patches=k["stock-hz250"]["patches"] + f"; {os.path.basename(patch)} {sha}",
                       input_key=os.environ["MINE_KEY"])
# grown by its last command (make run RESUME=...): no variant on it
m["command_line"] = ["build/crngbench-run", "--resume", "--set", "accel=tcg,kvm", "--image", "build/guest.cpio",
                     "--out", "results/x"]
json.dump(m, open(os.path.join(run, "meta.json"), "w"), indent=1)
mx = open(os.path.join(run, "run.matrix")).read().replace("block-v0", "mine")
open(os.path.join(run, "run.matrix"), "w").write(mx)
PY
state() { git -C "$co" status --porcelain --untracked-files=all; }
before=$(state)
files() { find "$run" | sort; }
had=$(files)

# --- no identity: refused, nothing written -----------------------------------
out=$(make -s -C "$co" post RUN=results/latest 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "git config --global user.email" <<<"$out" && [ "$(files)" = "$had" ] &&
	[ "$(state)" = "$before" ]
verdict $? "without a git identity make post refuses, says how to set one, and writes nothing" "rc $rc: $(brief "$out")"

# --- with one ----------------------------------------------------------------
export GIT_AUTHOR_NAME="Grace Hopper" GIT_AUTHOR_EMAIL=grace@navy.test
out=$(make -s -C "$co" post RUN=results/latest 2>&1)
rc=$?
s=$run/series
verdict $rc "make post RUN=results/latest with a git identity writes the mail" "$(brief "$out")"
[ "$(state)" = "$before" ]
verdict $? "make post changes no tracked file and adds none git would see" "$(state | head -n 5 | tr '\n' ' ')"
py=$(python3 tests/lib/runmail_check.py "own patch" "$s" "$co/$patch" "$run" "$co" "Grace Hopper <grace@navy.test>" 2>&1)
echo "$py"
grep -q '^PASS: .*the patch is \[PATCH 1/1\]' <<<"$py" || bad "the mail could not be read: $(brief "$py")"
grep -q "^To: Rng Maintainer <rng@maintainers.test>$" "$s"/0001-*.patch && grep -q "^To: Rng Maintainer <rng@maintainers.test>$" "$s/0000-cover-letter.patch" &&
	[ "$(grep -h "^Cc: " "$s"/*.patch | sort -u)" = "Cc: rng-list@lists.test" ]
verdict $? "To and Cc are the tree's get_maintainer.pl's" "$(grep -h "^To: \|^Cc: " "$s"/*.patch | sort -u | tr '\n' ' ')"
c=$s/0000-cover-letter.patch
grep -q "VARIANTS=stock,legacy,block,mine" "$c" && grep -q "ACCELS=tcg,kvm" "$c" && grep -q "REPS=4" "$c" &&
	grep -q -- "--seed 8770380678979" "$c" && ! grep -q "resumed or grown" "$c"
verdict $? "a grown run's reproduce line has its run.matrix's VARIANTS, ACCELS, REPS and its seed, not its last command's" \
	"$(grep -A3 "^To reproduce" "$c" | tr '\n' ' ')"
# the base, precisely, and the conditions random.c depends on, in 72
# columns: no invented base-commit: for a Debian source tree
grep -qx "base: Debian linux-source-6.1 6.1.192" "$c" && ! grep -q "^base-commit:" "$c" &&
	tr "\n" " " <"$c" | grep -q "the run booted 6.1.192-crngbench-block, .*6.1.192-crngbench-mine," &&
	grep -qx "  HZ=250: CONFIG_HZ, the kernel's timer tick rate" "$c" && grep -q "^  smp=1: " "$c" &&
	grep -q "^  trust_cpu=on: random.trust_cpu=on, " "$c" &&
	tr '\n' ' ' <"$c" | grep -q "  nocounter=on: a test-only boot parameter, random.no_cycle_counter, *that makes random_get_entropy() return 0 to stand in for machines *without a cycle counter" &&
	! sed -n '/^The conditions/,/^The run:/p' "$c" | grep -q '.\{73\}'
verdict $? "the cover letter names the base (base: Debian linux-source-6.1 6.1.192, no base-commit:) and HZ, smp, trust_cpu, nocounter in 72 columns" \
	"$(sed -n '/^The conditions/,/^base:/p' "$c" | tr '\n' '|')"
grep -q "WARNING: the crngbench checkout held changes" "$s/0000-cover-letter.patch" &&
	grep -q "kernel/variants" "$s/0000-cover-letter.patch" && grep -q "WARNING" <<<"$out"
verdict $? "the patch and variant not committed: the mail and make post warn, naming them" "$(brief "$out")"

# committed: no warning, and the reproduce line names that commit
g add -A && g commit -qm "my patch, as a variant"
out=$(make -s -C "$co" post RUN="$run" 2>&1)
rc=$?
head=$(git -C "$co" rev-parse --short=12 HEAD)
[ $rc -eq 0 ] && ! grep -q WARNING "$s/0000-cover-letter.patch" && grep -q "crngbench at $head " "$s/0000-cover-letter.patch"
verdict $? "once committed: no warning, the reproduce line names the commit" "rc $rc: $(brief "$out")"
[ $rc -eq 0 ] && ! grep -q "origin/main" "$s/0000-cover-letter.patch"
verdict $? "without an origin no upstream commit is named" "$(grep origin "$s/0000-cover-letter.patch")"
# the commit is local: origin/main is the stand-in checkout's commit
up=$(git -C "$co" rev-parse --short=12 HEAD~1)
g update-ref refs/remotes/origin/main HEAD~1
out=$(make -s -C "$co" post RUN="$run" 2>&1)
rc=$?
tr '\n' ' ' <"$s/0000-cover-letter.patch" | grep -q "crngbench's $up (origin/main) with this checkout's own commits.* which change *kernel/patches/0010-random-report-the-CRNG-ready-at-once.patch, *kernel/variants\."
verdict $? "a local commit: the mail names the upstream commit it is on and the files its own commits change" \
	"rc $rc: $(grep -A2 "origin" "$s/0000-cover-letter.patch" | tr '\n' ' ')"
g update-ref -d refs/remotes/origin/main

# build noise against the patch's effect (plots/runmail.py's head): a run
# of stock and mine, the committed quick run's icount boots of stock on
# qemu64 and the same boots as mine, its kernel start to PID 1 2 us later
# (another image's layout) and its CRNG ready +1024 ms where the knob
# skipped the jitter trial (nocounter=on), +3 ms where the trial ran;
# MODE perbit: mine's trials counted one sample per bit more
noise() {
	python3 - studies/quick/run "$co/results/$1" "$patch" "$sha" "$1" <<'PY' &&
import csv, json, os, shutil, sys
src, run, patch, sha, mode = sys.argv[1:]
os.makedirs(run)
for f in ("meta.json", "run.matrix", "seed"):
    shutil.copy(os.path.join(src, f), run)
with open(os.path.join(src, "raw.csv"), newline="") as fh:
    rd = csv.DictReader(fh)
    head, rows = rd.fieldnames, [r for r in rd if (r["variant"], r["accel"], r["cpu"]) == ("stock", "icount", "qemu64")]
mine = []
for i, r in enumerate(rows):  # the plan's cells: stock off, stock on, mine off, mine on
    on = int(r["nocounter"] == "on")
    r.update(cell=str(on), run_index=str(i), boot_id=f"c{on}-r{r['rep']}")
    m = dict(r, variant="mine", release=r["release"].replace("-stock", "-mine"), cell=str(on + 2),
             boot_id=f"c{on + 2}-r{r['rep']}", run_index=str(i + len(rows)), init_ns=str(int(r["init_ns"]) + 2000))
    for c in ("crng_ready_ns", "crng_ready_kmsg_ns", "crng_ready_poll_ns"):
        if r[c]:
            m[c] = str(int(r[c]) + (1024 if on else 3) * 10**6)
    if mode == "perbit" and r["jitter_per_bit"]:
        m["jitter_per_bit"] = str(int(r["jitter_per_bit"]) + 1)
    mine.append(m)
with open(os.path.join(run, "raw.csv"), "w", newline="") as fh:
    w = csv.DictWriter(fh, head, lineterminator="\n")
    w.writeheader()
    w.writerows(rows + mine)
m = json.load(open(os.path.join(run, "meta.json")))
k = m["kernels"]["stock-hz250"]
m["kernels"] = {"stock-hz250": k, "mine-hz250": dict(k, release="6.1.192-crngbench-mine",
                                                     patches=k["patches"] + f"; {os.path.basename(patch)} {sha}")}
m["command_line"] = ["build/crngbench-run", "--matrix", "bench/quick.matrix", "--out", "results/x"]
json.dump(m, open(os.path.join(run, "meta.json"), "w"), indent=1)
mx = open(os.path.join(run, "run.matrix")).read()
for was, now in (("stock,legacy,block,block-v0", "stock,mine"), ("icount,tcg,kvm", "icount"), ("qemu64,max", "qemu64")):
    mx = mx.replace(f" = {was}\n", f" = {now}\n")
open(os.path.join(run, "run.matrix"), "w").write(mx)
PY
		"$co/build/crngbench-run" --summarize "$co/results/$1" >/dev/null
}
# flat NAME: NAME's cover letter on one line, its spaces squeezed
flat() { tr '\n' ' ' <"$co/results/$1/series/0000-cover-letter.patch" | tr -s ' '; }
if ! { noise trial && noise perbit; }; then
	bad "the runs of build noise could not be made from studies/quick/run"
else
	# med VARIANT NOCOUNTER MEASURE: the trial run's median, ms
	med() { tests/lib/csvget.py "$co/results/trial/summary.csv" median_ms variant="$1" nocounter="$2" measure="$3"; }
	out=$(make -s -C "$co" post RUN=results/trial 2>&1)
	rc=$?
	c=$(flat trial)
	cell="stock [^;]*; n=5 mine [^;]*; n=5 medians"
	[ $rc -eq 0 ] && grep -q "Headline: CRNG ready, icount, cpu=qemu64: $(med stock off crng_ready) ms (stock), $(med mine off crng_ready) ms (mine), +3.000 ms: the largest difference" <<<"$c" &&
		grep -q "icount, cpu=qemu64, no counter $cell +1024.000 ms (mine minus stock); kernel start to PID 1: $(med stock on kernel_to_init) ms (stock), $(med mine on kernel_to_init) ms (mine) not the patch alone: knob: jitter trial skipped" <<<"$c"
	verdict $? "a knob cell +1024 ms is listed and marked (knob: jitter trial skipped); the headline is the trial's cell, +3 ms" \
		"rc $rc: $(grep -o "Headline: .\{150\}" <<<"$c") $(brief "$out")"
	grep -q "icount, cpu=qemu64 $cell +3.000 ms (mine minus stock); kernel start to PID 1: $(med stock off kernel_to_init) ms (stock), $(med mine off kernel_to_init) ms (mine) " <<<"$c" &&
		py=$(python3 tests/lib/runmail_check.py noise "$co/results/trial/series" "$co/$patch" "$co/results/trial" "$co" \
			"Grace Hopper <grace@navy.test>" 2>&1) && grep -q "^PASS: noise: the cover letter quotes [0-9]* figures of mine and stock, each summary.csv.s cell" <<<"$py"
	verdict $? "the trial's cell is listed with n, medians, CIs (summary.csv's) and both variants' kernel start to PID 1" "$(grep -o "icount, cpu=qemu64 stock.\{200\}" <<<"$c")"
	out=$(make -s -C "$co" post RUN=results/perbit 2>&1)
	rc=$?
	c=$(flat perbit)
	[ $rc -eq 0 ] && grep -q "Headline: no cell isolates the patch" <<<"$c" &&
		grep -q "(mine) not the patch alone: trials counted 1 (stock) vs 2 (mine) samples per bit: the kernel images differ, not only the patch" <<<"$c"
	verdict $? "trials that counted 1 vs 2 samples per bit: the cell is marked, not headlined" \
		"rc $rc: $(grep -o "Headline: .\{150\}" <<<"$c") $(brief "$out")"
fi

# only its message reworded since the run: the kernel it builds keys as
# the run's did (meta.json's input_key), so the mail goes out, reworded
cp "$co/$patch" "$tmp/patch.measured"
sed -i 's/^A one-line change, measured\./A one-line change, measured, and its message reworded./' "$co/$patch"
out=$(make -s -C "$co" post RUN="$run" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "its message reworded" "$s/0001-random-report-the-CRNG-ready-at-once.patch"
verdict $? "a patch whose message alone was reworded after the run is mailed, reworded (its kernel's key unchanged)" "rc $rc: $(brief "$out")"
# its subject reworded too: git format-patch names the file anew; the
# series' patch of that number is the one, its kernel keying as measured
renamed=kernel/patches/0010-random-report-the-CRNG-ready-immediately.patch
sed 's/^Subject: \[PATCH\] random: report the CRNG ready at once/Subject: [PATCH] random: report the CRNG ready immediately/' \
	"$co/$patch" >"$co/$renamed" && rm "$co/$patch"
out=$(make -s -C "$co" post RUN="$run" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^Subject: \[PATCH 1/1\] random: report the CRNG ready immediately" "$s"/0001-*immediately.patch
verdict $? "its subject reworded too (a new file name): mailed under the new subject" "rc $rc: $(brief "$out")"
rm -f "$co/$renamed" "$s"/0001-*immediately.patch
cp "$tmp/patch.measured" "$co/$patch"

# the patch changed since the run booted it: refused, nothing rewritten
echo "# changed" >>"$co/$patch"
cp "$s/0000-cover-letter.patch" "$tmp/cover.before"
out=$(make -s -C "$co" post RUN="$run" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "the kernels it builds are not the ones the run measured" <<<"$out" && cmp -s "$tmp/cover.before" "$s/0000-cover-letter.patch"
verdict $? "a patch file changed since the run is refused: the mail would send what was not measured" "rc $rc: $(brief "$out")"

# a run of the project's variants alone (the fixture as it is: stock,
# legacy, block, block-v0) has no patch: one [RFC] of its figures, each
# variant against the one it adds a patch to
rfc=$co/results/rfc
cp -r tests/fixtures/run "$rfc"
out=$(make -s -C "$co" post RUN="$rfc" 2>&1)
rc=$?
[ $rc -eq 0 ] && [ "$(ls "$rfc/series")" = 0000-rfc.patch ] &&
	grep -q '^Subject: \[RFC\] ' "$rfc/series/0000-rfc.patch" && ! grep -q PATCH "$rfc/series/0000-rfc.patch" &&
	grep -q "^From: Grace Hopper <grace@navy.test>" "$rfc/series/0000-rfc.patch" &&
	grep -q "^To: Rng Maintainer <rng@maintainers.test>" "$rfc/series/0000-rfc.patch" &&
	grep -q "block is stock with crngbench's patch 0003 (rfc)" "$rfc/series/0000-rfc.patch"
verdict $? "a run without a patch of its own is one [RFC] of its figures, block against stock" "rc $rc: $(brief "$out")"
# a run of several bases is mailed against its newest (kernel/bases' order)
b=$(cd plots && python3 -c 'import runmail; print(runmail.mail_base({"6.12": {}, "6.1": {}}))' 2>&1)
[ "$b" = 6.12 ]
verdict $? "a run of several bases is mailed against its newest" "$b"
