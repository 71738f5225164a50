#!/usr/bin/env bash
# test: the series' authors and dates (plots/series.py, no kernel tree)
# plots/series.py on patches of its own making, without a kernel tree
# (tests/slow/series.sh, the full tier, checks the project's series): a series
# whose patches are dated -0000 and +0100 is made (no TypeError), its
# Message-Id time the newest patch's, -0000 read as UTC; patches of the
# placeholder author crngbench <crngbench@example.invalid> with its
# Signed-off-by are sent From the sender, each with the sender's
# Signed-off-by alone, and no mail holds the placeholder; the sender is
# the git identity, none (an EMAIL, a host name) guessed; a From whose
# RFC 2047 encoded name decodes to more than one line, or to an address,
# and a From of two addresses are refused, naming the patch, before git
# runs (git am put the address after an encoded newline in the patch
# mail's From). The project's mail (patch_mails): one patch is one
# [PATCH] mail, no cover letter, no In-Reply-To or References, the notes
# after its '---' before git's diffstat, git am applies it; its commit
# message's figures filled, prose refilled to 72 columns, lines starting
# with a tab or two spaces (C braces and all) and trailers kept as they
# are; a {name} that is no figure is refused naming the patch file.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "series mail"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
# two patches of lib/f.c, made by git format-patch in a scratch repository;
# tree.orig holds the file as it was (kernel/build.sh --tree's pristine copy)
src=$tmp/src
mkdir -p "$src/lib" "$tmp/tree" "$tmp/tree.orig/lib"
printf 'a\nb\nc\n' >"$src/lib/f.c"
cp "$src/lib/f.c" "$tmp/tree.orig/lib/f.c"
g() { git -C "$src" -c user.name=t -c user.email=t@t.invalid "$@"; }
if ! { g init -q && g add -A && g commit -qm base &&
	printf 'a\nB\nc\n' >"$src/lib/f.c" && g commit -qam "lib: one" &&
	printf 'a\nB\nC\n' >"$src/lib/f.c" && g commit -qam "lib: two" &&
	g format-patch -q -o "$tmp/p" -2; }; then
	bad "git format-patch in a scratch repository failed"
	exit 0
fi
# patch N FROM DATE: the Nth patch with that From and Date
patch() {
	local f
	f=$(ls "$tmp"/p/000"$1"-*.patch)
	python3 - "$f" "$2" "$3" <<'PY'
import re, sys
f, who, date = sys.argv[1:]
t = open(f).read()
t = re.sub(r"^From: .*$", lambda m: "From: " + who, t, count=1, flags=re.M)
t = re.sub(r"^Date: .*$", lambda m: "Date: " + date, t, count=1, flags=re.M)
open(f, "w").write(t)
PY
}
# make: plots/series.py's read_patch and format_patch on the two patches
make() {
	python3 - "$tmp" "$tmp"/p/0001-*.patch "$tmp"/p/0002-*.patch <<'PY'
import importlib.util, os, sys
sys.path.insert(0, "plots")
spec = importlib.util.spec_from_file_location("series_under_test", "plots/series.py")
s = importlib.util.module_from_spec(spec)
spec.loader.exec_module(s)
tmp, paths = sys.argv[1], sys.argv[2:]
work = os.path.join(tmp, "work")
os.makedirs(work, exist_ok=True)
mails = s.format_patch(work, os.path.join(tmp, "tree"), [s.read_patch(p) for p in paths], "the title\n\nthe body\n",
                       "<r@t.invalid>", ["m@t.invalid"], [], ("Grace Hopper", "grace@navy.test"))
for name, text in mails:
    open(os.path.join(tmp, "out-" + name), "w").write(text)
PY
}
heads() { # FILE: From decoded, and the time in Message-Id
	python3 - "$1" <<'PY'
import email, email.policy, re, sys
text = open(sys.argv[1]).read()
m = email.message_from_string(text.split("\n", 1)[1], policy=email.policy.default)
print(m["From"], re.search(r"\.([0-9]+)\.git\.", m["Message-ID"]).group(1))
PY
}

