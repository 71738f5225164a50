# crngbench: what blocking /dev/urandom costs at boot, measured under QEMU.
#
#   make bench      build kernels, guest and runner; boot the matrix; plot
#   make check      every test (ends with "N passed, N failed, N skipped")
#   make help       targets and variables
#
# Variables below may be overridden on the command line or in the
# environment (make bench MATRIX=full REPS=20).

# Cache for the kernel tree, kernel builds and ccache (outside the checkout).
CRNGBENCH_CACHE ?= $(shell scripts/cache-dir.sh)
# A matrix (bench/*.matrix, studies/*/*.matrix: make help lists them) and axis overrides.
MATRIX ?= quick
# Comma lists in QEMU's / the matrix's spelling; empty = the matrix's own.
VARIANTS ?=
CPUS ?=
ACCELS ?=
REPS ?=
# Extra runner options, e.g. RUNFLAGS="--perf --jobs 2 --shard 1/2".
RUNFLAGS ?=
# Results go to $(RESULTS)/<matrix>-<UTC time>; results/latest points there.
RESULTS ?= results
# CONFIG_HZ of the kernels (100, 250, 1000).
HZ ?= 250
# Extra kernel patches applied after each variant's series.
EXTRA_PATCHES ?=
# Kernel base (a row of kernel/bases; its first by default) and a source
# tarball to build it from instead of its Debian package's.
KERNEL_BASE ?=
KERNEL_TARBALL ?=
# Host build directory for the probe, runner, tests and guest image: a
# directory directly under this checkout (build2, not /elsewhere nor
# build/x), as the runner finds kernel/ beside it (BUILD_CHECK below).
BUILD ?= build
QEMU ?= qemu-system-x86_64
# The host C compiler (GNU make predefines CC=cc; set it on the command line).

export CRNGBENCH_CACHE KERNEL_BASE KERNEL_TARBALL EXTRA_PATCHES

# What a user types in these variables is data, never make or shell code:
# a value holding $, `, ;, |, &, <, >, a parenthesis or a backslash (or a
# quote, but in SETS and RUNFLAGS, which may quote an exclude= line) is
# refused here, before anything expands it (MATRIX='quick$(shell touch X)'
# once ran its command). So is, but in SETS and RUNFLAGS (lists of options),
# whitespace or a glob character (* ? [): recipes take these values as
# bare shell words, and make clean BUILD='/a /b' once removed /a and /b,
# MATRIX='quick --arch x' gave scripts/deps.sh an option of its own.
# RUN, FROM, HOSTS and the like are quoted (q) instead.
lparen := (
rparen := )
empty :=
space := $(empty) $(empty)
tab := $(empty)	$(empty)
define newline


