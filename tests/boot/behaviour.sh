#!/usr/bin/env bash
# test: boot behaviour
# runs: first
# needs: kernels
# Which variant blocks and which returns early, booted: the default
# base's x86_64 kernels and the guest image (tests/lib/boot_behaviour.py).
cd "$(dirname "$0")/../.." || exit 1
exec python3 tests/lib/boot_behaviour.py build/crngbench-run build/guest.cpio \
	"$(kernel/build.sh --kernels-dir)" tests/out/boots
