#!/usr/bin/env bash
# test: REPORT.md's and the study pages' prose numbers against their generated tables
# plots/prose_numbers.py: the numbers of REPORT.md's prose that no
# generated block holds, per line; a table's milliseconds count as the
# prose's seconds; code, commit ids, releases and small counts are not
# numbers; a report without a generated block is an error. Its pages are
# one text. REPORT.md and the study pages themselves must have none.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "prose_numbers"
cat >"$tmp/r.md" <<'M'
# A report
The wait was 554.4 s on 6.1 and 989 ms with a counter; 12.5 ms is in no table.
`build 4321` in code, commit 0313bc278dac, 2022, and 4 of 5 boots are no figures.
```
7777 in a fence
```
<!-- tables:x:begin -->
| a | 554358 | 989 [989, 990] |
<!-- tables:x:end -->
After the table: 1200.4 s is new, 989 is not.
M
out=$(plots/prose_numbers.py "$tmp/r.md" 2>&1)
want="$tmp/r.md:2: 12.5
$tmp/r.md:10: 1200.4
2 prose numbers in no generated table of $tmp/r.md"
[ "$out" = "$want" ] && ok "lists 12.5 and 1200.4 only (554.4 s is the table's 554358 ms; code, ids, years, counts, fences skipped)" ||
	bad "got: $out"
[ "$(plots/prose_numbers.py "$tmp/r.md" --count)" = 2 ] && ok "--count prints the count" || bad "--count: $(plots/prose_numbers.py "$tmp/r.md" --count 2>&1)"
cat >"$tmp/q.md" <<'M'
# A report
The dance took 12.8 s (`dance`), the wait 7% longer; 64-bit x86, a 68040, April 2022.
The step was 99 ms (`step`).

A source's digits are no figures: 4242 is in no value.
<!-- tables:quoted:begin -->
| figure | value | from |
|---|---|---|
| `base` | 256 | cited: include/linux/random.h |
| `dance` | 12.8 s | computed: {base}*5/100 |
| `step` | 1024 ms | cited: somewhere-4242 |
| `lonely` | 3 | cited: nowhere |
<!-- tables:quoted:end -->
M
out=$(plots/prose_numbers.py "$tmp/q.md" 2>&1)
want="$tmp/q.md:2: 7
$tmp/q.md:3: 99
$tmp/q.md:5: 4242
$tmp/q.md:3: names \`step\` (1024 ms) but does not give 1024
$tmp/q.md: tables:quoted rows named nowhere in the prose and used by no formula: lonely
5 prose numbers in no generated table of $tmp/q.md"
[ "$out" = "$want" ] && ok "a small percentage counts, a bit width, a processor and a year do not; tables:quoted's sources cover nothing; a paragraph that names a quoted figure must give its value; a row neither named nor used by a formula is listed" ||
	bad "quoted fixture: got: $out"
sed -i '/tables:x:/d' "$tmp/r.md"
out=$(plots/prose_numbers.py "$tmp/r.md" 2>&1) && bad "a report without a generated block passed: $out" ||
	{ grep -q "has no generated block" <<<"$out" && ok "a report without a generated block is refused, saying so" || bad "no-block message: $out"; }
# Several pages are one text: a figure of one page's prose may be in a
# block of another
printf '# Another page\nThe dance took 12.8 s (`dance`), then 77.7 s.\n' >"$tmp/p2.md"
out=$(plots/prose_numbers.py "$tmp/p2.md" "$tmp/q.md" 2>&1)
grep -qx "$tmp/p2.md:2: 77.7" <<<"$out" && ! grep -q "12.8\|p2.md.*dance" <<<"$out" &&
	ok "pages read as one text: 12.8 s (\`dance\`) on one page is the other page's quoted figure; 77.7 listed with its page" ||
	bad "two pages: $out"
# REPORT.md and its pages (studies/README.md, studies/*/README.md): every
# prose figure is in a generated block (the measured, computed and cited
# ones of plots/quoted in tables:quoted, in studies/README.md)
n=$(plots/prose_numbers.py --count 2>&1)
[ "$n" = 0 ] && ok "REPORT.md and the study pages: no prose figure outside the generated blocks" ||
	bad "REPORT.md and the study pages: $n prose figures in no generated block (plots/prose_numbers.py lists them; put each in plots/quoted): $(plots/prose_numbers.py | head -5)"