who='=?UTF-8?q?J=C3=B6rg_=C3=85berg?= <j@t.invalid>'
patch 1 "$who" 'Mon, 1 Jan 2024 10:00:00 -0000'
patch 2 "$who" 'Mon, 1 Jan 2024 12:00:00 +0100'
out=$(make 2>&1)
verdict $? "patches dated -0000 and +0100 make a series (no TypeError)" "$(brief "$out")"
# -0000 is UTC (its zone unknown): the Message-Id's time is the newest
# Date's, 11:00 UTC, 1704106800, whatever this machine's zone
patch 1 "$who" 'Mon, 1 Jan 2024 10:00:00 -0000'
patch 2 "$who" 'Mon, 1 Jan 2024 11:00:00 -0000'
out=$(TZ=America/New_York make 2>&1)
c=$(heads "$tmp"/out-0000-cover-letter.patch 2>&1)
[ "${c##* }" = 1704106800 ]
verdict $? "patches dated -0000: the Message-Id's time is the newest Date read as UTC, in any local zone" \
	"'$c': $(brief "$out")"

# the placeholder author and its Signed-off-by: the sender's instead
placeholder='crngbench <crngbench@example.invalid>'
patch 1 "$placeholder" 'Mon, 1 Jan 2024 10:00:00 +0000'
patch 2 "$placeholder" 'Mon, 1 Jan 2024 11:00:00 +0000'
sed -i "s/^---\$/Signed-off-by: $placeholder\n---/" "$tmp"/p/000[12]-*.patch
rm -f "$tmp"/out-*
out=$(make 2>&1)
sobs=$(grep -h '^Signed-off-by:' "$tmp"/out-0001-*.patch "$tmp"/out-0002-*.patch | sort | uniq -c | awk '{$1=$1}1')
[ "$(grep -h '^From: ' "$tmp"/out-*.patch | sort -u)" = "From: Grace Hopper <grace@navy.test>" ] &&
	[ "$sobs" = "2 Signed-off-by: Grace Hopper <grace@navy.test>" ] && ! grep -q 'example\.invalid' "$tmp"/out-*.patch
verdict $? "patches of the placeholder author are sent From the sender, with the sender's Signed-off-by alone" \
	"$sobs: $(brief "$out")"
# the sender: the git identity, nothing guessed from EMAIL or the host
mkdir -p "$tmp/home"
out=$(cd plots && HOME=$tmp/home EMAIL=someone@host.test env -u GIT_AUTHOR_NAME -u GIT_AUTHOR_EMAIL \
	python3 -c 'import series; print(series.sender())' 2>&1)
rc=$?
out2=$(cd plots && HOME=$tmp/home GIT_AUTHOR_NAME='Jörg' GIT_AUTHOR_EMAIL=j@x.test \
	python3 -c 'import series; print(series.sender())' 2>&1)
[ $rc -ne 0 ] && grep -q "user.email" <<<"$out" && ! grep -q someone <<<"$out" && [ "$out2" = "('Jörg', 'j@x.test')" ]
verdict $? "the sender is the git identity (GIT_AUTHOR_*, user.*); none is refused, EMAIL and the host name are not guessed" \
	"rc $rc: $(brief "$out") | $(brief "$out2")"

# refused_patch HEADER TEXT FROM DATE: patch 1 of that From and Date
# refused by read_patch before git runs, naming the patch and HEADER
refused_patch() {
	patch 1 "$3" "$4"
	patch 2 "$3" 'Mon, 1 Jan 2024 11:00:00 +0000'
	rm -f "$tmp"/out-*
	out=$(make 2>&1)
	clean_error $? "$out" "0001-" "$1" && ! ls "$tmp"/out-* >/dev/null 2>&1
	verdict $? "$2" "$(brief "$out")"
}
# refused FROM WHAT: a From that read_patch refuses, naming the patch
refused() { refused_patch From "a From $2 is refused before git runs, naming the patch" "$1" 'Mon, 1 Jan 2024 10:00:00 +0000'; }
refused '=?UTF-8?q?Evil=0AFrom=3A_x=40evil=2Eorg?= <j@t.invalid>' "whose encoded name hides a newline and an address"
refused '=?UTF-8?q?x=40evil=2Eorg?= <j@t.invalid>' "whose encoded name decodes to an address"
refused 'j@t.invalid, x@evil.invalid' "of two addresses"
# a Date that parses but names a year past 9999 (datetime's range)
refused_patch Date "a Date of year 99999999 is refused naming the patch, no traceback" "$who" 'Mon, 1 Jan 99999999 00:00:00 +0000'

