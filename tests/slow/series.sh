#!/usr/bin/env bash
# test: the series for the list, on the base's tree (git am, checkpatch, get_maintainer.pl)
# make post FROM=committed: the project's series (plots/series.py from the
# committed runs), sent by the git identity: every mail From it, each
# patch's Signed-off-by its own alone, no placeholder identity anywhere;
# a second run writes the same bytes. It is git format-patch's: each
# mail's headers come in the order git format-patch --cover-letter
# --thread=shallow --in-reply-to --to --cc writes them here (a scratch
# repository asks this machine's git), with its 'From <sha>' line, its
# Message-Id forms (<cover.TIME.git.EMAIL>, <SHA.TIME.git.EMAIL>) and its
# signature; the headers parse with Python's email module, number the
# series and thread it under the 2022 RFC; To and Cc are the base tree's
# get_maintainer.pl answer; the cover letter fits in 60 lines, its body
# (and each commit message) in 72 columns. Each patch mail is against the
# base's pristine files (kernel/build.sh keeps them beside its tree, as
# <tree>.orig): its index line's pre-image blob is git hash-object of the
# pristine file, git apply puts every hunk at its stated line (no
# offset), and git am -3 applies the mbox to a repository of the pristine
# files; it differs from its file in the base's series only in what that
# rebase changes (index lines, hunk line numbers), the headers git
# writes and the sender's Signed-off-by. The base's own checkpatch.pl --strict passes every patch mail.
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
froms=$(grep -h '^From: ' "$tmp"/series/*.patch | sort -u)
sobs=$(sed '/^---$/,$d' "$tmp"/series/000[1-9]-*.patch | grep '^Signed-off-by:' | sort | uniq -c | awk '{print $1}' | sort -u)
[ "$froms" = "From: $who" ] && [ "$sobs" = 1 ] &&
	[ "$(grep -ch "^Signed-off-by: $who\$" "$tmp"/series/000[1-9]-*.patch | sort -u)" = 1 ] &&
	! grep -qE 'crngbench@|example\.invalid|localhost' "$tmp"/series/*.patch
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
	git -C "$ref" -c user.name=t -c user.email=t@t.invalid format-patch -q -o "$ref/out" --cover-letter \
		--thread=shallow --in-reply-to='<r@t.invalid>' --to='a@t.invalid' --to='b@t.invalid' --cc='c@t.invalid' -1 ||
	bad "git format-patch in a scratch repository failed"

/usr/bin/python3 - "$tmp/series" "$tree" "$ref/out" <<'PY'
import email.parser, email.policy, email.utils, glob, os, re, subprocess, sys
d, tree, ref = sys.argv[1:]
files = sorted(glob.glob(os.path.join(d, "*.patch")))
RFC = "<20220211210757.612595-1-Jason@zx2c4.com>"
MIME = ("mime-version", "content-type", "content-transfer-encoding")  # git adds them for non-ASCII text
def say(ok, what):
    print(("PASS" if ok else "FAIL") + ": series: " + what)
def names(text):
    """The header names of a mail, in order (a folded line is no name)."""
    head = text.split("\n\n", 1)[0].splitlines()[1:]
    return [l.split(":", 1)[0].lower() for l in head if l[:1] not in (" ", "\t") and l.split(":", 1)[0].lower() not in MIME]
refs_git = [open(f, encoding="utf-8").read() for f in sorted(glob.glob(os.path.join(ref, "*.patch")))]
signature = "\n-- \n" + refs_git[0].rsplit("\n-- \n", 1)[-1] if refs_git else None
mails = []
for f in files:
    raw = open(f, "rb").read()
    first, _, rest = raw.partition(b"\n")
    m = email.parser.BytesParser(policy=email.policy.default).parsebytes(rest)
    mails.append((f, first, m, raw.decode()))
n = len(mails) - 1
say(n >= 1 and os.path.basename(files[0]) == "0000-cover-letter.patch",
    f"a cover letter and {n} patch mail(s), as git format-patch --cover-letter names them")
ids = []
for k, (f, first, m, text) in enumerate(mails):
    name = os.path.basename(f)
    want = names(refs_git[min(k, 1)]) if len(refs_git) == 2 else None
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
    for h in ("From", "Date", "Subject", "Message-ID", "In-Reply-To", "References", "To"):
        if not m[h]:
            problems.append(f"no {h}")
    try:
        email.utils.parsedate_to_datetime(str(m["Date"]))
    except (TypeError, ValueError):
        problems.append(f"Date {m['Date']!r} does not parse")
    if not re.match(rf"\[PATCH {k}/{n}\] \S", str(m["Subject"] or "")):
        problems.append(f"Subject {m['Subject']!r} is not [PATCH {k}/{n}]")
    mid = str(m["Message-ID"] or "")
    addr = email.utils.parseaddr(str(m["From"]))[1]
    form = ("cover" if k == 0 else sha.group(1).decode() if sha else "SHA") + r"\.[0-9]+\.git\." + re.escape(addr)
    if not re.fullmatch(f"<{form}>", mid) or mid in ids:
        problems.append(f"Message-ID {mid!r} is not a new <{'cover' if k == 0 else 'SHA'}.TIME.git.{addr}>")
    ids.append(mid)
    want = RFC if k == 0 else ids[0]
    if str(m["In-Reply-To"]) != want:
        problems.append(f"In-Reply-To {m['In-Reply-To']} is not {want}")
    refs = str(m["References"] or "").split()
    if refs[:1] != [RFC] or (k and refs[-1] != ids[0]):
        problems.append(f"References {refs} do not start at the RFC" + ("" if not k else " and end at the cover letter"))
    say(not problems, f"{name}: headers parse, [PATCH {k}/{n}], Date, Message-Id of git's form, threaded under the RFC"
        + (f": {'; '.join(problems)}" if problems else ""))
    body = m.get_body(("plain",)).get_content() if m.get_body(("plain",)) else m.get_content()
    # the commit message (before '---'): 72 columns but for trailers that
    # cite a commit (Fixes:, as checkpatch allows); the cover letter's
    # whole body (the Subject header may be longer)
    msg = body.split("\n---\n")[0] if k else body
    # (a tab is 8 columns: quoted code in a commit message is tab-indented)
    long = [l for l in msg.splitlines() if len(l.expandtabs()) > 72 and not re.match(r"(Fixes|Link|Closes): ", l)]
    say(not long, f"{name}: plain text within 72 columns"
        + (f": {long[:2]}" if long else ""))
    if k == 0:
        lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        say(lines <= 60, f"{name}: the cover letter fits in 60 lines, headers included ({lines})")
    else:
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
patches = [f for f in files[1:]]
def gm(*flags):
    p = subprocess.run(["perl", "scripts/get_maintainer.pl", "--nogit", "--nogit-fallback", "--norolestats", *flags,
                        *patches], cwd=tree, capture_output=True, text=True)
    return [email.utils.parseaddr(l)[1] for l in p.stdout.splitlines() if l.strip()]
to, rest = gm("--nol", "--nor"), gm("--nom")
for f, _, m, _ in mails:
    got_to = [a for _, a in email.utils.getaddresses([str(m["To"])])]
    got_cc = [a for _, a in email.utils.getaddresses([str(m["Cc"] or "")])]
    say(to and got_to == to and got_cc == [a for a in rest if a not in to],
        f"{os.path.basename(f)}: To and Cc are the base tree's get_maintainer.pl answer ({', '.join(to)}; {', '.join(rest)})")
PY

# the base's pristine files (every file the series touches), committed
files=$(cat "$tmp"/series/0*.patch | sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' | sort -u)
pristine() {
	git init -q "$1" && for f in $files; do
		[ ! -e "$tree.orig/$f.absent" ] || continue
		mkdir -p "$1/$(dirname "$f")" && cp "$tree.orig/$f" "$1/$f"
	done
	git -C "$1" -c user.name=t -c user.email=t@t.invalid add -A &&
		git -C "$1" -c user.name=t -c user.email=t@t.invalid commit -qm pristine
}
mails=$(ls "$tmp"/series/*.patch | tail -n +2)
n=$(echo "$mails" | wc -l)
cat $mails >"$tmp/series.mbox"
repo=$tmp/repo
pristine "$repo"
if git -C "$repo" -c user.name=t -c user.email=t@t.invalid am -3 -q "$tmp/series.mbox" >"$tmp/am" 2>&1 &&
	[ "$(git -C "$repo" rev-list --count HEAD)" = $((n + 1)) ]; then
	ok "git am -3 applies the mbox of the $n patch mail(s) to base $base's pristine $(echo $files)"
else
	bad "git am -3 of the patch mails' mbox on base $base's pristine files failed: $(head -c 300 "$tmp/am")"
fi
# every hunk where it says, in order: git apply -v names an offset or fuzz
repo=$tmp/apply
pristine "$repo"
for p in $mails; do
	if ! git -C "$repo" apply -v --index "$p" >"$tmp/apply.out" 2>&1; then
		bad "git apply of $(basename "$p") on base $base's pristine files (after the mails before it) failed: $(head -c 300 "$tmp/apply.out")"
	elif grep -E 'offset|fuzz' "$tmp/apply.out" >"$tmp/off"; then
		bad "$(basename "$p"): hunks not at the pristine file's lines: $(head -c 300 "$tmp/off")"
	else
		ok "$(basename "$p"): every hunk applies at its stated line of the pristine file (git apply -v: no offset)"
	fi
done
# the mail is the base's series' file but for the rebase and git's headers
patches=$(scripts/table.sh --keys kernel/series)
dir=$(scripts/table.sh kernel/bases "$base" patches)
k=0
for f in $patches; do
	k=$((k + 1))
	p=$(ls "$tmp"/series/"$(printf %04d $k)"-*.patch)
	norm() { # the body after the headers, index and hunk line numbers and Signed-off-by out
		sed -e '1,/^$/d' -e 's/^index [0-9a-f]*\.\.[0-9a-f]*/index/' \
			-e 's/^@@ -[0-9,]* +[0-9,]* @@/@@/' -e '/^Signed-off-by: /d' "$1" | sed '/^-- $/,$d'
	}
	hdr() { # Date, and the Subject's title unfolded
		sed -n '2,/^$/p' "$1" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n / /g' |
			sed -n -e 's/^Subject: \[PATCH[^]]*\] */Subject: /p' -e '/^Date: /p'
	}
	if diff <(norm "$dir/$f") <(norm "$p") >"$tmp/d1" && diff <(hdr "$dir/$f") <(hdr "$p") >"$tmp/d2"; then
		ok "$(basename "$p") is $dir/$f but for index lines, hunk line numbers, git's headers and the sender"
	else
		bad "$(basename "$p") differs from $dir/$f in more than the rebase: $(head -c 400 "$tmp/d1" "$tmp/d2")"
	fi
done
for p in $(ls "$tmp"/series/*.patch | tail -n +2); do
	if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --quiet --ignore UNKNOWN_COMMIT_ID "$p" 2>&1); then
		ok "checkpatch.pl --strict of base $base passes $(basename "$p")"
	else
		bad "checkpatch.pl --strict on $(basename "$p"): $(echo "$out" | head -3 | tr '\n' ' ')"
	fi
done
