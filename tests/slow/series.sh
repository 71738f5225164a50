#!/usr/bin/env bash
# test: the series for the list, on the base's tree (git am, checkpatch, get_maintainer.pl)
# make post FROM=committed: the project's mail (plots/series.py from the
# committed runs), sent by the git identity: every mail From it, the
# patch's Signed-off-by its own alone, no placeholder identity anywhere;
# a second run writes the same bytes. One [PATCH] mail per kernel/series
# row (today one), git format-patch's without a cover letter: its
# headers in the order git format-patch --no-numbered --thread=shallow
# --to --cc writes them here (a scratch repository asks this machine's
# git), its 'From <sha>' line, Message-Id form and signature; Subject
# [PATCH] and the patch file's own title, no In-Reply-To or References (a
# thread of its own); at most 25 lines of prose above '---' (not counting
# blank lines, lines starting with a tab or two spaces, trailers), no
# {name} unfilled, 72 columns; after '---' the notes, naming the base
# (Debian's package and the upstream release). To and Cc are the base
# tree's get_maintainer.pl answer. The mail is against the base's
# pristine files (kernel/build.sh keeps them beside its tree, as
# <tree>.orig): its index line's pre-image blob is git hash-object of the
# pristine file, git apply puts every hunk at its stated line (no
# offset), git am -3 applies it to a repository of the pristine files,
# and git am applies it to one of every other base's pristine files
# (SKIP: that base's tree cannot be had); its diff, Date, title and
# trailers are its file's in the base's series. The base's own
# checkpatch.pl --strict passes it. The [RFC] mail, rfc.mbox: Subject
# [RFC] and the template's title, From the identity, Date the patch's,
# Message-Id <rfc.TIME.git.EMAIL>, no In-Reply-To or References, one
# text/plain part (no attachment); To get_maintainer.pl -f's maintainers
# of the patched files, Cc its lists and every plots/rfc-cc address
# (Guenter Roeck, Geert Uytterhoeven, linux-m68k among them), each
# address once and none of To; its body in 72 columns and 70 lines (the patch's prose is held to 25).
# Needs the base's tree (kernel/build.sh --tree): the full tier.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "series"
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@analytical.test
who="$GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"
base=$(awk '!/^#/ && NF { if (seen++) { print $2; exit } }' kernel/series)
if ! tree=$(KERNEL_BASE=$base kernel/build.sh --tree "$(scripts/variants.sh --lines | head -n 1)" 2>"$tmp/err" | tail -n 1) ||
	[ ! -f "$tree/scripts/checkpatch.pl" ]; then
	bad "base $base's tree: kernel/build.sh --tree failed: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
	exit 0
fi
if ! plots/series.py studies "$tmp/series" >"$tmp/out" 2>&1; then
	bad "plots/series.py studies failed: $(head -c 300 "$tmp/out")"
	exit 0
