#!/usr/bin/env bash
# test: hostile and damaged results directories
# runs: first
# Hostile and damaged results directories against the chart, report and
# mail tools (plots/render.sh, plots/report_tables.py, plots/post.py,
# plots/report.sh and the make targets): nothing from a results directory
# runs as code (gnuplot's backquotes, system(), '<' and '|' file names, its
# path or its file names in make's recipes), a damaged file is a clear
# error (file, line, column; no traceback), REPORT.md's tables keep their
# columns and show its text as text, no file is written through a symlink
# and none waits on a FIFO, make post mails nothing a run brought (no
# chart, no text of its plots/), and the targets build what they need.
# make post runs with a git identity (the sender it needs) on the base's
# kernel tree (its get_maintainer.pl). One PASS:/FAIL: line per attack.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "hostile"
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@analytical.test
root=$PWD
fx=tests/fixtures/run
# rendered DIR: the six charts as PNG and SVG
rendered() {
	local n=0 c e
	for c in 1-nethack 2-crng-ready-cdf 3-tcg-vs-kvm 4-timeline 5-jitter-vs-hz 6-nocounter; do
		for e in png svg; do [ -s "$1/plots/$c.$e" ] && n=$((n + 1)); done
	done
	[ $n -eq 12 ]
}
fresh() { rm -rf "$1" && mkdir -p "$(dirname "$1")" && cp -r "$fx" "$1"; }

# --- 1. nothing from a results directory runs in gnuplot -----------------------
# Cell names, boot ids, meta.json and guest text with backquotes (gnuplot
# runs `...` inside double quotes), a macro (@name) and a quote.
a=$tmp/a/run
fresh "$a"
pw=$tmp/pwned
mkdir -p "$pw"
# shellcheck disable=SC2016 # the backquotes are the attack, kept literal
evil() { printf '`touch${IFS}%s/%s`' "$pw" "$1"; }
edit "$a" raw.csv "for r in rows: r['cpu'] = r['cpu'].replace('max', 'max,model-id=$(evil PWNED_cpu)') ; r['boot_id'] += \"$(evil PWNED_id)'@caption\""
edit "$a" summary.csv "for r in rows: r['cpu'] = r['cpu'].replace('max', 'max,model-id=$(evil PWNED_cpu)')"
edit "$a" reads.csv "for r in rows: r['boot_id'] += \"$(evil PWNED_id)'@caption\""
edit "$a" traces.csv "
for r in rows: r['boot_id'] += \"$(evil PWNED_id)'@caption\"; r['comm'] = r['comm'] + \"$(evil PWNED_comm)'@x\""
python3 - "$a/meta.json" "$(evil PWNED_meta)" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["qemu"] = "QEMU emulator version 7.2" + sys.argv[2]
for k in m.get("kernels", {}).values():
    k["release"] = "6.1" + sys.argv[2] + "-crngbench"
json.dump(m, open(sys.argv[1], "w"))
PY
out=$(plots/render.sh "$a" 2>&1)
rc=$?
for what in cpu:"a cpu value with backquotes in raw.csv/summary.csv" id:"a boot id with backquotes, a quote and @macro" \
	meta:"meta.json's qemu and release with backquotes" comm:"guest text (traces.csv comm) with backquotes"; do
	[ ! -e "$pw/PWNED_${what%%:*}" ]
	verdict $? "${what#*:} runs nothing at make plots" "$pw/PWNED_${what%%:*} was created"
done
# shellcheck disable=SC2016
rendered "$a" && [ $rc -eq 0 ] && grep -qF 'model-id=`touch${IFS}' "$a/plots/1-nethack.svg" 2>/dev/null
verdict $? "the hostile run still renders all 12 charts, its labels drawn verbatim" "rc $rc: $(brief "$out")"

# A run directory whose name closes gnuplot's quote and calls system().
export HOSTILE_PWN=$pw/PWNED_dir
d=$tmp/b/"x';system('touch \$HOSTILE_PWN');'"
fresh "$d"
out=$(plots/render.sh "$d" 2>&1)
rc=$?
[ ! -e "$pw/PWNED_dir" ] && [ $rc -eq 0 ] && rendered "$d"
verdict $? "a run directory named x';system('touch ...');' runs nothing and renders" \
	"rc $rc, PWNED_dir $([ -e "$pw/PWNED_dir" ] && echo created || echo absent): $(brief "$out")"

