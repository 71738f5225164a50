// SPDX-License-Identifier: GPL-2.0
/*
 * The vDSO's getrandom, looked up and called as the kernel's selftests do
 * (tools/testing/selftests/vDSO/parse_vdso.c, CC0, and
 * vdso_test_getrandom.c): the vDSO is an ELF shared object the kernel maps
 * into every process; its dynamic section gives the symbol table, the
 * string table, the SysV hash table (which says how many symbols there
 * are) and the symbol versions.
 */
#define _GNU_SOURCE
#include "vdso.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if UINTPTR_MAX > 0xffffffffUL
#define ELF(x) Elf64_##x
#define ELF_CLASS ELFCLASS64
#define ST_TYPE(i) ELF64_ST_TYPE(i)
#define ST_BIND(i) ELF64_ST_BIND(i)
#else
#define ELF(x) Elf32_##x
#define ELF_CLASS ELFCLASS32
#define ST_TYPE(i) ELF32_ST_TYPE(i)
#define ST_BIND(i) ELF32_ST_BIND(i)
#endif

/* The symbol's name and version where the kernel has it (6.11 and 6.12:
 * x86_64 only); elsewhere there is none to look for. */
#if defined(__x86_64__)
#define GETRANDOM_NAME "__vdso_getrandom"
#define GETRANDOM_VERSION "LINUX_2.6"
#endif

/* The uapi's struct vgetrandom_opaque_params (linux/random.h, 6.11+). */
struct opaque_params {
	uint32_t size_of_opaque_state;
	uint32_t mmap_prot;
	uint32_t mmap_flags;
	uint32_t reserved[13];
};

struct image {
	uintptr_t load_offset; /* runtime address less link-time address */
	const ELF(Sym) * symtab;
	const char *strings;
	ELF(Word) nsyms; /* the hash table's nchain */
	const ELF(Versym) * versym;
	const ELF(Verdef) * verdef;
};

static int image_open(uintptr_t base, struct image *im)
{
	const ELF(Ehdr) *eh = (const ELF(Ehdr) *)base;
	const ELF(Phdr) * ph;
	const ELF(Dyn) *dyn = NULL;
	const ELF(Word) *hash = NULL;
	int have_load = 0;

	memset(im, 0, sizeof(*im));
	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELF_CLASS)
		return -1;
	ph = (const ELF(Phdr) *)(base + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !have_load) {
			have_load = 1;
			im->load_offset = base + (uintptr_t)ph[i].p_offset -
					  (uintptr_t)ph[i].p_vaddr;
		} else if (ph[i].p_type == PT_DYNAMIC) {
			dyn = (const ELF(Dyn) *)(base + ph[i].p_offset);
		}
	}
	if (!have_load || !dyn)
		return -1;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		uintptr_t at = (uintptr_t)dyn->d_un.d_ptr + im->load_offset;

		switch (dyn->d_tag) {
		case DT_STRTAB:
			im->strings = (const char *)at;
			break;
		case DT_SYMTAB:
			im->symtab = (const ELF(Sym) *)at;
			break;
		case DT_HASH:
			hash = (const ELF(Word) *)at;
			break;
		case DT_VERSYM:
			im->versym = (const ELF(Versym) *)at;
			break;
		case DT_VERDEF:
			im->verdef = (const ELF(Verdef) *)at;
			break;
		}
	}
	if (!im->strings || !im->symtab || !hash)
		return -1;
	if (!im->verdef)
		im->versym = NULL;
	im->nsyms = hash[1]; /* nchain: one entry per symbol */
	return 0;
}

/* Symbol i's version (its versym index into the definitions) is version. */
static int has_version(const struct image *im, ELF(Word) i, const char *version)
{
	const ELF(Verdef) *def = im->verdef;
	unsigned int ndx = im->versym[i] & 0x7fff; /* bit 15: hidden */

	for (;;) {
		if (!(def->vd_flags & VER_FLG_BASE) &&
		    (def->vd_ndx & 0x7fff) == ndx) {
			const ELF(Verdaux) *aux = (const ELF(
				Verdaux) *)((const char *)def + def->vd_aux);

			return !strcmp(im->strings + aux->vda_name, version);
		}
		if (!def->vd_next)
			return 0;
		def = (const ELF(Verdef) *)((const char *)def + def->vd_next);
	}
}

void *vdso_sym(uintptr_t base, const char *version, const char *name)
{
	struct image im;

	if (image_open(base, &im))
		return NULL;
	/* A few dozen symbols: a walk of the table, no hash chains. */
	for (ELF(Word) i = 1; i < im.nsyms; i++) {
		const ELF(Sym) *s = &im.symtab[i];

		if (ST_TYPE(s->st_info) != STT_FUNC ||
		    (ST_BIND(s->st_info) != STB_GLOBAL &&
		     ST_BIND(s->st_info) != STB_WEAK) ||
		    s->st_shndx == SHN_UNDEF ||
		    strcmp(im.strings + s->st_name, name))
			continue;
		if (version && im.versym && !has_version(&im, i, version))
			continue;
		return (void *)(im.load_offset + (uintptr_t)s->st_value);
	}
	return NULL;
}

int vgetrandom_init(uintptr_t base, struct vgetrandom *v, const char **why)
{
	struct opaque_params p = { 0 };
	long page = sysconf(_SC_PAGESIZE);
	ssize_t rc;
	void *fn;

	memset(v, 0, sizeof(*v));
	if (!base) {
		*why = "no vDSO (no AT_SYSINFO_EHDR)";
		return 1;
	}
#ifdef GETRANDOM_NAME
	fn = vdso_sym(base, GETRANDOM_VERSION, GETRANDOM_NAME);
#else
	fn = NULL;
#endif
	if (!fn) {
		*why = "no __vdso_getrandom in the vDSO (Linux 6.11+, x86_64)";
		return 1;
	}
	/* a function pointer from an object pointer: POSIX's dlsym() rule */
	memcpy(&v->fn, &fn, sizeof(v->fn));
	rc = v->fn(NULL, 0, 0, &p, ~0UL);
	if (rc) {
		*why = "the vDSO's getrandom refused its parameters call";
		v->fn = NULL;
		return 1;
	}
	if (page <= 0 || !p.size_of_opaque_state ||
	    p.size_of_opaque_state > (unsigned long)page) {
		*why = "the vDSO's getrandom asks for a state larger than a page";
		v->fn = NULL;
		return 1;
	}
	/* One state at the start of a page: it must not straddle two. */
	v->state = mmap(NULL, (size_t)page, (int)p.mmap_prot, (int)p.mmap_flags,
			-1, 0);
	if (v->state == MAP_FAILED) {
		v->state = NULL;
		v->fn = NULL;
		return -1;
	}
	v->state_len = p.size_of_opaque_state;
	return 0;
}

ssize_t vgetrandom(const struct vgetrandom *v, void *buf, size_t len,
		   unsigned int flags)
{
	ssize_t rc = v->fn(buf, len, flags, v->state, v->state_len);

	if (rc < 0) { /* the vDSO returns -errno, as the syscall does */
		errno = (int)-rc;
		return -1;
	}
	return rc;
}