fi
froms=$(grep -h '^From: ' "$tmp"/series/*.patch "$tmp"/series/rfc.mbox | sort -u)
sobs=$(sed '/^---$/,$d' "$tmp"/series/000[1-9]-*.patch | grep '^Signed-off-by:' | sort | uniq -c | awk '{print $1}' | sort -u)
[ "$froms" = "From: $who" ] && [ "$sobs" = 1 ] &&
	[ "$(grep -ch "^Signed-off-by: $who\$" "$tmp"/series/000[1-9]-*.patch | sort -u)" = 1 ] &&
	! grep -qE 'crngbench@|example\.invalid|localhost' "$tmp"/series/*.patch "$tmp"/series/rfc.mbox
verdict $? "every mail is From the git identity, each patch signed off by it alone, no placeholder identity anywhere" \
	"$froms; $(grep -h '^Signed-off-by' "$tmp"/series/*.patch | tr '\n' ' ')"
if plots/series.py studies "$tmp/again" >"$tmp/out" 2>&1 && diff -r "$tmp/series" "$tmp/again" >"$tmp/diff"; then
	ok "a second run of plots/series.py writes the same bytes"
else
	bad "a second run of plots/series.py differs: $(head -c 400 "$tmp/diff" "$tmp/out")"
fi
# another user's git set-up changes nothing: a global config (format.*,
# core.abbrev, commit.gpgsign, am.threeWay, hooksPath, user.name) in HOME
# and XDG_CONFIG_HOME, XDG's ignore (the patched file) and attributes,
# GIT_DIR and GIT_WORK_TREE exported, a umask of 077
h=$tmp/hostile
mkdir -p "$h/home" "$h/xdg/git" "$h/hooks"
printf '#!/bin/sh\ntouch %s/hook-ran\nexit 1\n' "$h" >"$h/hooks/applypatch-msg"
cp "$h/hooks/applypatch-msg" "$h/hooks/pre-applypatch"
chmod +x "$h"/hooks/*
printf '[format]\n\tsignature = hostile\n\tnumbered = false\n\tcoverLetter = false\n[core]\n\tabbrev = 7\n\thooksPath = %s\n[commit]\n\tgpgsign = true\n[am]\n\tthreeWay = true\n\tkeepcr = true\n[user]\n\tname = Someone Else\n' \
	"$h/hooks" >"$h/home/.gitconfig"
cp "$h/home/.gitconfig" "$h/xdg/git/config"
printf 'random.c\n*.c\n' >"$h/xdg/git/ignore"
printf '*.c -diff\n* whitespace=-trailing-space\n' >"$h/xdg/git/attributes"
if (umask 077 && HOME=$h/home XDG_CONFIG_HOME=$h/xdg GIT_DIR=$PWD/.git GIT_WORK_TREE=$PWD \
	plots/series.py studies "$h/series") >"$tmp/out" 2>&1 && diff -r "$tmp/series" "$h/series" >"$tmp/diff" &&
	[ ! -e "$h/hook-ran" ]; then
	ok "another user's git config, ignore and attributes files, hooks, GIT_DIR and umask change no byte"
else
	bad "plots/series.py under another user's git set-up: $(head -c 400 "$tmp/out" "$tmp/diff")"
fi
# hostile inputs: a patch naming a file outside the scratch repository
# (or in its .git), a template's {name} that no figure fills
/usr/bin/python3 - "$tmp/inputs" <<'PY'
import importlib.util, os, subprocess, sys
sys.path.insert(0, "plots")
spec = importlib.util.spec_from_file_location("series_under_test", "plots/series.py")
s = importlib.util.module_from_spec(spec)
spec.loader.exec_module(s)
t = sys.argv[1]
os.makedirs(f"{t}/pristine/linux/.git/hooks")
for f in ("victim", "linux/.git/hooks/pre-applypatch", "linux/Makefile"):
    with open(f"{t}/pristine/{f}", "w") as fh:
        fh.write("#!/bin/sh\n")
bad = 0
for name in ("../victim", "/etc/hostname", ".git/hooks/pre-applypatch", "a/../../victim", "./Makefile"):
    repo = f"{t}/scratch-{abs(hash(name))}/repo"
    os.makedirs(repo)
    subprocess.run(["git", "init", "-q", repo], check=True, env=dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull))
    try:
        s.seed(repo, os.environ, f"{t}/pristine/linux", [{"files": [(name.encode(), name.encode())]}])
        print(f"FAIL: series: a patch touching '{name}' is not refused")
        bad = 1
    except SystemExit:
        pass
    if os.path.exists(f"{t}/scratch-{abs(hash(name))}/victim"):
        print(f"FAIL: series: a patch touching '{name}' wrote outside the scratch repository")
        bad = 1
if not bad:
    print("PASS: series: a patch naming a file outside the scratch repository or in its .git is refused")
figs = {"a": "1 ms", "answer-table": "T1\nT2"}
bad = 0
for body in ("  kept {nope}", "x {Nope} y", "x {no_pe} y", "x {answer-table} y", "{ }"):
    try:
        out = s.fill(body, figs)
        print(f"FAIL: series: the template's '{body}' gives {out}, not an error")
        bad = 1
    except SystemExit:
        pass
if s.fill("  kept {a}\n  b", figs) != ["  kept 1 ms", "  b"]:
    print(f"FAIL: series: a kept paragraph's figure is not filled: {s.fill('  kept {a}', figs)}")
    bad = 1
if not bad:
    print("PASS: series: every {name} of the template is a figure, filled in kept paragraphs too; others are refused")
PY
# a locale that is not UTF-8 writes the same bytes: the mail is UTF-8
# (an author or maintainer named with a letter outside ASCII)
mkdir -p "$tmp/locale"
if LC_ALL=C PYTHONUTF8=0 PYTHONCOERCECLOCALE=0 /usr/bin/python3 - "$tmp/locale" <<'PY' >"$tmp/out" 2>&1 &&
import importlib.util, sys
sys.path.insert(0, "plots")
spec = importlib.util.spec_from_file_location("series_under_test", "plots/series.py")
s = importlib.util.module_from_spec(spec)
spec.loader.exec_module(s)
s.write_mails(sys.argv[1], [("0000-cover-letter.patch", "From: J\u00f6rg \u00c5berg <j@example.org>\n")])
PY
	[ "$(od -An -tx1 "$tmp/locale/0000-cover-letter.patch" | tr -d ' \n')" = "$(printf 'From: J\303\266rg \303\205berg <j@example.org>\n' | od -An -tx1 | tr -d ' \n')" ]; then
	ok "under LC_ALL=C without Python's UTF-8 mode the mail is written in UTF-8"
else
	bad "the mail under an ASCII locale: $(tail -c 300 "$tmp/out")"
fi
# what this machine's git format-patch writes, for the header order
# (identity, dates and addresses are placeholders)
ref=$tmp/ref
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
git init -q "$ref" && echo a >"$ref/f" && git -C "$ref" add f &&
	git -C "$ref" -c user.name=t -c user.email=t@t.invalid commit -qm base && echo b >>"$ref/f" &&
	git -C "$ref" -c user.name=t -c user.email=t@t.invalid commit -qam change &&
	git -C "$ref" -c user.name=t -c user.email=t@t.invalid format-patch -q -o "$ref/out" --no-numbered \
		--thread=shallow --to='a@t.invalid' --to='b@t.invalid' --cc='c@t.invalid' -1 ||
	bad "git format-patch in a scratch repository failed"

/usr/bin/python3 - "$tmp/series" "$tree" "$ref/out" "$who" <<'PY'
import email.parser, email.policy, email.utils, glob, os, re, subprocess, sys
d, tree, ref, who = sys.argv[1:]
files = sorted(glob.glob(os.path.join(d, "*.patch")))
MIME = ("mime-version", "content-type", "content-transfer-encoding")  # git adds them for non-ASCII text
TRAILER = re.compile(r"(?:[A-Z][A-Za-z]*(?:-[A-Za-z]+)*-by|Fixes|Cc|Link|Closes): ")
def say(ok, what):
    print(("PASS" if ok else "FAIL") + ": series: " + what)
def names(text):
    """The header names of a mail, in order (a folded line is no name)."""
    head = text.split("\n\n", 1)[0].splitlines()[1:]
    return [l.split(":", 1)[0].lower() for l in head if l[:1] not in (" ", "\t") and l.split(":", 1)[0].lower() not in MIME]
def parse(path):
    raw = open(path, "rb").read()
    first, _, rest = raw.partition(b"\n")
    return first, email.parser.BytesParser(policy=email.policy.default).parsebytes(rest), raw.decode()
refs_git = [open(f, encoding="utf-8").read() for f in sorted(glob.glob(os.path.join(ref, "*.patch")))]
signature = "\n-- \n" + refs_git[0].rsplit("\n-- \n", 1)[-1] if refs_git else None
series = [l.split()[0] for l in open("kernel/series") if l.strip() and not l.startswith("#")][1:]
say(len(files) == len(series) == 1 and os.path.basename(files[0]).startswith("0001-"),
    f"one patch mail per kernel/series row, no cover letter: {[os.path.basename(f) for f in files]}")
dates = []
for f in files:
    name = os.path.basename(f)
    first, m, text = parse(f)
    want = names(refs_git[0]) if len(refs_git) == 1 else None
    got = names(text)
    sha = re.fullmatch(rb"From ([0-9a-f]{40}) Mon Sep 17 00:00:00 2001", first)
    problems = [] if sha and sha.group(1) != b"0" * 40 else \
        [f"first line {first[:60]!r} is not 'From <commit sha> Mon Sep 17 00:00:00 2001'"]
    if got != want:
        problems.append(f"headers {got} where git writes {want}")
    if not signature or not text.endswith(signature):
        problems.append(f"no signature {signature!r} at the end")
    say(not problems, f"{name}: git format-patch's 'From <sha>' line, header order "
        f"and signature" + (f": {'; '.join(problems)}" if problems else ""))
    problems = []
    for h in ("From", "Date", "Subject", "Message-ID", "To"):
        if not m[h]:
            problems.append(f"no {h}")
    for h in ("In-Reply-To", "References"):
        if m[h]:
            problems.append(f"{h}: {m[h]} (the patch is a thread of its own)")
    try:
        dates.append(email.utils.parsedate_to_datetime(str(m["Date"])))
    except (TypeError, ValueError):
        problems.append(f"Date {m['Date']!r} does not parse")
    if not re.fullmatch(r"\[PATCH\] random: \S.*", str(m["Subject"] or "")):
        problems.append(f"Subject {m['Subject']!r} is not '[PATCH] random: ...'")
    mid = str(m["Message-ID"] or "")
    addr = email.utils.parseaddr(str(m["From"]))[1]
    if not re.fullmatch(f"<{sha.group(1).decode() if sha else 'SHA'}" + r"\.[0-9]+\.git\." + re.escape(addr) + ">", mid):
        problems.append(f"Message-ID {mid!r} is not <SHA.TIME.git.{addr}>")
    if str(m["From"]) != who:
        problems.append(f"From {m['From']} is not {who}")
    say(not problems, f"{name}: headers parse, [PATCH] random: ..., Date, Message-Id of git's form, From the identity, "
        "no In-Reply-To or References" + (f": {'; '.join(problems)}" if problems else ""))
    body = m.get_body(("plain",)).get_content() if m.get_body(("plain",)) else m.get_content()
    msg, _, below = body.partition("\n---\n")
    prose = [l for l in msg.splitlines() if l.strip() and not l.startswith(("\t", "  "))]
    prose = prose[:next((i for i, l in enumerate(prose) if TRAILER.match(l)), len(prose))]
    say(len(prose) <= 25, f"{name}: at most 25 lines of prose above '---' ({len(prose)})")
    left = re.findall(r"\{[a-z0-9-]+\}", text.split("\ndiff --git ", 1)[0])
    say(not left, f"{name}: no {{figure}} left unfilled" + (f": {left}" if left else ""))
    # the commit message: 72 columns but for trailers that cite a commit
    # (Fixes:, as checkpatch allows; a tab is 8 columns)
    long = [l for l in msg.splitlines() if len(l.expandtabs()) > 72 and not re.match(r"(Fixes|Link|Closes): ", l)]
    say(not long, f"{name}: the commit message within 72 columns" + (f": {long[:2]}" if long else ""))
    base = re.search(r"^base: Debian linux-source-(\S+) (\S+) \(upstream v([0-9.]+)\)", below.split("\ndiff --git", 1)[0], re.M)
    say(bool(base) and base.group(2).startswith(base.group(3)) and base.group(3).startswith(base.group(1) + ".")
        and not re.search(r"^base-commit:", text, re.M),
        f"{name}: after '---', a base: line naming Debian's package, its version and the upstream release; "
        f"no base-commit: ({base.group(0) if base else 'none'})")
    # every pre-image blob is the pristine file's
    wrong, index = [], re.findall(r"^diff --git a/(\S+) b/\S+\n(?:(?!diff --git).*\n)*?index ([0-9a-f]+)\.\.", text, re.M)
    if not index:
        wrong.append("no 'diff --git' with an index line")
    for path, pre in index:
        orig = os.path.join(tree + ".orig", path)
        blob = subprocess.run(["git", "hash-object", orig], capture_output=True, text=True).stdout.strip() \
            if os.path.isfile(orig) else "0" * 40
        if not blob.startswith(pre):
            wrong.append(f"{path}: index {pre}, pristine blob {blob[:12] or '?'}")
    say(not wrong, f"{name}: every index line's pre-image blob is the base's pristine file's (git hash-object)"
        + (f": {'; '.join(wrong)}" if wrong else ""))
# To and Cc are get_maintainer.pl's, never typed
def gm(*flags, paths=files):
    p = subprocess.run(["perl", "scripts/get_maintainer.pl", "--nogit", "--nogit-fallback", "--norolestats", *flags,
                        *paths], cwd=tree, capture_output=True, text=True)
    return [email.utils.parseaddr(l)[1] for l in p.stdout.splitlines() if l.strip()]
def addrs(m, h):
    return [a for _, a in email.utils.getaddresses([str(m[h] or "")])]
to, rest = gm("--nol", "--nor"), gm("--nom")
for f in files:
    m = parse(f)[1]
    say(to and addrs(m, "To") == to and addrs(m, "Cc") == [a for a in rest if a not in to],
        f"{os.path.basename(f)}: To and Cc are the base tree's get_maintainer.pl answer ({', '.join(to)}; {', '.join(rest)})")
# the [RFC] mail
rfc = os.path.join(d, "rfc.mbox")
if not os.path.isfile(rfc):
    say(False, "rfc.mbox: written")
    sys.exit(0)
first, m, text = parse(rfc)
title = [l for l in open("plots/rfc-letter.txt") if not l.startswith("#") and l.strip()][0].strip()
problems = [f"{h}: {m[h]}" for h in ("In-Reply-To", "References") if m[h]]
if str(m["Subject"]) != f"[RFC] {title}":
    problems.append(f"Subject {m['Subject']!r} is not '[RFC] {title}'")
if str(m["From"]) != who:
    problems.append(f"From {m['From']} is not {who}")
date = email.utils.parsedate_to_datetime(str(m["Date"])) if m["Date"] else None
if not dates or date != max(dates):
    problems.append(f"Date {m['Date']} is not the patch's")
addr = email.utils.parseaddr(who)[1]
if date is None or str(m["Message-ID"]) != f"<rfc.{int(date.timestamp())}.git.{addr}>":
    problems.append(f"Message-ID {m['Message-ID']} is not <rfc.TIME.git.{addr}>")
if m.is_multipart() or m.get_content_type() != "text/plain" or list(m.iter_attachments()):
    problems.append(f"not one text/plain part ({m.get_content_type()}, multipart {m.is_multipart()})")
say(not problems, f"rfc.mbox: Subject [RFC] {title}, From the identity, the patch's Date, Message-Id <rfc.TIME.git.EMAIL>, "
    "no In-Reply-To or References, no attachment" + (f": {'; '.join(problems)}" if problems else ""))
patched = sorted({p for f in files for p in re.findall(r"^diff --git a/(\S+) ", open(f).read(), re.M)})
fto, frest = gm("--nol", "--nor", "-f", paths=patched), gm("--nom", "-f", paths=patched)
extra = [email.utils.parseaddr(l[4:])[1] for l in open("plots/rfc-cc") if l.startswith("Cc: ")]
cc = addrs(m, "Cc")
low = [a.lower() for a in cc]
want = {"linux@roeck-us.net", "geert@linux-m68k.org", "linux-m68k@lists.linux-m68k.org"}
say(fto and addrs(m, "To") == fto and len(set(low)) == len(low) and not set(low) & {a.lower() for a in fto}
    and want <= set(low) and {a.lower() for a in frest + extra} - {a.lower() for a in fto} == set(low),
    f"rfc.mbox: To is get_maintainer.pl -f's ({', '.join(fto)}), Cc its lists and plots/rfc-cc (Guenter Roeck, "
    f"Geert, linux-m68k among them), each address once, none of To: {', '.join(cc)}")
lines = m.get_content().splitlines()
long = [l for l in lines if len(l) > 72]
left = re.findall(r"[{}]", m.get_content())
say(not long and not left and len(lines) <= 70,
    f"rfc.mbox: its body in 72 columns and {len(lines)} lines (at most 70), no brace left" + (f": {long[:2]}" if long else ""))
# a row where block's read was shorter than stock's is starred and its
# note gives the two kernels' samples per bit (build noise, issue 48)
def dur(t):
    m = re.fullmatch(r">?([0-9.]+)(us|ms|s)", t)
    return float(m.group(1)) * {"us": 1e-3, "ms": 1, "s": 1e3}[m.group(2)] if m else None
rows = [l for l in lines if re.match(r"  \S.* +[0-9]+ +[0-9.]+ ", l)]
cols = lambda r: r[24:].split()  # noqa: E731 (HZ, MHz, legacy, stock, block, boots)
odd = [r for r in rows if None not in (dur(cols(r)[3]), dur(cols(r)[4])) and dur(cols(r)[4]) < dur(cols(r)[3])]
starred = [r for r in rows if r[:26].rstrip().endswith("*")]
notes = [l for l in lines if re.match(r"  \*[0-9.]+ MHz: block's trial counted [0-9]+ samples per bit, stock's [0-9]+", l)]
say(odd and odd == starred and len(notes) == len(odd),
    f"rfc.mbox: the rows where block waited less than stock ({len(odd)}) are starred, each with a note of the two "
    f"kernels' samples per bit: {starred} / {notes}")
PY

# the base's pristine files (every file the series touches), committed
touched=$(cat "$tmp"/series/0*.patch | sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' | sort -u)
# pristine REPO ORIG: REPO holding ORIG's copies of the touched files
pristine() {
	git init -q "$1" && for f in $touched; do
		[ ! -e "$2/$f.absent" ] || continue
		mkdir -p "$1/$(dirname "$f")" && cp "$2/$f" "$1/$f"
	done
	git -C "$1" -c user.name=t -c user.email=t@t.invalid add -A &&
		git -C "$1" -c user.name=t -c user.email=t@t.invalid commit -qm pristine
}
mails=$(ls "$tmp"/series/*.patch)
n=$(echo "$mails" | wc -l)
cat "$tmp"/series/*.patch >"$tmp/series.mbox"
repo=$tmp/repo
pristine "$repo" "$tree.orig"
if git -C "$repo" -c user.name=t -c user.email=t@t.invalid am -3 -q "$tmp/series.mbox" >"$tmp/am" 2>&1 &&
	[ "$(git -C "$repo" rev-list --count HEAD)" = $((n + 1)) ]; then
	ok "git am -3 applies the $n patch mail(s) to base $base's pristine ${touched//$'\n'/ } ($(basename "$tree"))"
else
	bad "git am -3 of the patch mails on base $base's pristine files failed: $(head -c 300 "$tmp/am")"
fi
# every other base's pristine files: git am (no -3: the index blobs are
# the mailed base's)
for other in $(scripts/table.sh --keys kernel/bases); do
	[ "$other" != "$base" ] || continue
	if ! otree=$(KERNEL_BASE=$other kernel/build.sh --tree "$(scripts/variants.sh --lines | head -n 1)" 2>"$tmp/err" | tail -n 1) ||
		[ ! -d "$otree.orig" ]; then
		echo "SKIP: series: git am on base $other's pristine files: its tree cannot be had (kernel/build.sh --tree: $(tail -n 1 "$tmp/err"))"
		continue
	fi
	repo=$tmp/repo-$other
	pristine "$repo" "$otree.orig"
	if git -C "$repo" -c user.name=t -c user.email=t@t.invalid am -q "$tmp/series.mbox" >"$tmp/am" 2>&1 &&
		[ "$(git -C "$repo" rev-list --count HEAD)" = $((n + 1)) ]; then
		ok "git am applies the $n patch mail(s) to base $other's pristine ${touched//$'\n'/ } ($(basename "$otree"))"
	else
		bad "git am of the patch mails on base $other's pristine files failed: $(head -c 300 "$tmp/am")"
	fi
done
# every hunk where it says, in order: git apply -v names an offset or fuzz
repo=$tmp/apply
pristine "$repo" "$tree.orig"
for p in $mails; do
	if ! git -C "$repo" apply -v --index "$p" >"$tmp/apply.out" 2>&1; then
		bad "git apply of $(basename "$p") on base $base's pristine files (after the mails before it) failed: $(head -c 300 "$tmp/apply.out")"
	elif grep -E 'offset|fuzz' "$tmp/apply.out" >"$tmp/off"; then
		bad "$(basename "$p"): hunks not at the pristine file's lines: $(head -c 300 "$tmp/off")"
	else
		ok "$(basename "$p"): every hunk applies at its stated line of the pristine file (git apply -v: no offset)"
	fi
done
# the mail is the base's series' file but for the rebase, git's headers,
# the sender and the filled message: its diff, Date, title and trailers
patches=$(scripts/table.sh --keys kernel/series)
dir=$(scripts/table.sh kernel/bases "$base" patches)
k=0
for f in $patches; do
	k=$((k + 1))
	p=$(ls "$tmp"/series/"$(printf %04d $k)"-*.patch)
	diffs() { # the diff, index and hunk line numbers out
		sed -n '/^diff --git /,$p' "$1" | sed -e 's/^index [0-9a-f]*\.\.[0-9a-f]*/index/' \
			-e 's/^@@ -[0-9,]* +[0-9,]* @@/@@/' | sed '/^-- $/,$d'
	}
	hdr() { # Date, the Subject's title unfolded, and the trailers but Signed-off-by
		sed -n '2,/^$/p' "$1" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n / /g' |
			sed -n -e 's/^Subject: \[PATCH[^]]*\] */Subject: /p' -e '/^Date: /p'
		sed -n '/^$/,/^---$/{/^---$/q;p}' "$1" | grep -E '^(Fixes|Cc|Link|Closes|[A-Z][a-z]+(-[a-z]+)*-by): ' | grep -v '^Signed-off-by:'
	}
	if diff <(diffs "$dir/$f") <(diffs "$p") >"$tmp/d1" && diff <(hdr "$dir/$f") <(hdr "$p") >"$tmp/d2"; then
		ok "$(basename "$p") has $dir/$f's diff (but for index lines and hunk line numbers), Date, title and trailers"
	else
		bad "$(basename "$p") differs from $dir/$f in more than the rebase: $(head -c 400 "$tmp/d1" "$tmp/d2")"
	fi
done
for p in $mails; do
	if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --quiet --ignore UNKNOWN_COMMIT_ID "$p" 2>&1); then
		ok "checkpatch.pl --strict of base $base passes $(basename "$p")"
	else
		bad "checkpatch.pl --strict on $(basename "$p"): $(echo "$out" | head -3 | tr '\n' ' ')"
	fi
done