# Relative paths starting with '|' or '<': gnuplot pipes such file names
# through a shell (set output '|cmd', load '<cmd').
for lead in '|' '<'; do
	name="${lead}touch PWNED_lead #"
	fresh "$tmp/c/$name"
	out=$(cd "$tmp/c" && "$root/plots/render.sh" "$name" 2>&1)
	rc=$?
	[ ! -e "$tmp/c/PWNED_lead" ] && [ ! -e "$root/PWNED_lead" ] && [ $rc -eq 0 ] && rendered "$tmp/c/$name"
	verdict $? "a relative run path starting with '$lead' is a path: it runs nothing and renders" \
		"rc $rc: $(brief "$out")"
	rm -f "$tmp/c/PWNED_lead"
done

# A name with a newline cannot be carried into a label: refused, clearly.
d=$tmp/e/"two
lines"
fresh "$d"
out=$(plots/render.sh "$d" 2>&1)
clean_error $? "$out" "control character"
verdict $? "a run directory whose name holds a newline is refused clearly" "$(brief "$out")"

d=$tmp/f/run
fresh "$d"
edit "$d" summary.csv "rows[3]['cpu'] = 'max\x1b]0;x\x07'"
out=$(plots/render.sh "$d" 2>&1)
clean_error $? "$out" "summary.csv line 5" "cpu" "control character"
verdict $? "a control character in a cell is refused naming file, line and column" "$(brief "$out")"

d=$tmp/g/run
fresh "$d"
edit "$d" summary.csv "for r in rows: r['cpu'] = r['cpu'].replace('max', 'max\"x')"
edit "$d" raw.csv "for r in rows: r['cpu'] = r['cpu'].replace('max', 'max\"x')"
out=$(plots/render.sh "$d" 2>&1)
clean_error $? "$out" 'max"x' 'double quote'
verdict $? "a double quote in a cell label (gnuplot's data files cannot carry it) is refused naming the value" "$(brief "$out")"

# --- 9. damaged directories: clear errors, the runner's row rules ---------------
# tools_refuse N DIR WHAT NEEDLE...: the first N of render.sh,
# report_tables.py and post.py each fail on DIR with a clean error (no
# traceback) naming every NEEDLE; one verdict line, WHAT.
tools_refuse() {
	local n=$1 d=$2 what=$3 i o rc fails=0 said=
	shift 3
	for ((i = 1; i <= n; i++)); do
		case $i in
		1) o=$(plots/render.sh "$d" 2>&1) ;;
		2) o=$(plots/report_tables.py "$d" - 2>&1) ;;
		3) o=$(plots/post.py "$d" 2>&1) ;;
		esac
		rc=$?
		clean_error $rc "$o" "$@" || fails=1
		said+="${said:+ | }$(brief "$o")"
	done
	verdict $fails "$what" "$said"
}

d=$tmp/h/run
fresh "$d"
rm "$d/summary.csv"
tools_refuse 3 "$d" "a missing summary.csv: render.sh, report_tables.py and post.py say so, no traceback" summary.csv

d=$tmp/i/run
fresh "$d"
edit "$d" summary.csv "h.remove('median_ms')"
mkdir -p "$d/plots"
tools_refuse 3 "$d" "summary.csv without a column: each tool names file and column, no traceback" summary.csv median_ms

d=$tmp/j/run
fresh "$d"
edit "$d" raw.csv "h.remove('status')"
tools_refuse 2 "$d" "raw.csv without a column: render.sh and report_tables.py name file and column" raw.csv status

# A short row: the runner refuses it (bench/rows/row.c: a row has the header's
# field count); the charts must not draw it.
d=$tmp/k/run
fresh "$d"
awk -F, -v OFS=, 'NR == 5 { NF -= 3 } { print }' "$fx/raw.csv" >"$d/raw.csv"
tools_refuse 2 "$d" "a short row in raw.csv is an error naming file and line (the runner's rule)" "raw.csv line 5"

d=$tmp/l/run
fresh "$d"
awk 'NR == 7 { print $0 ",1" } NR != 7' "$fx/summary.csv" >"$d/summary.csv"
tools_refuse 2 "$d" "a long row in summary.csv is an error naming file and line" "summary.csv line 7"

d=$tmp/m/run
fresh "$d"
edit "$d" raw.csv "rows[2]['rep'] = 'x'"
edit "$d" summary.csv "rows[0]['median_ms'] = 'fast'"
o1=$(plots/render.sh "$d" 2>&1)
r1=$?
o2=$(plots/report_tables.py "$d" - 2>&1)
r2=$?
clean_error $r1 "$o1" "raw.csv line 4" "rep" && clean_error $r2 "$o2" "summary.csv line 2" "median_ms"
verdict $? "a number column holding text is an error naming file, line and column" "$(brief "$o1") | $(brief "$o2")"

