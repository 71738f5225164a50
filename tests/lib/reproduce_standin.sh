# shellcheck shell=bash
# Sourced by the make reproduce tests (tests/slow/reproduce.sh,
# tests/slow/reproduce_shards.sh): a stand-in checkout where make reproduce
# boots tests/lib/fake-qemu instead of kernels, in seconds.
#   standin DIR
# DIR gets a copy of the tree as git has it (tracked files, as changed in
# the work tree), committed in a git repository of its own (make reproduce
# HOSTS= compares every host's commit), with:
#   bench/mini.matrix   two icount cells (stock, block; qemu64), 3 boots each
#   studies/            its own studies alone: one, two (bench/mini.matrix,
#                       no block of REPORT.md), ghost (a matrix that does not exist)
#   kernel/build.sh     a stand-in: --kernels-dir names DIR/k, whose
#                       "kernels" tell fake-qemu to replay a recorded boot
#                       (after FAKE_DELAY s); --status says every kernel is
#                       absent, its build directory cold (the plan counts
#                       them); a build is a line in DIR/build.log, nothing more
#   build/              the runner of this tree and its objects, and an empty
#                       probe and image, newer than their sources (make builds nothing)
# Run make there with QEMU=tests/fake-qemu. The make variables a caller's
# environment may hold, which make reproduce refuses or takes, are unset.
unset VARIANTS CPUS ACCELS REPS RUNFLAGS KERNEL_BASE KERNEL_TARBALL EXTRA_PATCHES HZ RUNS HOSTS SHARDS DRYRUN \
	RESULTS REPRODUCE_TICK MAKEFLAGS MAKELEVEL
standin() {
	local dir=$1 src
	src=$(pwd)
	mkdir -p "$dir"
	tree_copy "$dir" || return 1
	mkdir -p "$dir/k/stock-hz250" "$dir/k/block-hz250" "$dir/build"
	for v in stock block; do
		echo "slow-ok $src/tests/fixtures/block-qemu64.result ${FAKE_DELAY:-0.05}" >"$dir/k/$v-hz250/bzImage"
	done
	cat >"$dir/bench/mini.matrix" <<-'EOF'
		# make reproduce's tests: two cells, three boots each, against tests/lib/fake-qemu
		name = mini
		variant = stock,block
		accel = icount
		cpu = qemu64
		nocounter = off
		reads = urandom
		trace = off
		reps = 3
		# every boot: these tests count them (tests/fast/stop_rule.sh: the stop rule)
		min_reps = 3
		timeout = 20
	EOF
	# its own studies alone: one, two (bench/mini.matrix, no block of
	# REPORT.md), ghost (a matrix that does not exist)
	rm -rf "$dir/studies" && mkdir -p "$dir/studies" || return 1
	local n=0 name m
	for name in one two ghost; do
		n=$((n + 1)) m=mini
		[ $name != ghost ] || m=nosuch
		mkdir -p "$dir/studies/$name"
		printf 'field value\norder %s\nmatrix %s\nhow runner\nblock -\ncharts -\npost -\nbudget_kib 256\n' \
			$n $m >"$dir/studies/$name/study"
	done
	cat >"$dir/kernel/build.sh" <<-EOF
		#!/bin/sh
		# a stand-in (tests/lib/reproduce_standin.sh): no kernel is built
		case \$1 in
		--kernels-dir) echo "$dir/k" ;;
		--status) for v in \$(echo "\$2" | tr , ' '); do echo "\$v absent cold 0 $dir/kbuild"; done ;;
		*) echo "KERNEL_BASE=\$KERNEL_BASE KERNEL_ARCH=\$KERNEL_ARCH KERNEL_HZ=\$KERNEL_HZ build.sh \$*" >>"$dir/build.log" ;;
		esac
	EOF
	runner_copy "$dir" || return 1
	: >"$dir/build/probe"
	: >"$dir/build/guest.cpio"
	touch "$dir/build/probe" "$dir/build/guest.cpio"
	# the stand-in's build log is no code (scripts/shard-run.sh --commit
	# counts every file .gitignore does not name)
	echo /build.log >>"$dir/.gitignore"
	(cd "$dir" && git init -q && git add -A &&
		git -c user.name=standin -c user.email=standin@localhost commit -qm "stand-in checkout") >/dev/null
}
