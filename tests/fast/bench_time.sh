#!/usr/bin/env bash
# test: README's make bench time is what docs/setup.md says was measured
# docs/setup.md lists `make bench`'s measurements from a clean clone, each
# named warm (a warm kernel cache: "warm kernel cache: M min S s, ...:
# boots B s") or cold ("cold, ...: N min, ...: kernels K s, boots B s",
# which add up to its minutes), and derives a cold run from the warm one:
# the unpacking (~U s) and the quick matrix's kernels, kernel/build-cost's
# 6.1 x86_64 row (cold_s for the first, variant_s for each other), "T s:
# with the warm run's W s, about N min". README.md quotes the warm time
# and the cold measurement as they are, and the derived minutes, each
# said "warm kernel cache" or "cold".
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "bench time"
python3 - <<'PY'
import re


def say(ok, what):
    print(f"{'PASS' if ok else 'FAIL'}: bench time: {what}")


def flat(path):
    return " ".join(open(path).read().split())


setup = flat("docs/setup.md").split("`scripts/deps.sh && make bench` from a clean clone", 1)[-1]
warm = re.search(r"- warm kernel cache: (\d+) min (\d+) s, [^:]*: boots (\d+) s", setup)
cold = re.search(r"- cold, [^:]*: (\d+) min, [^:]*: kernels (\d+) s, boots (\d+) s", setup)
say(warm and cold, f"docs/setup.md lists a warm and a cold measurement: {warm and warm.group(0)} | {cold and cold.group(0)}")
say(cold and abs((int(cold[2]) + int(cold[3])) / 60 - int(cold[1])) < 1,
    f"the cold measurement's kernels and boots add up to its minutes: {cold and cold.groups()}")
# the derivation, from kernel/build-cost and the quick matrix's variants
cost = next(l.split() for l in open("kernel/build-cost") if l.split()[:2] == ["6.1", "x86_64"])
nvar = len(next(l for l in open("studies/quick/quick.matrix") if l.startswith("variant")).split("=")[1].split(","))
derived = re.search(r"unpacking \(~(\d+) s\) and the (\w+) kernels, (\d+) s for the first and ([\d.]+) s for each "
                    r"other \(`kernel/build-cost`'s 6.1 x86_64 row\), (\d+) s: with the warm run's (\d+) s, about (\d+) min",
                    setup)
ok = bool(derived and warm)
if ok:
    unpack, words, first, each, total, wsec, mins = derived.groups()
    want = int(unpack) + float(cost[2]) + (nvar - 1) * float(cost[3])
    wrun = int(warm[1]) * 60 + int(warm[2])
    ok = (first, each) == (cost[2], cost[3]) and words == {4: "four"}.get(nvar, str(nvar)) and \
        abs(int(total) - want) <= 1 and int(wsec) == wrun and int(mins) == round((wrun + int(total)) / 60)
say(ok, f"the derived cold time is kernel/build-cost's ({cost}, {nvar} variants) plus the warm run: "
    f"{derived and derived.group(0)}")
readme = flat("README.md")
said = re.search(r"`make bench` builds the kernels.*?took (\d+) min (\d+) s from a clean clone with a warm kernel cache\. "
                 r"Cold, the \w+ kernels add about (\d+) min \(`kernel/build-cost`\): about (\d+) min in all; the one "
                 r"cold run measured took (\d+) min", readme)
say(bool(said and ok) and said.groups() == (warm[1], warm[2], str(round(int(total) / 60)), mins, cold[1]),
    f"README's make bench times are setup.md's, warm and cold: {said and said.groups()}")
PY