d=$tmp/n/run
fresh "$d"
echo '{"qemu": ' >"$d/meta.json"
tools_refuse 2 "$d" "a broken meta.json is an error naming it, no traceback" meta.json

# A '|' in a cell must not add a column to REPORT.md's tables.
d=$tmp/o/run
fresh "$d"
edit "$d" summary.csv "for r in rows: r['cpu'] = r['cpu'].replace('max', 'max|x')"
edit "$d" raw.csv "for r in rows: r['cpu'] = r['cpu'].replace('max', 'max|x')"
out=$(plots/report_tables.py "$d" - --guest "$d" --longwait "$d" 2>&1)
rc=$?
printf '%s\n' "$out" >"$tmp/tables.md"
python3 - "$tmp/tables.md" <<'PY'
import re, sys
text, tables, bad = open(sys.argv[1]).read(), 0, []
cols = None
for line in text.splitlines():
    if not line.startswith("|"):
        cols = None
        continue
    n = len(re.findall(r"(?<!\\)\|", line))
    if cols is None:
        cols, tables = n, tables + 1
    elif n != cols:
        bad.append(line)
assert tables > 5 and not bad and "max\\|x" in text, (tables, bad[:2])
PY
[ $? -eq 0 ] && [ $rc -eq 0 ]
verdict $? "a '|' in a cell is escaped in REPORT.md's tables (every row keeps its columns)" "rc $rc: $(brief "$out")"

# --- 9. no write through a symlink ----------------------------------------------
g=$tmp/good/run
fresh "$g"
plots/render.sh "$g" >/dev/null 2>&1 || bad "the fixture does not render: the symlink checks below mean nothing"
victim=$tmp/victim
secret=$tmp/secret
echo "SECRET-KEY-material" >"$secret"

d=$tmp/p/run
fresh "$d"
mkdir -p "$tmp/p/elsewhere"
ln -s "$tmp/p/elsewhere" "$d/plots"
out=$(plots/render.sh "$d" 2>&1)
clean_error $? "$out" "symbolic link" && [ -z "$(ls -A "$tmp/p/elsewhere")" ]
verdict $? "RUN/plots a symlink: refused, nothing written where it points" "$(ls -A "$tmp/p/elsewhere" | head -3 | tr '\n' ' ') $(brief "$out")"

d=$tmp/q/run
fresh "$d"
mkdir -p "$d/plots" "$tmp/q/elsewhere"
ln -s "$tmp/q/elsewhere" "$d/plots/data"
out=$(plots/render.sh "$d" 2>&1)
clean_error $? "$out" "symbolic link" && [ -z "$(ls -A "$tmp/q/elsewhere")" ]
verdict $? "RUN/plots/data a symlink: refused, nothing written where it points" "$(ls -A "$tmp/q/elsewhere" | head -3 | tr '\n' ' ') $(brief "$out")"

for f in plots/1-nethack.png plots/4-timeline.txt plots/data/vars.gp; do
	d=$tmp/r/run
	fresh "$d"
	mkdir -p "$d/plots/data"
	echo victim >"$victim"
	ln -s "$victim" "$d/$f"
	out=$(plots/render.sh "$d" 2>&1)
	clean_error $? "$out" "symbolic link" && [ "$(cat "$victim")" = victim ]
	verdict $? "RUN/$f a symlink: render.sh refuses, the file it points to is unchanged" \
		"victim now $(head -c 20 "$victim" | tr -c '[:print:]' '?'): $(brief "$out")"
done

for f in post.txt; do
	d=$tmp/s/run
	rm -rf "$d" && mkdir -p "$tmp/s" && cp -r "$g" "$d"
	echo victim >"$victim"
	ln -s "$victim" "$d/$f"
	out=$(plots/post.py "$d" 2>&1)
	clean_error $? "$out" "symbolic link" && [ "$(cat "$victim")" = victim ]
	verdict $? "RUN/$f a symlink: post.py refuses, the file it points to is unchanged" \
		"victim now $(head -c 20 "$victim" | tr -c '[:print:]' '?'): $(brief "$out")"
done

d=$tmp/t/run
rm -rf "$d" && mkdir -p "$tmp/t" && cp -r "$g" "$d"
ln -sf "$secret" "$d/plots/1-nethack.txt"
out=$(plots/post.py "$d" 2>&1)
rc=$?
! grep -qs SECRET "$d/post.txt" && clean_error $rc "$out" "symbolic link"
verdict $? "a symlinked text chart is not read into post.txt (refused)" "rc $rc: $(brief "$out")"

