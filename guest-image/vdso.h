/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vDSO's getrandom (Linux 6.11+): found by the probe itself in the
 * vDSO's ELF dynamic symbol table, as glibc 2.41+ finds it, and called
 * with a state allocated as the vDSO asks. No probe globals: the unit
 * tests call it on the host.
 */
#ifndef CRNGBENCH_VDSO_H
#define CRNGBENCH_VDSO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct vgetrandom {
	ssize_t (*fn)(void *buf, size_t len, unsigned int flags, void *state,
		      size_t state_len);
	void *state;
	size_t state_len;
};

/*
 * The address of the function symbol name of version version (NULL: any)
 * in the vDSO whose ELF header is at base (getauxval(AT_SYSINFO_EHDR)),
 * or NULL: base 0 (no vDSO), not an ELF image of this machine's class, no
 * DT_HASH table, no such symbol.
 */
void *vdso_sym(uintptr_t base, const char *version, const char *name);

/*
 * Make v ready to call the vDSO at base's getrandom: the symbol, its
 * parameters (opaque_len ~0), the state mmap'd with the vDSO's prot and
 * flags. 0 when ready; 1 when there is none to call, with why saying
 * what is missing (base 0; no __vdso_getrandom, as in kernels before 6.11
 * and on machines but x86_64; the vDSO refused its parameters call); -1
 * with errno when the state cannot be mapped.
 */
int vgetrandom_init(uintptr_t base, struct vgetrandom *v, const char **why);

/* getrandom(2)'s contract: bytes, or -1 with errno (EINTR: interrupted). */
ssize_t vgetrandom(const struct vgetrandom *v, void *buf, size_t len,
		   unsigned int flags);

#endif /* CRNGBENCH_VDSO_H */
