# Sourced by the fast tier's runner tests: fake_qemu_path DIR links
# tests/lib/fake-qemu into DIR under every machine's QEMU name (bench/machines/arch.c's
# qemu-system-arm, -m68k, -mipsel and the default qemu-system-x86_64) and
# puts DIR first on PATH, so the runner's -cpu checks and dry runs start
# no real QEMU: make unit runs on a machine without one.
fake_qemu_path() {
	local dir=$1 q
	mkdir -p "$dir" || return 1
	for q in x86_64 arm m68k mipsel; do
		ln -sf "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/fake-qemu" "$dir/qemu-system-$q" || return 1
	done
	PATH=$dir:$PATH
}