# RUN/series a link: make post writes nothing through it
d=$tmp/u/run
rm -rf "$d" && mkdir -p "$tmp/u/elsewhere" && cp -r "$g" "$d"
ln -s "$tmp/u/elsewhere" "$d/series"
out=$(plots/runmail.py "$d" 2>&1)
clean_error $? "$out" "symbolic link" && [ -z "$(ls -A "$tmp/u/elsewhere")" ]
verdict $? "RUN/series a symlink: plots/runmail.py refuses, nothing written through it" "$(brief "$out")"

# --- 17. a target builds what it needs (a clean clone: no build/) --------------
# (CFLAGS=-O0: the runner builds in half the time; nothing here measures it)
clone() {
	rm -rf "$1" && mkdir -p "$1" &&
		git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$1" &&
		for f in $(git ls-files -o --exclude-standard); do cp --parents "$f" "$1"; done
}
cl=$tmp/clone1
clone "$cl"
d=$tmp/v/run
fresh "$d"
out=$(env -u CRNGBENCH_RUNNER make -s -C "$cl" post RUN="$d" CFLAGS=-O0 2>&1)
rc=$?
[ $rc -eq 0 ] && [ -s "$d/series/0000-rfc.patch" ]
verdict $? "make post RUN=... in a clean clone builds the runner and writes the run's mail" "rc $rc: $(brief "$out")"

# make report writes the run's report beside it (RUN/report.md), showing
# its charts: a chart linked to a file elsewhere would be shown as the
# run's own (and plots/report.sh would copy it, then it be committed).
h=$tmp/x/run
rm -rf "$h" && mkdir -p "$tmp/x" && cp -r "$g" "$h"
ln -sf "$secret" "$h/plots/1-nethack.png"
out=$(env -u CRNGBENCH_RUNNER make -s -C "$cl" report RUN="$h" 2>&1)
rc=$?
[ ! -e "$h/report.md" ] && ! grep -qs SECRET "$cl"/plots/figures/* && cmp -s "$cl/REPORT.md" REPORT.md &&
	clean_error $rc "$out" "symbolic link"
verdict $? "make report refuses a symlinked chart before writing anything (RUN/report.md not written, REPORT.md, plots/figures unchanged)" "rc $rc: $(brief "$out")"
# RUN/report.md a link to a file elsewhere: replaced, never written through
rm "$h/plots/1-nethack.png" && cp "$g/plots/1-nethack.png" "$h/plots/"
echo precious >"$tmp/x/victim"
ln -s "$tmp/x/victim" "$h/report.md"
out=$(env -u CRNGBENCH_RUNNER make -s -C "$cl" report RUN="$h" 2>&1)
rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/x/victim")" = precious ] && [ -f "$h/report.md" ] && [ ! -L "$h/report.md" ] &&
	grep -qF '![1-nethack](plots/1-nethack.png)' "$h/report.md"
verdict $? "make report with RUN/report.md a link: the report written fresh in the run, nothing through the link" \
	"rc $rc, victim: $(cat "$tmp/x/victim"): $(brief "$out")"

cl=$tmp/clone2
clone "$cl"
# (the output read whole: grep -q would end the pipe early, make's SIGPIPE a failure)
out=$(make -n -C "$cl" plots RUN="$d" 2>&1)
grep -q -- '-o build/crngbench-run' <<<"$out"
verdict $? "make plots depends on the runner (make -n plots in a clean clone builds it first)" "$(head -3 <<<"$out" | tr '\n' ' ')"
d=$tmp/w/run
fresh "$d"
out=$(cd "$tmp" && env -u CRNGBENCH_RUNNER CFLAGS=-O0 "$cl/plots/render.sh" "$d" 2>&1)
rc=$?
[ $rc -eq 0 ] && rendered "$d"
verdict $? "plots/render.sh run directly in a clean clone builds the runner and renders" "rc $rc: $(brief "$out")"

out=$(cd plots && CRNGBENCH_RUNNER=/bin/false python3 -c 'import runlib; runlib.describe()' 2>&1)
clean_error $? "$out" "/bin/false"
verdict $? "runlib with a runner that fails: a clean error naming it, no traceback" "$(brief "$out")"
out=$(cd plots && CRNGBENCH_RUNNER=$tmp/none python3 -c 'import runlib; runlib.describe()' 2>&1)
clean_error $? "$out" "$tmp/none" "make runner"
verdict $? "runlib without a runner: a clean error saying how to build it" "$(brief "$out")"

# --- round four: a FIFO in a run is refused, never waited on -------------------
for f in plots/data/charts plots/data/vars.gp plots/1-nethack.png plots/4-timeline.txt; do
	d=$tmp/fifo/run
	fresh "$d"
	mkdir -p "$d/plots/data"
	mkfifo "$d/$f"
	out=$(timeout 20 plots/render.sh "$d" 2>&1)
	rc=$?
	[ $rc -ne 124 ] && clean_error $rc "$out" "$f" "not a regular file"
	verdict $? "RUN/$f a FIFO: render.sh refuses it at once (no hang)" "rc $rc$([ $rc -eq 124 ] && echo ' (hung)'): $(brief "$out")"
done

# --- round four: what a path or a file name reaches through make -----------------
# The targets run in clone1 (its runner built above), each under a timeout:
# a FIFO must be refused, never waited on.
cl=$tmp/clone1
mk() { env -u CRNGBENCH_RUNNER timeout 60 make -s -C "$cl" "$@" 2>&1; }
# every PWNED_* file a hostile name could have created, then removed
pwned() {
	local p
	p=$(find "$cl" "$root" "$tmp/y" -maxdepth 1 -name 'PWNED_*' 2>/dev/null | sed 's|.*/||' | tr '\n' ' ')
	find "$cl" "$root" "$tmp/y" -maxdepth 1 -name 'PWNED_*' -delete 2>/dev/null
	printf '%s' "$p"
}
figures() { (cd "$cl/plots/figures" && ls -A && cksum -- *) 2>/dev/null; }

