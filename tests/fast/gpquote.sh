#!/usr/bin/env bash
# test: gnuplot quoting of run text (plots/gpquote.py), drawn
# plots/gpquote.py's quoting, drawn by gnuplot itself: a run's text in a
# string (gp_str) or a tick label (tic_str, which gnuplot also reads as a
# printf format for the tick's position) is drawn as it is, in a second,
# where tests/slow/hostile_plots.sh draws whole hostile runs in minutes.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "gnuplot quoting"

python3 - "$tmp" <<'PY' >"$tmp/err" 2>&1
import sys
sys.path.insert(0, "plots")
from gpquote import gp_str, tic_str
d = sys.argv[1]
with open(f"{d}/t.gp", "w") as f:
    f.write(f"set terminal svg\nset output {gp_str(d + '/t.svg')}\n")
    f.write(f"set title {gp_str(chr(96) + 'touch x' + chr(96) + ' it' + chr(39) + 's')}\n")
    f.write("set xrange [0:3]\n")
    f.write(f"set xtics add ({tic_str('max%g')} 1.5, {tic_str('w%d%%')} 2.5)\n")
    f.write("plot x notitle\n")
PY
rc=$?
[ $rc -eq 0 ] && (cd "$tmp" && gnuplot t.gp) >>"$tmp/err" 2>&1
rc=$?
verdict $rc "a script of gp_str and tic_str strings is drawn" "$(brief "$(cat "$tmp/err")")"
grep -qF 'max%g' "$tmp/t.svg" && ! grep -qF 'max1.5' "$tmp/t.svg"
verdict $? "a tick label max%g is drawn max%g, not as a format (max1.5)" "$(grep -o 'max[^<]*' "$tmp/t.svg" | head -n 2 | tr '\n' ' ')"
grep -qF 'w%d%%' "$tmp/t.svg"
verdict $? "a tick label w%d%% is drawn as it is" "$(grep -o 'w[0-9%d][^<]*' "$tmp/t.svg" | head -n 2 | tr '\n' ' ')"
grep -qF "\`touch x\` it's" "$tmp/t.svg"
verdict $? "a title of backquotes and a quote is drawn as it is" "$(grep -o 'touch[^<]*' "$tmp/t.svg" | head -n 1)"
[ ! -e "$tmp/x" ] && [ ! -e x ]
verdict $? "nothing in the strings ran" "a file x was created"
