#!/usr/bin/env bash
# test: guest image reproducible
# The same inputs give a byte-identical guest image.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "guest image"
a=$tmp/a.cpio b=$tmp/b.cpio
guest-image/build-image.sh build/probe "$a" 2>/dev/null && sleep 1 &&
	guest-image/build-image.sh build/probe "$b" 2>/dev/null
if cmp -s "$a" "$b"; then echo "PASS: guest image is reproducible ($(stat -c %s "$a") bytes, byte-identical twice)"
else echo "FAIL: guest image differs between two builds from the same inputs"; fi
if cpio -it <"$a" 2>/dev/null | grep -qx 'etc/initrd-release'; then
	echo "FAIL: guest image has etc/initrd-release: systemd would run as an initrd"
else
	echo "PASS: guest image runs systemd as a system manager (no initrd-release)"
fi