# A RUN value is a path: make expands none of it ($(shell ...)), the shell
# splits and runs none of it (';', backquotes, $(...), a space, a quote).
# shellcheck disable=SC2016 # the make and shell syntax is the attack, kept literal
for n in 'r;touch PWNED_semi;' 'r`touch PWNED_bq`' 'r$$(touch PWNED_dd)' 'r$(shell touch PWNED_shell)' \
	'my run' "it's"; do
	d=$tmp/y/$n
	fresh "$d"
	out=$(mk plots RUN="$d")
	rc=$?
	p=$(pwned)
	[ -z "$p" ] && [ $rc -eq 0 ] && rendered "$d"
	verdict $? "make plots RUN='.../$n' runs nothing and renders that directory" "rc $rc, created: '$p': $(brief "$out")"
done

# A newline would split make's recipe line in two (the second a command of
# its own under make -i): refused by make, naming the variable.
d=$tmp/y/$'nl\ntouch PWNED_nl\n'
fresh "$d"
out=$(env -u CRNGBENCH_RUNNER timeout 60 make -i -s -C "$cl" plots RUN="$d" 2>&1)
rc=$?
p=$(pwned)
[ -z "$p" ] && clean_error $rc "$out" RUN newline
verdict $? "make plots RUN= a path with a newline (even under make -i): refused, runs nothing" "rc $rc, created: '$p': $(brief "$out")"

# Every RUN-like variable of make post and make report, one hostile name.
# shellcheck disable=SC2016
evil='e b;touch PWNED_e1;`touch PWNED_e2`$$(touch PWNED_e3)$(shell touch PWNED_e4)'"'"'s'
r=$tmp/y/$evil
fresh "$r"
ea=$tmp/y/$evil-arches
rm -rf "$ea" && cp -r tests/fixtures/arches "$ea"
ee=$tmp/y/$evil-entropy
rm -rf "$ee" && tests/lib/entropy_run.sh "$tmp/entropy" >/dev/null 2>&1 && cp -r "$tmp/entropy" "$ee"
out=$(mk post RUN="$r")
rc=$?
p=$(pwned)
[ -z "$p" ] && [ $rc -eq 0 ] && [ -s "$r/series/0000-rfc.patch" ]
verdict $? "make post RUN= a name with ; \` \$\$( \$(shell ' and a space runs nothing and writes the mail" \
	"rc $rc, created: '$p': $(brief "$out")"
cp "$cl/REPORT.md" "$tmp/report.before"
out=$(mk report RUN="$r")
rc=$?
p=$(pwned)
[ -z "$p" ] && [ $rc -eq 0 ] && grep -qF "e b;touch" "$r/report.md" && cmp -s "$tmp/report.before" "$cl/REPORT.md"
verdict $? "make report RUN= that name runs nothing and writes that run's report.md (REPORT.md unchanged)" "rc $rc, created: '$p': $(brief "$out")"
out=$(mk report RUN="$r" GUESTRUN="$r")
rc=$?
p=$(pwned)
[ -z "$p" ] && clean_error $rc "$out" "GUESTRUN: no such variable"
verdict $? "make report GUESTRUN= (a variable make report no longer takes) is refused, and that name runs nothing" \
	"rc $rc, created: '$p': $(brief "$out")"
