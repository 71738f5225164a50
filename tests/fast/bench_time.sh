#!/usr/bin/env bash
# test: README's make bench time is what docs/setup.md says was measured
# README.md gives make bench's time from a fresh clone as the range of the
# measurements docs/setup.md lists (its "- N min, ..." lines under "make
# bench from a fresh clone"), and a measurement split into kernels and
# boots adds up to its minutes.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "bench time"
python3 - <<'PY'
import re


def say(ok, what):
    print(f"{'PASS' if ok else 'FAIL'}: bench time: {what}")


setup = open("docs/setup.md").read()
part = setup.split("`make bench` from a fresh clone", 1)
items = re.split(r"^- ", part[1].split("\n\n", 2)[1], flags=re.M)[1:] if len(part) == 2 else []
runs = [m.groups() for i in items for m in [re.match(r"(\d+) min\b(.*)", " ".join(i.split()))] if m]
say(len(runs) >= 1, f"docs/setup.md lists make bench's measurements from a fresh clone: {runs}")
mins = sorted(int(m) for m, _ in runs)
split = [(int(m), int(k), int(b)) for m, rest in runs for k, b in re.findall(r"kernels (\d+) s, boots (\d+) s", rest)]
say(split and all(abs((k + b) / 60 - m) < 1 for m, k, b in split),
    f"each split measurement adds up to its minutes (kernels + boots): {split}")
readme = " ".join(open("README.md").read().split())
said = re.search(r"`make bench` builds the kernels.*? it took (\d+) to (\d+) min in all", readme)
got = [int(said.group(1)), int(said.group(2))] if said else None
say(bool(mins) and got == [mins[0], mins[-1]],
    f"README's make bench time from a fresh clone, {got}, is the measurements' range, {mins[:1] + mins[-1:]}")
PY
