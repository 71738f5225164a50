#!/usr/bin/env bash
# QEMU's m68k machines always pass a boot-loader seed (BI_RNG_SEED), and
# bootseed=off must mean the same on every base: the seed is not
# credited, so the CRNG is not ready at boot. 6.1 gets that from its
# configuration (no RANDOM_TRUST_BOOTLOADER), 6.12 from its series' 0006
# (the credit after random.trust_bootloader= is parsed); without either
# the CRNG is ready before the command line is printed. Each m68k kernel
# of a base is booted on virt and q800 without an initramfs (it panics at
# once, under TCG: a few seconds each), with random.trust_bootloader=off,
# then =on, which credits the seed where the kernel can trust one at all.
#   tests/lib/kernel_seed.sh KERNELS_DIR [VARIANT]
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "m68k seed"
kernels=$1 v=${2:-stock}
base=$(basename "$kernels")
dir=$kernels/$v-hz100-m68k
if [ ! -r "$dir/vmlinux" ]; then echo "FAIL: m68k seed ($base): $dir/vmlinux missing"; exit 0; fi
# under make check, only a kernel this run's build steps accounted for
if [ -n "${CRNGBENCH_KERNEL_LEDGER:-}" ] && ! why=$(tests/lib/kernel_accounting.sh dir "$dir" 2>&1); then
	echo "FAIL: m68k seed ($base): $why"; exit 0
fi
command -v qemu-system-m68k >/dev/null ||
	{ echo "FAIL: m68k seed ($base): qemu-system-m68k missing (apt-get install -y qemu-system-misc)"; exit 0; }
# a kernel built without RANDOM_TRUST_BOOTLOADER never credits it
trusts=yes
! grep -qx '# CONFIG_RANDOM_TRUST_BOOTLOADER is not set' "$dir/config" || trusts=no
for m in virt q800; do
	con=ttyGF0
	[ $m = virt ] || con=ttyS0
	for tb in off on; do
		log=$tmp/$m-$tb.log
		timeout 60 qemu-system-m68k -M $m -accel tcg -cpu m68040 -m 256 -nodefaults -no-user-config -display none \
			-no-reboot -rtc clock=vm -nic none -kernel "$dir/vmlinux" -serial "file:$log" \
			-append "console=$con panic=-1 random.trust_bootloader=$tb" >/dev/null 2>&1
		if ! grep -q 'Kernel panic' "$log" 2>/dev/null; then
			echo "FAIL: m68k seed ($base, $m, trust_bootloader=$tb): the boot did not reach its panic: $(tail -n 2 "$log" 2>/dev/null | tr '\n' ' ')"
			continue
		fi
		got=no
		! grep -q 'crng init done' "$log" || got=yes
		want=no
		[ $tb = off ] || want=$trusts
		[ $got = $want ] &&
			echo "PASS: m68k seed ($base, $m): with random.trust_bootloader=$tb QEMU's seed is $([ $got = yes ] || echo 'not ')credited" ||
			echo "FAIL: m68k seed ($base, $m): with random.trust_bootloader=$tb QEMU's seed credited: $got, expected $want (the kernel can trust a seed: $trusts)"
	done
done