out=$(cd "$cl" && timeout 60 plots/report.sh "$r" --hz "$r" --guest "$r" --sources "$r" --longwait "$r" --arches "$ea" --entropy "$ee" 2>&1)
rc=$?
p=$(pwned)
[ -z "$p" ] && [ $rc -eq 0 ] && cmp -s "$ea/plots/7-arches.png" "$cl/plots/figures/7-arches.png" &&
	cmp -s "$ee/plots/8-trial-margin.png" "$cl/plots/figures/8-trial-margin.png" &&
	cmp -s "$r/plots/5-jitter-vs-hz.png" "$cl/plots/figures/5-jitter-vs-hz.png" && grep -qF "e b;touch" "$cl/studies/quick/README.md" &&
	grep -qF "### What ready holds" "$cl/studies/entropy/README.md"
verdict $? "plots/report.sh with that name as RUN, --hz, --guest, --sources, --longwait, --arches, --entropy runs nothing and reports" \
	"rc $rc, created: '$p': $(brief "$out")"

# A run's file names are not code either: make report shows the charts it
# knows by name, nothing else of RUN/plots, and copies none.
d=$tmp/y/names
fresh "$d"
plots/render.sh "$d" >/dev/null 2>&1
# shellcheck disable=SC2016
touch "$d/plots/a\$(touch PWNED_f1).png" "$d/plots/b;touch PWNED_f2;.png" "$d/plots/\`touch PWNED_f3\`.png" \
	"$d/plots/extra.png"
fb=$(figures)
out=$(mk report RUN="$d")
rc=$?
p=$(pwned)
[ -z "$p" ] && [ $rc -eq 0 ] && [ "$fb" = "$(figures)" ] &&
	[ -z "$(grep -o '(plots/[^)]*)' "$d/report.md" | grep -v '^(plots/[1-9][0-9]\?-[a-z0-9-]*\.png)$')" ] &&
	grep -qF '(plots/1-nethack.png)' "$d/report.md"
verdict $? "make report: chart file names holding \$( ; \` run nothing; only the known charts are shown, none copied" \
	"rc $rc, created: '$p', shown: $(grep -o '(plots/[^)]*)' "$d/report.md" 2>/dev/null | tr '\n' ' '): $(brief "$out")"

# make report with a FIFO chart (RUN's), plots/report.sh with one (--hz's,
# --arches'): refused before RUN/report.md is written, REPORT.md or
# plots/figures change.
g2=$tmp/fifo/good
fresh "$g2"
plots/render.sh "$g2" >/dev/null 2>&1
ga=$tmp/fifo/arches
rm -rf "$ga" && cp -r tests/fixtures/arches "$ga" && plots/render.sh "$ga" >/dev/null 2>&1
for which in RUN:2-crng-ready-cdf HZRUN:5-jitter-vs-hz ARCHESRUN:7-arches; do
	v=${which%%:*} c=${which#*:}
	d=$tmp/fifo/$v
	rm -rf "$d" && cp -r "$([ "$v" = ARCHESRUN ] && echo "$ga" || echo "$g2")" "$d"
	rm "$d/plots/$c.png" && mkfifo "$d/plots/$c.png"
	cp "$cl/REPORT.md" "$tmp/report.before"
	fb=$(figures)
	case $v in
	RUN) out=$(mk report RUN="$d") ;;
	HZRUN) out=$(cd "$cl" && timeout 60 plots/report.sh "$g2" --hz "$d" 2>&1) ;;
	ARCHESRUN) out=$(cd "$cl" && timeout 60 plots/report.sh "$g2" --arches "$d" 2>&1) ;;
	esac
	rc=$?
	[ $rc -ne 124 ] && clean_error $rc "$out" "$c.png" "not a regular file" && cmp -s "$tmp/report.before" "$cl/REPORT.md" &&
		[ "$fb" = "$(figures)" ] && [ ! -e "$d/report.md" ]
	verdict $? "make report: $v's $c.png a FIFO is refused at once, no RUN/report.md, REPORT.md and plots/figures unchanged" \
		"rc $rc$([ $rc -eq 124 ] && echo ' (hung)'), REPORT.md $(cmp -s "$tmp/report.before" "$cl/REPORT.md" && echo same || echo changed): $(brief "$out")"
