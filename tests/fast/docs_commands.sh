#!/usr/bin/env bash
# test: the commands of README.md and docs/
# The commands README.md and docs/*.md give still work as written:
# - README.md holds the two commands, and .ci/run runs its test command
#   (its length: tests/fast/heads.sh);
# - every relative link of README.md, DESIGN.md, docs/*.md, REPORT.md and
#   the study pages (studies/README.md, studies/*/README.md) names a file
#   that exists (and a heading of it, for a #anchor);
# - in their ```sh blocks, every `make TARGET VAR=...` names a target and
#   variables of the Makefile, and a matrix, run, base or architecture that
#   exists; make -n takes the line (for the targets whose recipe make -n
#   only prints); every scripts/, plots/, kernel/ or tests/ path exists;
#   every build/crngbench-run option is one its --help lists; every
#   scripts/deps.sh option is one its usage names.
# No kernel, no QEMU: make -n never runs a recipe here (kernels and bench,
# whose recipes call $(MAKE), are checked without it).
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "docs"
runner=${CRNGBENCH_RUNNER:-build/crngbench-run}
[ -x "$runner" ] || make -s runner >/dev/null 2>&1 || { bad "cannot build the runner (make runner)"; exit 1; }

python3 - "$runner" <<'PY'
import glob, os, re, shlex, subprocess, sys

runner = sys.argv[1]
docs = ["README.md"] + sorted(glob.glob("docs/*.md"))
fails = 0


def ok(msg):
    print("PASS: docs: " + msg)


def bad(msg):
    global fails
    fails += 1
    print("FAIL: docs: " + msg)


def rows(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                out.append(line.split()[0])
    return out[1:]


readme = open("README.md").read()
main = "scripts/deps.sh && make bench    # the main job: build, boot the quick matrix, plot"
test = 'scripts/deps.sh --matrix arches --matrix bases && make check    # every test; ends with "N passed, N failed, N skipped"'
if main in readme.splitlines() and test in readme.splitlines():
    ok("README.md holds the two commands, as they were")
else:
    bad("README.md lost its main or test command (the two lines under 'Two commands')")
ci = open(".ci/run").read()
if "scripts/deps.sh --matrix arches --matrix bases" in ci and re.search(r"^make check$", ci, re.M):
    ok(".ci/run runs README's test command")
else:
    bad(".ci/run no longer runs README's test command (scripts/deps.sh --matrix arches --matrix bases, make check)")


def anchors(path):
    """GitHub's anchors of a Markdown file's headings."""
    out = set()
    fence = False
    for line in open(path):
        if line.startswith("```"):
            fence = not fence
        if fence or not line.startswith("#"):
            continue
        h = line.lstrip("#").strip().lower()
        h = re.sub(r"[^\w\- ]", "", h)
        out.add(h.replace(" ", "-"))
    return out


links, before = 0, fails
pages = ["REPORT.md", "studies/README.md"] + sorted(glob.glob("studies/*/README.md"))
for d in docs + ["DESIGN.md"] + pages:
    text = re.sub(r"```.*?```", "", open(d).read(), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        links += 1
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(d), path)) if path else d
        if not os.path.exists(full):
            bad(f"{d}: link to {target}: no {full}")
        elif anchor and full.endswith(".md") and anchor not in anchors(full):
            bad(f"{d}: link to {target}: {full} has no heading '#{anchor}'")
if fails == before:
    ok(f"{links} links of README.md, DESIGN.md, docs/, REPORT.md and the study pages name files and headings that exist")

makefile = open("Makefile").read()
targets = set(re.findall(r"^([a-z][a-z-]*)\s*:", makefile, re.M))
for a, b in re.findall(r"^([a-z][a-z-]*) ([a-z][a-z-]*):", makefile, re.M):
    targets |= {a, b}