endef
CODE_CHARS := \ $$ ` ; | & < > $(lparen) $(rparen)
WORD_CHARS := * ? [
DATA_VARS := MATRIX VARIANTS CPUS ACCELS REPS RESULTS BUILD HZ KERNEL_BASE KERNEL_ARCH SETS RUNFLAGS
ws_in = $(if $(findstring $(space),$1)$(findstring $(tab),$1)$(findstring $(newline),$1),whitespace)
code_in = $(strip $(foreach c,$(CODE_CHARS) $(if $(filter SETS RUNFLAGS,$1),,' " $(WORD_CHARS)),$(findstring $c,$(value $1))) \
	$(if $(filter SETS RUNFLAGS,$1),,$(call ws_in,$(value $1))))
$(foreach v,$(DATA_VARS),$(if $(call code_in,$v),$(error $v='$(value $v)' holds $(call code_in,$v): \
	a value here is data (names, numbers, paths, --set options; one word, but in SETS and RUNFLAGS), never make or shell code)))
# The variables that hold any text (a path, a program, a list of hosts)
# reach a shell only single-quoted (q, qv), but make itself expands a $ in
# one given on the command line or in the environment (ifeq ($(FROM),...),
# make help, and every recipe's environment for a command-line one), so
# QEMU='$(shell touch X)' ran its command: a $ is refused in them here.
TEXT_VARS := QEMU FROM RUNS HOSTS SHARDS DRYRUN CRNGBENCH_CACHE KERNEL_TARBALL EXTRA_PATCHES V JOBS PARALLEL REPRODUCE_TICK
$(foreach v,$(TEXT_VARS),$(if $(filter file default undefined,$(origin $v)),,$(if $(findstring $$,$(value $v)),\
	$(error $v='$(value $v)' holds $$: make would expand it as its own code; give a path or name without $$))))

# Sub-makes (make bench runs make kernels, build.sh runs kbuild) print no
# "Entering directory" lines: nothing reads or shows make's own chatter.
MAKEFLAGS += --no-print-directory

# As kbuild prints: one "  CC      file" line per compile, the whole
# command with V=1 (a build log to read, or a flag to check), nothing
# with make -s.
V ?= 0
ifeq ($(V),1)
cmd_say =
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
cmd_say =
else
cmd_say = @printf '  %-7s %s\n' '$1' '$2';
endif

CSTD := -std=c11
WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
ALL_CFLAGS := $(CSTD) $(WARN) $(CFLAGS)

RECORD_SRC := guest-image/record.c
# The probe: main() and PID 1 (probe.c), what its roles share (guest.c,
# reads.c, emit.c; the header of every role, guest.h), the game stand-in and
# the two reporters.
PROBE_SRC := $(addprefix guest-image/,probe.c guest.c reads.c emit.c game.c report_x86.c report_probe_only.c \
	analyze.c blake2s.c vdso.c) $(RECORD_SRC)
# The runner: bench/run.c and options.c on top of the stage folders
# (bench/*/: ground, machines, matrix, rows, results, summary, boot, merge),
# taken by wildcard; tests/fast/callgraph.sh holds the folders' order.
RUNNER_SRC := $(sort $(wildcard bench/*.c bench/*/*.c)) $(RECORD_SRC)
RUNNER_HDR := $(wildcard bench/*.h bench/*/*.h) guest-image/record.h
# Unit tests link the runner's and the probe's parts, nothing else.
UNIT_LIB := $(filter-out bench/run.c,$(RUNNER_SRC)) guest-image/analyze.c guest-image/blake2s.c guest-image/vdso.c
UNIT_NAMES := $(basename $(notdir $(wildcard tests/unit/test_*.c)))
UNIT_BINS := $(foreach t,$(UNIT_NAMES),$(BUILD)/unit/$(t)-plain $(BUILD)/unit/$(t)-asan)
SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
ALL_VARIANTS := $(shell scripts/variants.sh --all)

PROBE := $(BUILD)/probe
RUNNER := $(BUILD)/crngbench-run
IMAGE := $(BUILD)/guest.cpio
IMAGE_INPUTS := guest-image/build-image.sh $(wildcard guest-image/units/* guest-image/units/*/*)

.DELETE_ON_ERROR:
.PHONY: all help deps kernels kernels-check image probe-image runner bench run plan plots report check test \
	unit unit-bins unit-bins-plain lint post bench-build bench-parallel reproduce reproduce-plan clean distclean

all: runner image

help:
	@echo "crngbench targets:"
	@echo "  make deps        install the Debian packages crngbench needs (root)"
	@echo "  make kernels     build kernel variants (VARIANTS=..., HZ=...; the matrix's arch axis,"
	@echo "                   or KERNEL_ARCH=armv5|armv7|m68k|mipsel: cross-built, see kernel/arches;"
	@echo "                   the matrix's bases, or KERNEL_BASE=$$(scripts/table.sh --keys kernel/bases | paste -sd'|'): kernel/bases)"
	@echo "  make probe-image the probe-only guest of KERNEL_ARCH ($(BUILD)/probe-<arch>.cpio)"
	@echo "  make image       build the systemd guest initramfs ($(IMAGE))"
	@echo "  make runner      build the boot runner ($(RUNNER))"
	@echo "  make bench       everything: deps, kernels, image, runner, run MATRIX, plots"
	@echo "  make run         run MATRIX only (kernels and image must be built); prints make plan first;"
	@echo "                   RESUME=DIR finishes the run in DIR, or grows it by the values ACCELS, VARIANTS... add"
	@echo "  make plan        MATRIX's boots and estimated host time per arch and accelerator"
	@echo "                   (from the runs in studies/ and the fixtures; plots/estimate.py)"
	@echo "  make plots       render charts for RUN=<results dir> (default results/latest)"
	@echo "  make report      RUN's report beside it: RUN/report.md, its tables and charts (RUN/plots/);"
	@echo "                   FROM=committed: REPORT.md's blocks, plots/figures and post.txt from studies/<name>/run"
	@echo "  make reproduce   every study's run (studies/) into $(RESULTS)/reproduce/ (a complete one skipped, a"
	@echo "                   partial one resumed), kept in studies/, then REPORT.md, charts, post.txt (~1 h 30 min from cold here);"
	@echo "                   RUNS=a,b some; HOSTS=':,user@host2' [SHARDS=N] shards across hosts (GNU parallel)"
	@echo "  make reproduce-plan  its checks and plan only (DRYRUN=1): boots and kernel builds, estimated"
	@echo "  make unit        the fast tier: unit tests (plain, ASan+UBSan), fuzz smoke,"
	@echo "                   the runner against tests/lib/fake-qemu, plots on the fixture, no real QEMU"
	@echo "                   (104 s in a fresh clone on the idle 2-core reference machine)"
	@echo "  make post        RUN's mail for the list, from your git identity: RUN/series/*.patch, its patches"
	@echo "                   and a cover letter of its figures (an [RFC] without one; git send-email takes them)"
	@echo "                   FROM=committed: the project's mail, plots/series/: a [PATCH] per kernel/series row"
	@echo "                   (each a thread of its own) and rfc.mbox, the [RFC] of the committed runs' figures"
	@echo "  make check       unit, then kernels and real boots; ends 'N passed, N failed, N skipped'"
	@echo "  make lint        clang-format check, cppcheck, checkpatch on every base's patches"
	@echo "  make bench-build kernel build speed figures per base (cold builds: ~15 min a base;"
	@echo "                   KERNEL_BASE=6.12 for one, KERNEL_ARCH=m68k for another architecture)"
	@echo "  make bench-parallel  icount medians at --parallel-jobs 1 and 2, side by side (~2 min)"
	@echo "  make clean       remove $(BUILD)/ (results/ stay: rm -rf them yourself)"
	@printf '  make distclean   clean, and the kernel cache %s\n' $(call qv,CRNGBENCH_CACHE)
	@echo "variables (current value):"
	@printf '  %s=%s' $(foreach v,MATRIX VARIANTS CPUS ACCELS REPS HZ,$v $(call qv,$v)); echo
	@printf '  %s=%s' $(foreach v,RUNFLAGS RESULTS BUILD QEMU,$v $(call qv,$v)); echo
	@printf '  %s=%s' $(foreach v,RUNS HOSTS SHARDS DRYRUN FROM,$v $(call qv,$v)); echo
	@printf '  %s=%s' $(foreach v,CRNGBENCH_CACHE,$v $(call qv,$v)); echo
	@printf '  %s=%s' $(foreach v,KERNEL_BASE KERNEL_TARBALL EXTRA_PATCHES KERNEL_ARCH,$v $(call qv,$v)); echo
	@printf '  V=%s (V=1: each compiler command whole, as kbuild'"'"'s V=1)\n' $(call qv,V)
	@echo "matrices: $(MATRICES)"
	@echo "variants: $(ALL_VARIANTS)"

deps:
	scripts/deps.sh --matrix $(MATRIX)

# --- kernels ------------------------------------------------------------------
# The kernels the matrix's planned cells boot (plus KERNEL_BASE, VARIANTS,
# HZ), as the runner resolves them (--print-axis kernels: a line per base,
# kernel/arches row and HZ); build.sh skips up-to-date ones.
# A matrix by name: bench/<m>.matrix (of no study) or studies/<study>/<m>.matrix
# (a study's own), as scripts/studies.sh's matrix_file finds it.
MATRIX_FILES := $(sort $(wildcard bench/*.matrix studies/*/*.matrix))
MATRICES := $(sort $(basename $(notdir $(MATRIX_FILES))))
MATRIX_FILE := $(or $(firstword $(filter %/$(MATRIX).matrix,$(MATRIX_FILES))),bench/$(MATRIX).matrix)
# What builds one kernel; tests/fast/make_kernels.sh stands a recorder in for it.
# It gets none of this make's flags: kbuild would take make -s or V=1 as
# its own and print no "  CC" lines, which kernel/progress.sh counts (a
# build under make -s kernels said "0 files compiled").
KERNEL_BUILD ?= kernel/build.sh

# KERNEL_CHECK_CACHE: the cache is one kbuild can build under (its path
# reaches kbuild's shell unquoted), checked before anything is built.
KERNEL_CHECK_CACHE = scripts/cache-dir.sh --kbuild >/dev/null || exit 2
kernels: $(RUNNER)
	@$(KERNEL_CHECK_CACHE)
	@test -f $(MATRIX_FILE) || { echo "error: no matrix '$(MATRIX)'; matrices: $(MATRICES)" >&2; exit 2; }
	@list=$$($(RUNNER) --matrix $(MATRIX_FILE) $(AXIS_SETS) --print-axis kernels) && \
	ka=$$(echo "$$list" | awk '{print $$2}' | sort -u) && \
	kb=$$(echo "$$list" | awk '{print $$1}' | sort -u) && \
	if [ -n "$${KERNEL_BASE:-}" ] && [ "$$kb" != "$$KERNEL_BASE" ]; then \
		echo "error: KERNEL_BASE=$$KERNEL_BASE, but MATRIX=$(MATRIX)'s planned cells boot kernels of base $$(echo $$kb) (a kernel of another base is never 'up to date')" >&2; exit 2; fi && \
	if [ -n "$${KERNEL_ARCH:-}" ] && ! echo "$$ka" | grep -qx -- "$$KERNEL_ARCH"; then \
		echo "error: KERNEL_ARCH=$$KERNEL_ARCH: MATRIX=$(MATRIX)'s planned cells boot no kernel of that kernel/arches row (they boot: $$(echo $$ka)); pick one of those, or a matrix whose arch axis names its machines" >&2; exit 2; fi && \
	for a in $${KERNEL_ARCH:-$$ka}; do \
		echo "$$list" | awk -v a=$$a '$$2 == a' | while read -r b _ h v; do \
			MAKEFLAGS= MAKEOVERRIDES= MFLAGS= KERNEL_BASE=$$b KERNEL_ARCH=$$a KERNEL_HZ=$$h $(KERNEL_BUILD) $$v || exit $$?; \
		done || exit $$?; \
		[ "$$(scripts/table.sh kernel/arches $$a guest)" != probe ] || $(MAKE) --no-print-directory probe-image KERNEL_ARCH=$$a || exit $$?; \
	done

# A probe-only guest for another architecture: the probe cross-compiled
# statically (Debian's gcc-<arch> and libc6-dev-<arch>-cross) as /init.
KERNEL_ARCH ?=
probe-image: | $(BUILD)
	@. scripts/table.sh; \
	libcpkg=$$(table_get kernel/arches "$(KERNEL_ARCH)" libc 2>/dev/null); \
	[ -n "$$libcpkg" ] || { echo "error: KERNEL_ARCH='$(KERNEL_ARCH)': give a kernel/arches row with a probe C library: $$(for r in $$(table_keys kernel/arches); do [ -z "$$(table_get kernel/arches $$r libc)" ] || printf '%s ' $$r; done)(kernel/arches)" >&2; exit 2; }; \
	cross=$$(table_get kernel/arches "$(KERNEL_ARCH)" cross); ccpkg=$$(table_get kernel/arches "$(KERNEL_ARCH)" compiler); \
	command -v $${cross}gcc >/dev/null || { echo "error: $${cross}gcc not found: apt-get install -y $$ccpkg $$libcpkg (or scripts/deps.sh --arch $(KERNEL_ARCH))" >&2; exit 2; }; \
	$${cross}gcc $(ALL_CFLAGS) -static -o $(BUILD)/probe-$(KERNEL_ARCH) $(PROBE_SRC) || \
		{ echo "error: cross-compiling the probe for $(KERNEL_ARCH) failed (is $$libcpkg installed?)" >&2; exit 2; }; \
	guest-image/build-probe-image.sh $(BUILD)/probe-$(KERNEL_ARCH) $(BUILD)/probe-$(KERNEL_ARCH).cpio

# Every base of the matrix (or KERNEL_BASE): its patches must apply, of
# VARIANTS or of every variant of the base (scripts/variants.sh).
kernels-check: $(RUNNER)
	@$(KERNEL_CHECK_CACHE)
	@bases=$$($(RUNNER) --matrix $(MATRIX_FILE) $(AXIS_SETS) --print-axis base) && \
	for b in $$(echo $$bases | tr , ' '); do \
		KERNEL_BASE=$$b kernel/build.sh --check $(or $(VARIANTS),$$(KERNEL_BASE=$$b scripts/variants.sh)) || exit $$?; \
	done

# --- guest and runner -------------------------------------------------------------
$(BUILD):
	mkdir -p -- $@

# The runner reads kernel/ and the other fact tables beside its own
# directory (<BUILD>/../kernel/bases: bench/table.c's table_path(), never
# the current directory's), so a runner built anywhere but directly under
# this checkout cannot run: make bench BUILD=/elsewhere built one that
# said "cannot find kernel/bases beside the runner". Refused before
# anything is built (or installed: make bench), by every target that
# builds the runner. BUILD holds no space or quote (DATA_VARS).
BUILD_CHECK = p=$$(realpath -m -- $(BUILD)) && [ "$${p%/*}" = "$$(pwd -P)" ] || \
	{ echo "error: BUILD=$(BUILD): the runner finds kernel/ beside its own directory (BUILD/../kernel), so BUILD must be a directory directly under this checkout ($(CURDIR)): build (the default) or another name there, e.g. BUILD=build2" >&2; exit 2; }
.PHONY: build-check
build-check:
	@$(BUILD_CHECK)

# The probe is PID 1 of the guest: static, so the image needs no loader for it.
$(PROBE): $(PROBE_SRC) $(wildcard guest-image/*.h) | $(BUILD)
	$(call cmd_say,CC,$@)$(CC) $(ALL_CFLAGS) -static -o $@ $(PROBE_SRC)

$(IMAGE): $(PROBE) $(IMAGE_INPUTS) /lib/systemd/systemd
	guest-image/build-image.sh $(PROBE) $@

image: $(IMAGE)

# Linked from the objects the unit tests link too (the same flags): each
# source compiled once, side by side under -j, not once more in one gcc.
RUNNER_OBJ := $(patsubst %.c,$(BUILD)/unit/plain/%.o,$(RUNNER_SRC))
$(RUNNER): $(RUNNER_OBJ) | $(BUILD) build-check
	$(call cmd_say,LD,$@)$(CC) $(ALL_CFLAGS) -o $@ $(RUNNER_OBJ) -lm

runner: $(RUNNER)

# --- the main job ----------------------------------------------------------------
# SETS is the user's own: extra --set options (SETS='--set rtc=fixed').
# AXIS_SETS is what every recipe passes: SETS plus what VARIANTS, CPUS,
# ACCELS, REPS, HZ and KERNEL_BASE say, so that no SETS given on make's
# command line can drop one of them (a SETS there replaced the whole
# definition once, and KERNEL_BASE=6.12 built 6.1's kernels). The runner
# refuses a key set twice, so SETS='--set base=6.1' KERNEL_BASE=6.12 is
# an error, not a choice.
SETS ?=
AXIS_SETS = $(SETS) $(if $(VARIANTS),--set variant=$(VARIANTS)) $(if $(CPUS),--set cpu=$(CPUS)) \
	$(if $(ACCELS),--set accel=$(ACCELS)) $(if $(REPS),--set reps=$(REPS)) \
	$(if $(filter command line,$(origin HZ)),--set hz=$(HZ)) $(if $(KERNEL_BASE),--set base=$(KERNEL_BASE))

# RESUME=DIR: make run finishes the run in DIR, or grows it: VARIANTS,
# ACCELS, ... and SETS are set over its matrix (MATRIX, given, names the
# matrix file instead), which may only gain axis values; the boots it
# holds are kept (docs/compare-accels.md). A path, quoted like RUN below.
RESUME ?=
unexport RESUME

# The plan first (make plan): an estimate that fails is a warning, never
# the end of the run.
ifeq ($(value RESUME),)
run: runner image
	@test -f $(MATRIX_FILE) || { echo "error: no matrix '$(MATRIX)'; matrices: $(MATRICES)" >&2; exit 2; }
	@$(ESTIMATE) || echo "warning: no estimate of the run's host time (plots/estimate.py failed above); running anyway" >&2
	@out=$(RESULTS)/$(MATRIX)-$$(date -u +%Y%m%dT%H%M%SZ); mkdir -p $(RESULTS); \
	$(RUNNER) --matrix $(MATRIX_FILE) $(AXIS_SETS) --image $(IMAGE) --qemu $(call q,QEMU) \
		--out $$out $(RUNFLAGS) && \
	ln -sfn $$(basename $$out) $(RESULTS)/latest && echo "results: $$out"
else
# The runner prints what the grow adds and the boots still to do.
run: runner image
	@test -f $(MATRIX_FILE) || { echo "error: no matrix '$(MATRIX)'; matrices: $(basename $(notdir $(wildcard bench/*.matrix)))" >&2; exit 2; }
	@$(RUNNER) --resume --out $(call q,RESUME) $(if $(filter command line,$(origin MATRIX)),--matrix $(MATRIX_FILE)) \
		$(AXIS_SETS) --image $(IMAGE) --qemu $(call q,QEMU) $(RUNFLAGS) && echo "results: "$(call q,RESUME)
endif

# The boots of MATRIX (with AXIS_SETS and RUNFLAGS' --jobs, --parallel-jobs,
# --shard) and their estimated host time: per arch and accelerator, the
# median host time of the most alike boots of the reference runs
# (studies/*/run/ and the fixture runs; plots/estimate.py).
ESTIMATE = $(WITH_RUNNER) plots/estimate.py --matrix $(MATRIX_FILE) $(AXIS_SETS) -- $(RUNFLAGS)
plan: runner
	@test -f $(MATRIX_FILE) || { echo "error: no matrix '$(MATRIX)'; matrices: $(MATRICES)" >&2; exit 2; }
	@$(ESTIMATE)

# Each stage timed; the split (with the runner's host time per accelerator)
# is printed at the end and kept as RUN/main-job-time.txt.
# The stage times go to a fresh file in BUILD (scripts/fresh.sh: never
# through a link a checkout carries at a fixed name), removed at the end.
bench:
	@$(BUILD_CHECK)
	@$(KERNEL_CHECK_CACHE)
	@set -e; . scripts/fresh.sh; mkdir -p $(BUILD); times=$$(fresh_beside $(BUILD)/.bench-times); trap 'rm -f "$$times"' EXIT; \
	t=$$(date +%s.%N); lap() { n=$$(date +%s.%N); printf '%s %.1f\n' "$$1" "$$(echo "$$n - $$t" | bc)" >>"$$times"; t=$$n; }; \
	scripts/deps.sh --matrix $(MATRIX); lap packages; \
	$(MAKE) kernels-check; $(MAKE) kernels; lap kernels; \
	$(MAKE) runner image; lap "runner+image"; \
	$(MAKE) run; lap boots; \
	$(MAKE) plots RUN=$(RESULTS)/latest; lap plots; \
	scripts/time-split.sh "$$times" $(RESULTS)/latest | tee $(RESULTS)/latest/main-job-time.txt
	@echo "results: $$(readlink -f $(RESULTS)/latest)"

# The chart, report and mail scripts ask the runner for its axes
# (plots/runlib.py): each target builds it and names it to them.
WITH_RUNNER = CRNGBENCH_RUNNER=$(call sq,$(abspath $(RUNNER)))

# RUN and the runs beside it (below) name results directories, which come
# from elsewhere: a value is a path, never make or shell code. A recipe
# takes one as a single shell word, $(call q,RUN): its text unexpanded
# ($(value), so a $(shell ...) in it is not run), single-quoted. A newline
# would end the recipe line there: refused. They are not exported (make
# would expand a command-line value to put it into the environment).
# text $1 as one single-quoted shell word (the one rule of quoting here)
sq = '$(subst ','\'',$1)'
# variable $1's value as written, unexpanded, as one shell word; a newline
# refused
q = $(if $(findstring $(newline),$(value $1)),$(error $1 holds a newline: give a value of one line (a results directory, a path, a name)),$(call sq,$(value $1)))
# variable $1's value, expanded, as one shell word (make help shows it)
qv = $(call sq,$(subst $(newline), ,$($1)))
# variable $1's value, expanded, as one shell word naming one path (a
# newline refused, not turned into a space: another path)
qpath = $(if $(findstring $(newline),$($1)),$(error $1 holds a newline: give a path of one line),$(call sq,$($1)))
# make report takes one run, RUN (a study's run goes to plots/report.sh
# as --<study> DIR; every block from the committed runs: FROM=committed).
# Another *RUN variable on the command line (make post's HZRUN and
# ARCHESRUN aside) is refused, not ignored, before make expands it.
STRAY_RUNS := $(foreach v,$(filter-out RUN HZRUN ARCHESRUN DRYRUN,$(filter %RUN,$(.VARIABLES))),$(if $(filter command line,$(origin $v)),$v))
$(if $(STRAY_RUNS),$(error $(STRAY_RUNS): no such variable: make report takes RUN alone (FROM=committed: every study's block; plots/report.sh RUN --<study> DIR: one study's run, a folder of studies/)))
ifeq ($(origin RUN),undefined)
RUN := $(RESULTS)/latest
endif

plots: runner
	$(WITH_RUNNER) plots/render.sh $(call q,RUN)

# RUN's own report beside it, RUN/report.md: its tables and charts
# (plots/report.sh --run checks every chart it names: a file of the run,
# by its known name, never a link or a FIFO); REPORT.md and plots/figures
# are left alone. FROM=committed: every block of REPORT.md and the study
# pages, the charts and post.txt from the committed runs instead
# (scripts/regen-report.sh: studies/<name>/run of each study), the only
# way they are written.
FROM ?=
unexport RUN HZRUN ARCHESRUN
ifeq ($(FROM),committed)
report: runner
	$(WITH_RUNNER) scripts/regen-report.sh
else ifneq ($(FROM),)
report:
	@echo "error: FROM='"$(call qv,FROM)"': give FROM=committed (the runs of studies/), or RUN=... and the others" >&2; exit 2
else
report: runner
	$(WITH_RUNNER) plots/report.sh --run $(call q,RUN)
endif

# The mail for the list, a patch series git send-email takes once read,
# From and Signed-off-by the user's git identity (none: refused, nothing
# written). RUN: its patches (what its variants add over their baselines,
# kernel/measurement) as [PATCH k/N] under a cover letter of RUN's
# figures, or an [RFC] of them when it has none, into RUN/series/ (RUN
# resolved once: results/latest is a link the next run moves);
# plots/runmail.py. FROM=committed: the project's mail, into
# plots/series/ (plots/series.py): each kernel/series patch a [PATCH]
# mail of its own, its figures filled from the committed runs, and
# rfc.mbox, the [RFC] of them (plots/rfc-letter.txt), also Cc'd to the
# 2022 RFC's list (plots/rfc-cc). To and Cc: the base tree's
# get_maintainer.pl.
ifeq ($(FROM),committed)
post: runner
	$(WITH_RUNNER) plots/series.py studies plots/series
else ifneq ($(FROM),)
post:
	@echo "error: FROM='"$(call qv,FROM)"': give FROM=committed (the project's series), or RUN=<a results directory>" >&2; exit 2
else
post: runner
	$(WITH_RUNNER) plots/runmail.py $(call q,RUN)
endif

bench-build:
	scripts/bench-build.sh

# icount boots side by side measure what they measure alone: medians at
# --parallel-jobs 1 and 2 (PARALLEL=N), with host times (~2 min).
bench-parallel: runner image
	scripts/bench-parallel.sh

# Every run REPORT.md draws on (each study of studies/), its data kept in
# studies/, then REPORT.md's blocks, the charts and post.txt from them
# (scripts/reproduce.sh). Values are passed as single words, never code.
RUNS ?=
HOSTS ?=
SHARDS ?=
DRYRUN ?=
# The runs are the table's: what would change them (MATRIX's overrides,
# RUNFLAGS, another kernel) is refused, not applied to some of them.
REPRODUCE_REFUSED = $(strip $(foreach v,VARIANTS CPUS ACCELS REPS SETS RUNFLAGS KERNEL_BASE KERNEL_TARBALL EXTRA_PATCHES,\
	$(if $(value $v),$v)) $(if $(filter command line,$(origin HZ)),HZ))
REPRODUCE = $(if $(REPRODUCE_REFUSED),echo "error: make reproduce runs the studies' runs as their matrices define them: $(REPRODUCE_REFUSED) would change them; leave them out" >&2; exit 2;) \
	RUNS=$(call q,RUNS) HOSTS=$(call q,HOSTS) SHARDS=$(call q,SHARDS) RESULTS=$(call q,RESULTS) \
	QEMU=$(call q,QEMU) scripts/reproduce.sh
reproduce:
	@DRYRUN=$(call q,DRYRUN) $(REPRODUCE)

reproduce-plan:
	@DRYRUN=1 $(REPRODUCE)

# --- tests -----------------------------------------------------------------------
$(BUILD)/unit:
	mkdir -p $@

# The library parts are compiled once per flavour and linked into each test.
UNIT_OBJ_plain := $(patsubst %.c,$(BUILD)/unit/plain/%.o,$(UNIT_LIB))
UNIT_OBJ_asan := $(patsubst %.c,$(BUILD)/unit/asan/%.o,$(UNIT_LIB))
FLAGS_plain := $(ALL_CFLAGS)
FLAGS_asan := $(CSTD) $(WARN) -g -O1 $(SAN)

$(BUILD)/unit/plain/%.o: %.c $(RUNNER_HDR) $(wildcard guest-image/*.h) | build-check
	@mkdir -p $(dir $@)
	$(call cmd_say,CC,$@)$(CC) $(FLAGS_plain) -c -o $@ $<

$(BUILD)/unit/asan/%.o: %.c $(RUNNER_HDR) $(wildcard guest-image/*.h) | build-check
	@mkdir -p $(dir $@)
	$(call cmd_say,CC,$@)$(CC) $(FLAGS_asan) -c -o $@ $<

$(BUILD)/unit/%-plain: tests/unit/%.c tests/unit/check.h $(UNIT_OBJ_plain) | $(BUILD)/unit
	$(call cmd_say,CCLD,$@)$(CC) $(FLAGS_plain) -o $@ $< $(UNIT_OBJ_plain) -lm

$(BUILD)/unit/%-asan: tests/unit/%.c tests/unit/check.h $(UNIT_OBJ_asan) | $(BUILD)/unit
	$(call cmd_say,CCLD,$@)$(CC) $(FLAGS_asan) -o $@ $< $(UNIT_OBJ_asan) -lm

# The objects are named too: made only by a pattern rule, they would count
# as intermediate and be deleted after the link, and tests/fast/callgraph.sh
# reads them.
unit-bins: $(UNIT_BINS) $(RUNNER) $(UNIT_OBJ_plain) $(UNIT_OBJ_asan)
# The mutation check's copies need no sanitizer builds (its unit checks run
# the plain binaries): half the compiling.
unit-bins-plain: $(filter %-plain,$(UNIT_BINS)) $(RUNNER) $(UNIT_OBJ_plain)

# The fast tier: no kernel, no image. Ends with its own count line.
unit:
	tests/unit.sh

check test:
	tests/run.sh

lint:
	tests/slow/lint.sh

# results/ holds hours of boots: never removed by a make target.
clean:
	rm -rf -- $(BUILD)

distclean: clean
	rm -rf $(call qpath,CRNGBENCH_CACHE)
