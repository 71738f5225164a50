#!/usr/bin/env bash
# make post FROM=committed: the series (plots/series/) is what
# plots/series.py writes from the committed runs today, byte for byte; its
# headers parse with Python's email module, number the series and thread
# it under the 2022 RFC; To and Cc are the base tree's get_maintainer.pl
# answer; the cover letter fits in 60 lines of at most 72 columns; git am
# applies the patch mails to the base's pristine files (kernel/build.sh
# keeps them beside its tree, as <tree>.orig); and the base's own
# checkpatch.pl --strict passes every patch mail. Needs the base's tree
# (kernel/build.sh --tree): the full tier.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "PASS: series: $*"; }
bad() { echo "FAIL: series: $*"; }
base=$(awk '!/^#/ && NF { if (seen++) { print $2; exit } }' kernel/series)
if ! tree=$(KERNEL_BASE=$base kernel/build.sh --tree "$(scripts/variants.sh --lines | head -n 1)" 2>"$tmp/err" | tail -n 1) ||
	[ ! -f "$tree/scripts/checkpatch.pl" ]; then
	bad "base $base's tree: kernel/build.sh --tree failed: $(tail -n 2 "$tmp/err" | tr '\n' ' ')"
	exit 0
fi
if ! plots/series.py plots/runs "$tmp/series" >"$tmp/out" 2>&1; then
	bad "plots/series.py plots/runs failed: $(head -c 300 "$tmp/out")"
	exit 0
fi
if diff -r plots/series "$tmp/series" >"$tmp/diff"; then
	ok "plots/series/ is what make post FROM=committed writes from plots/runs today"
else
	bad "plots/series/ differs from what plots/series.py writes now (make post FROM=committed): $(head -c 400 "$tmp/diff")"
fi

/usr/bin/python3 - "$tmp/series" "$tree" <<'PY'
import email.parser, email.policy, email.utils, glob, os, re, subprocess, sys
d, tree = sys.argv[1:]
files = sorted(glob.glob(os.path.join(d, "*.patch")))
RFC = "<20220211210757.612595-1-Jason@zx2c4.com>"
def say(ok, what):
    print(("PASS" if ok else "FAIL") + ": series: " + what)
mails = []
for f in files:
    raw = open(f, "rb").read()
    first, _, rest = raw.partition(b"\n")
    m = email.parser.BytesParser(policy=email.policy.default).parsebytes(rest)
    mails.append((f, first, m, rest.decode()))
n = len(mails) - 1
say(n >= 1 and os.path.basename(files[0]) == "0000-cover-letter.patch",
    f"a cover letter and {n} patch mail(s), as git format-patch --cover-letter names them")
ids = []
for k, (f, first, m, text) in enumerate(mails):
    name = os.path.basename(f)
    problems = []
    if not first.startswith(b"From "):
        problems.append("no mbox 'From ' line")
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
    if not re.fullmatch(r"<[^<>@\s]+@[^<>@\s]+>", mid) or mid in ids:
        problems.append(f"Message-ID {mid!r} is not a new <local@domain>")
    ids.append(mid)
    want = RFC if k == 0 else ids[0]
    if str(m["In-Reply-To"]) != want:
        problems.append(f"In-Reply-To {m['In-Reply-To']} is not {want}")
    refs = str(m["References"] or "").split()
    if refs[:1] != [RFC] or (k and refs[-1] != ids[0]):
        problems.append(f"References {refs} do not start at the RFC" + ("" if not k else " and end at the cover letter"))
    say(not problems, f"{name}: headers parse, [PATCH {k}/{n}], Date, Message-ID, threaded under the RFC"
        + (f": {'; '.join(problems)}" if problems else ""))
    body = m.get_body(("plain",)).get_content() if m.get_body(("plain",)) else m.get_content()
    # the commit message (before '---'): 72 columns but for trailers that
    # cite a commit (Fixes:, as checkpatch allows) and the Subject
    msg = body.split("\n---\n")[0] if k else body
    # (a tab is 8 columns: quoted code in a commit message is tab-indented)
    long = [l for l in msg.splitlines() if len(l.expandtabs()) > 72 and not re.match(r"(Fixes|Link|Closes): ", l)]
    say(not long, f"{name}: plain text within 72 columns"
        + (f": {long[:2]}" if long else ""))
    if k == 0:
        lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        say(lines <= 60, f"{name}: the cover letter fits in 60 lines, headers included ({lines})")
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

# git am on the base's pristine files (every file the series touches)
files=$(cat "$tmp"/series/0*.patch | sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' | sort -u)
repo=$tmp/repo
git init -q "$repo" && for f in $files; do
	mkdir -p "$repo/$(dirname "$f")" && cp "$tree.orig/$f" "$repo/$f"
done
git -C "$repo" -c user.name=t -c user.email=t@t add -A && git -C "$repo" -c user.name=t -c user.email=t@t commit -qm pristine
n=$(ls "$tmp"/series/*.patch | tail -n +2 | wc -l)
if git -C "$repo" -c user.name=t -c user.email=t@t am -q $(ls "$tmp"/series/*.patch | tail -n +2) >"$tmp/am" 2>&1 &&
	[ "$(git -C "$repo" rev-list --count HEAD)" = $((n + 1)) ]; then
	ok "git am applies the $n patch mail(s) to base $base's pristine $(echo $files)"
else
	bad "git am of the patch mails on base $base's pristine files failed: $(head -c 300 "$tmp/am")"
fi
for p in $(ls "$tmp"/series/*.patch | tail -n +2); do
	if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --quiet --ignore UNKNOWN_COMMIT_ID "$p" 2>&1); then
		ok "checkpatch.pl --strict of base $base passes $(basename "$p")"
	else
		bad "checkpatch.pl --strict on $(basename "$p"): $(echo "$out" | head -3 | tr '\n' ' ')"
	fi
done