done

# --- round four: make post mails nothing a run brought ----------------------
# A run from elsewhere arrives with its own plots/: text charts with
# terminal escapes, a foreign SVG with a script, a chart that is not ours.
# The mail is written from its tables alone: none of it is read.
d=$tmp/pp/run
fresh "$d"
plots/render.sh "$d" >/dev/null 2>&1
printf 'EVIL-TEXT \033]0;x\007 \r\0 end\n' >"$d/plots/1-nethack.txt"
printf '<svg><script>alert(1)</script></svg>\n' >"$d/plots/evil.svg"
printf 'EVIL-PNG\n' >"$d/plots/2-crng-ready-cdf.png"
da=$tmp/pp/arches
rm -rf "$da" && cp -r tests/fixtures/arches "$da" && plots/render.sh "$da" >/dev/null 2>&1
printf 'EVIL-PNG\n' >"$da/plots/1-nethack.png"
printf '<svg><script>alert(1)</script></svg>\n' >"$da/plots/3-tcg-vs-kvm.svg"
printf 'EVIL-TEXT\n' >"$da/plots/1-nethack.txt"
o1=$(mk post RUN="$d")
r1=$?
o2=$(mk post RUN="$da")
r2=$?
why=$(python3 - "$d" "$da" 2>&1 <<'PY'
import email, email.policy, glob, re, sys
for run in sys.argv[1:]:
    mails = sorted(glob.glob(run + "/series/*.patch"))
    assert mails, (run, "no mail")
    for f in mails:
        raw = open(f, "rb").read()
        assert b"EVIL" not in raw and b"<script" not in raw and not re.search(rb"[\x00-\x09\x0b-\x1f\x7f]", raw), f
        m = email.message_from_bytes(raw.split(b"\n", 1)[1], policy=email.policy.default)
        assert not m.is_multipart() and m.get_content_type() == "text/plain", (f, "not one plain-text part")
PY
)
[ $? -eq 0 ] && [ $r1 -eq 0 ] && [ $r2 -eq 0 ]
verdict $? "make post reads nothing of a run's plots/: no foreign text chart, SVG or PNG reaches the mail, which has no attachment" \
	"rc $r1/$r2: $(brief "$(tail -n 1 <<<"$why")") | $(brief "$o1") | $(brief "$o2")"

# post.py on its own reads the text charts as untrusted too.
d=$tmp/pq/run
fresh "$d"
plots/render.sh "$d" >/dev/null 2>&1
printf 'chart \033[2J\n' >"$d/plots/2-crng-ready-cdf.txt"
out=$(plots/post.py "$d" 2>&1)
rc=$?
clean_error $rc "$out" "2-crng-ready-cdf.txt" "control character" && ! grep -qs $'\033' "$d/post.txt"
verdict $? "post.py refuses a text chart holding a control character" "rc $rc: $(brief "$out")"