help_text = subprocess.run([runner, "--help"], capture_output=True, text=True).stdout
runner_opts = set(re.findall(r"^\s+(--[a-z-]+)", help_text, re.M)) | {"--help"}
deps_usage = subprocess.run(["scripts/deps.sh", "--no-such-option"], capture_output=True, text=True).stderr
deps_opts = set(re.findall(r"--[a-z]+", deps_usage.split("usage:")[-1]))
matrices = {os.path.basename(m)[:-7] for m in glob.glob("bench/*.matrix") + glob.glob("studies/*/*.matrix")}
runs = {d for d in os.listdir("studies") if os.path.isfile(os.path.join("studies", d, "study"))}
bases = set(rows("kernel/bases"))
arches = set(rows("kernel/arches"))
# make -n only prints these targets' recipes (no $(MAKE) in them)
dry = {"help", "plan", "run", "plots", "report", "post", "reproduce", "reproduce-plan", "probe-image", "image", "runner"}
PLACEHOLDER = re.compile(r"[<>]|\.\.\.|^DIR$|/path/to/")


def check_make(where, words):
    target = next((w for w in words[1:] if "=" not in w), None)
    if target is None or target not in targets:
        bad(f"{where}: make target '{target}' is not in the Makefile")
        return
    for w in words[1:]:
        if "=" not in w:
            continue
        var, val = w.split("=", 1)
        if not re.search(r"\b%s\b" % re.escape(var), makefile):
            bad(f"{where}: {var}= is no variable of the Makefile")
        elif var == "MATRIX" and val not in matrices:
            bad(f"{where}: MATRIX={val}: no bench/{val}.matrix")
        elif var == "RUNS" and not set(val.split(",")) <= runs:
            bad(f"{where}: RUNS={val}: not studies of studies/")
        elif var == "KERNEL_BASE" and val not in bases:
            bad(f"{where}: KERNEL_BASE={val}: no row of kernel/bases")
        elif var == "KERNEL_ARCH" and val not in arches and not PLACEHOLDER.search(val):
            bad(f"{where}: KERNEL_ARCH={val}: no row of kernel/arches")
    if target in dry:
        r = subprocess.run(["make", "-n", "-s"] + words[1:], capture_output=True, text=True)
        if r.returncode != 0:
            bad(f"{where}: make -n {' '.join(words[1:])}: {r.stderr.strip()[:200]}")


def check_words(where, words):
    if not words:
        return
    cmd = words[0]
    if cmd == "make":
        check_make(where, words)
        return
    if cmd == "parallel":
        return
    if "/" in cmd and not os.path.exists(cmd) and cmd != runner and not cmd.startswith("build/"):
        bad(f"{where}: {cmd} does not exist")
    if cmd == "build/crngbench-run":
        for w in words[1:]:
            if w.startswith("--") and w not in runner_opts:
                bad(f"{where}: {w} is no option of crngbench-run (--help)")
        for i, w in enumerate(words[:-1]):
            if w == "--matrix" and not PLACEHOLDER.search(words[i + 1]) and not os.path.exists(words[i + 1]):
                bad(f"{where}: --matrix {words[i + 1]}: no such file")
    if cmd == "scripts/deps.sh":
        for i, w in enumerate(words[1:], 1):
            if w.startswith("--") and w not in deps_opts:
                bad(f"{where}: {w} is no option of scripts/deps.sh")
            if w == "--matrix" and words[i + 1] not in matrices:
                bad(f"{where}: scripts/deps.sh --matrix {words[i + 1]}: no such matrix")


commands, before = 0, fails
for d in docs:
    text = open(d).read()
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        block = block.replace("\\\n", " ")
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if not line or line.startswith("#"):
                continue
            for part in line.split("&&"):
                try:
                    words = shlex.split(part, comments=True)
                except ValueError as e:
                    bad(f"{d}: cannot split '{part.strip()}': {e}")
                    continue
                commands += 1
                check_words(f"{d}: '{part.strip()}'", words)
if fails == before:
    ok(f"{commands} commands of README.md and docs/: targets, variables, matrices, scripts and options exist")
sys.exit(1 if fails else 0)
PY