# the project's mail of one patch (patch_mails, get_maintainer.pl's answer
# and the notes template stood in for): its message quotes figures, code,
# a table and trailers
/usr/bin/python3 - "$tmp"/p/0001-*.patch <<'PY'
import re, sys
f = sys.argv[1]
t = open(f).read()
head, _, rest = t.partition("\n\n")
msg, cut, diff = rest.partition("\n---\n")
msg = ("The figure {a} and a prose line that goes on and on and on, well beyond seventy-two columns,\n"
       "and on.\n\n\tif (x) {\n\t\ty({a});\n\t}\n  a table {a} kept\n\n"
       "Fixes: 0123456789ab (\"lib: a subject long enough to take the line past seventy-two columns\")\n"
       "Cc: stable@vger.kernel.org")
open(f, "w").write(head + "\n\n" + msg + cut + diff)
PY
printf '# notes\nmeasured {a}\n\nbase: Debian {a} (upstream v1); applies to v2 too\n' >"$tmp/notes.txt"
# own MESSAGE_SED: patch_mails of patch 1 (its message edited by sed) into out-own-*
own() {
	rm -f "$tmp"/out-own-*
	sed -i "$1" "$tmp"/p/0001-*.patch
	python3 - "$tmp" "$tmp"/p/0001-*.patch <<'PY'
import importlib.util, os, sys
sys.path.insert(0, "plots")
spec = importlib.util.spec_from_file_location("series_under_test", "plots/series.py")
s = importlib.util.module_from_spec(spec)
spec.loader.exec_module(s)
tmp, path = sys.argv[1:]
s.NOTES = os.path.join(tmp, "notes.txt")
s.maintainers = lambda tree, paths, files=False: (["m@t.invalid"], ["l@t.invalid"])
for name, text in s.patch_mails(os.path.join(tmp, "tree"), [path], ("Grace Hopper", "grace@navy.test"),
                                {"a": "1 ms"}):
    open(os.path.join(tmp, "out-own-" + name), "w").write(text)
PY
}
patch 1 "$who" 'Mon, 1 Jan 2024 10:00:00 +0000'
out=$(own '' 2>&1)
mail=$(ls "$tmp"/out-own-* 2>/dev/null || echo /dev/null)
[ "$(echo "$mail" | wc -l)" = 1 ] && [ "${mail##*/}" = out-own-0001-lib-one.patch ] &&
	grep -qx 'Subject: \[PATCH\] lib: one' "$mail" && grep -q '^Message-Id: <' "$mail" &&
	! grep -qiE '^(In-Reply-To|References):' "$mail" &&
	[ "$(sed -n '/^---$/,/^ lib\/f.c /p' "$mail")" = "$(printf -- '---\nmeasured 1 ms\n\nbase: Debian 1 ms (upstream v1); applies to v2 too\n\n lib/f.c | 2 +-')" ]
verdict $? "the project's mail of one patch: one [PATCH] mail, no cover letter, no In-Reply-To or References, the notes after '---' before the diffstat" \
	"$(echo "$tmp"/out-own-*) $(brief "$out")"
want=$(printf '%s\n' "The figure 1 ms and a prose line that goes on and on and on, well beyond" "seventy-two columns, and on." "" \
	$'\tif (x) {' $'\t\ty(1 ms);' $'\t}' "  a table 1 ms kept" "" \
	'Fixes: 0123456789ab ("lib: a subject long enough to take the line past seventy-two columns")' \
	"Cc: stable@vger.kernel.org" "Signed-off-by: Grace Hopper <grace@navy.test>" "---")
got=$(sed -n '/^$/,/^---$/{p;/^---$/q}' "$mail" | sed 1d)
[ "$got" = "$want" ]
verdict $? "its message: figures filled, prose refilled to 72 columns, tab and two-space lines and trailers kept as they are" \
	"$(brief "$got")"
repo=$tmp/am
git init -q "$repo" && mkdir -p "$repo/lib" && cp "$tmp/tree.orig/lib/f.c" "$repo/lib/f.c" &&
	git -C "$repo" add -A && git -C "$repo" -c user.name=t -c user.email=t@t.invalid commit -qm pristine &&
	git -C "$repo" -c user.name=t -c user.email=t@t.invalid am -q "$mail" >"$tmp/am.out" 2>&1 &&
	[ "$(git -C "$repo" log -1 --format=%s)" = "lib: one" ]
verdict $? "git am applies the project's mail to the pristine file" "$(brief "$(cat "$tmp/am.out")")"
out=$(own 's/^The figure {a}/The figure {nope}/' 2>&1)
clean_error $? "$out" "0001-lib-one.patch" "{nope}" && ! ls "$tmp"/out-own-* >/dev/null 2>&1
verdict $? "a {name} of a commit message that is no figure is refused, naming the patch file" "$(brief "$out")"
