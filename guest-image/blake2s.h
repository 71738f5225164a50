/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BLAKE2s (RFC 7693), the hash the kernel's RNG uses: what the probe
 * records of the bytes each read returned (record.h: digest=). Small and
 * portable: the probe is built for every guest architecture.
 */
#ifndef CRNGBENCH_BLAKE2S_H
#define CRNGBENCH_BLAKE2S_H

#include <stddef.h>
#include <stdint.h>

#define BLAKE2S_BLOCK 64
#define BLAKE2S_MAX_OUT 32
#define BLAKE2S_MAX_KEY 32

struct blake2s {
	uint32_t h[8];
	uint32_t t[2]; /* bytes hashed, 64 bits */
	uint8_t buf[BLAKE2S_BLOCK];
	size_t len; /* bytes in buf */
	size_t outlen;
};

/* outlen 1..32, keylen 0..32 (key may be NULL when 0); 0, or -1. */
int blake2s_init(struct blake2s *s, size_t outlen, const void *key,
		 size_t keylen);
void blake2s_update(struct blake2s *s, const void *in, size_t len);
/* The digest's outlen bytes into out. */
void blake2s_final(struct blake2s *s, uint8_t *out);
/* One call: unkeyed BLAKE2s with an outlen-byte digest (0, or -1). */
int blake2s(uint8_t *out, size_t outlen, const void *in, size_t len);

/*
 * The probe's digest of a read: the first 8 bytes of BLAKE2s-256 of the
 * len bytes at in, as 16 lowercase hex digits and a NUL into hex[17].
 */
char *blake2s_digest8(char hex[17], const void *in, size_t len);

#endif /* CRNGBENCH_BLAKE2S_H */