# --- round four: a '%' in a tick label is drawn, not a printf format ----------
# gnuplot formats 'set xtics add (label pos)' with the position (charts 1,
# 6, 7): cpu=max%g was drawn cpu=max1.5; a width of 10^9 took gigabytes.
# (Chart 7: one machine's cells only; a cpu in every label leaves its
# labels no room, a warning of its own.)
d=$tmp/pct/run
fresh "$d"
edit "$d" raw.csv "for r in rows: r['cpu'] = r['cpu'].replace('max', 'max%g')"
edit "$d" summary.csv "for r in rows: r['cpu'] = r['cpu'].replace('max', 'max%g')"
out=$(plots/render.sh "$d" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -qF 'cpu=max%g' "$d/plots/1-nethack.svg" && ! grep -qF 'cpu=max1.5' "$d/plots/1-nethack.svg" &&
	grep -qF 'cpu=max%g' "$d/plots/3-tcg-vs-kvm.svg"
verdict $? "a cpu value max%g is drawn max%g in the tick labels (not a gnuplot format)" "rc $rc: $(brief "$out")"

d=$tmp/pct/arches
rm -rf "$d" && cp -r tests/fixtures/arches "$d"
edit "$d" raw.csv "for r in rows: r['cpu'] = 'm%999999999.99e' if r['arch'] == 'armv5-versatilepb' else r['cpu']"
edit "$d" summary.csv "for r in rows: r['cpu'] = 'm%999999999.99e' if r['arch'] == 'armv5-versatilepb' else r['cpu']"
out=$(ulimit -v 1500000 && timeout 60 plots/render.sh "$d" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -qF 'cpu=m%999999999.99e, armv5' "$d/plots/7-arches.svg"
verdict $? "a cpu value m%999999999.99e is drawn verbatim in chart 7 (no gigabyte label)" "rc $rc: $(brief "$out")"

# --- round four: REPORT.md's text is text, not Markdown or HTML -----------------
d=$tmp/md/run
fresh "$d"
# shellcheck disable=SC2016
cpu='max<img src=x onerror=alert(1)>[x](javascript:alert(1))&amp;'
edit "$d" raw.csv "for r in rows: r['cpu'] = r['cpu'].replace('max', '''$cpu''')"
edit "$d" summary.csv "for r in rows: r['cpu'] = r['cpu'].replace('max', '''$cpu''')"
python3 - "$d/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["host_cpu"] = "<script>alert(1)</script> [a](javascript:b)"
m["qemu"] = "QEMU <b>7.2</b>"
json.dump(m, open(sys.argv[1], "w"))
PY
da=$tmp/md/arches
rm -rf "$da" && cp -r tests/fixtures/arches "$da"
edit "$da" raw.csv "for r in rows: r['clocksource'] = '<b>cs</b>[l](javascript:x)' if r['clocksource'] else ''"
o1=$(plots/report_tables.py "$d" - --hz "$d" --guest "$d" --sources "$d" --longwait "$d" 2>&1)
r1=$?
o2=$(plots/report_tables.py "$da" - --arches "$da" 2>&1)
r2=$?
printf '%s\n' "$o1" "$o2" >"$tmp/md.md"
why=$(python3 - "$tmp/md.md" 2>&1 <<'PY'
import re, sys
full = open(sys.argv[1]).read()
# a run's free text (host_cpu, qemu) is in code spans, shown as it is and
# never rendered (markup.code()); everything else is escaped text
for s in ("`<script>alert(1)</script> [a](javascript:b)`", "`QEMU <b>7.2</b>`"):
    assert s in full, s
t = re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", " ", full)
assert "<" not in t, re.findall(r".{20}<.{20}", t)[:3]
assert not re.search(r"(?<!\\)\[[^\]\n]*(?<!\\)\]\(", t), re.findall(r".{10}\]\(.{10}", t)[:3]
for s in ("&lt;img src=x onerror=alert(1)&gt;\\[x\\](javascript:alert(1))&amp;amp;",
          "&lt;b&gt;cs&lt;/b&gt;\\[l\\](javascript:x)"):
    assert s in t, s
PY
)
[ $? -eq 0 ] && [ $r1 -eq 0 ] && [ $r2 -eq 0 ]
verdict $? "HTML and Markdown in a run (cell names, meta.json, the guest's clocksource) are escaped in REPORT.md's text" \
	"rc $r1/$r2: $(brief "$(tail -n 1 <<<"$why")")"

# make report HZRUN=<a run that draws no chart 5>: refused before REPORT.md
# is rewritten, no planted PNG copied into plots/figures.
pr=$tmp/hzp-run hr=$tmp/hzp-hz
cp -r tests/fixtures/run "$pr"
cp -r tests/fixtures/arches "$hr"
mkdir -p "$hr/plots"
printf '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script>EVILSVG</svg>' >"$hr/plots/5-jitter-vs-hz.svg"
echo EVILPNG >"$hr/plots/5-jitter-vs-hz.png"
# plots/report.sh --hz <a run that draws no chart 5>: refused before REPORT.md
# is rewritten, no planted PNG copied into plots/figures.
cp REPORT.md "$tmp/report.before"
pages_before=$(cat studies/*.md studies/*/README.md | sha256sum)
fig_before=$(cat plots/figures/5-jitter-vs-hz.png | sha256sum)
plots/report.sh "$pr" --hz "$hr" >"$tmp/hzr.out" 2>&1
r1=$?
cmp -s REPORT.md "$tmp/report.before" && [ "$(cat studies/*.md studies/*/README.md | sha256sum)" = "$pages_before" ] &&
	[ "$(sha256sum <plots/figures/5-jitter-vs-hz.png)" = "$fig_before" ] &&
	[ $r1 -ne 0 ] && grep -q "is not a run that draws 5-jitter-vs-hz" "$tmp/hzr.out"
verdict $? "plots/report.sh takes chart 5 only from an HZ run that draws one (refused first, REPORT.md, the study pages and plots/figures unchanged)" \
	"rc $r1: $(brief "$(cat "$tmp/hzr.out")")"
cp "$tmp/report.before" REPORT.md
git checkout -q -- plots/figures 2>/dev/null || true
