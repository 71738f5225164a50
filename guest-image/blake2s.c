// SPDX-License-Identifier: GPL-2.0
/*
 * BLAKE2s as RFC 7693 specifies it (section 3, the reference code of its
 * appendix C): 32-bit words, 10 rounds, 64-byte blocks, digests of 1 to 32
 * bytes, keys of up to 32. tests/unit/test_blake2s.c checks it against
 * the RFC's vectors.
 */
#include "blake2s.h"

#include <string.h>

static const uint32_t iv[8] = { 0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
				0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19 };

static const uint8_t sigma[10][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
};

static uint32_t ror32(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

/* Little-endian, whatever the machine's byte order (m68k is big-endian). */
static uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The mixing function G (RFC 7693, 3.1). */
static void g(uint32_t *v, int a, int b, int c, int d, uint32_t x, uint32_t y)
{
	v[a] = v[a] + v[b] + x;
	v[d] = ror32(v[d] ^ v[a], 16);
	v[c] = v[c] + v[d];
	v[b] = ror32(v[b] ^ v[c], 12);
	v[a] = v[a] + v[b] + y;
	v[d] = ror32(v[d] ^ v[a], 8);
	v[c] = v[c] + v[d];
	v[b] = ror32(v[b] ^ v[c], 7);
}

/* The compression function F (RFC 7693, 3.2); last: the final block. */
static void compress(struct blake2s *s, int last)
{
	uint32_t v[16], m[16];
	int i;

	for (i = 0; i < 8; i++) {
		v[i] = s->h[i];
		v[i + 8] = iv[i];
	}
	v[12] ^= s->t[0];
	v[13] ^= s->t[1];
	if (last)
		v[14] = ~v[14];
	for (i = 0; i < 16; i++)
		m[i] = load32(s->buf + 4 * i);
	for (i = 0; i < 10; i++) {
		const uint8_t *sg = sigma[i];

		g(v, 0, 4, 8, 12, m[sg[0]], m[sg[1]]);
		g(v, 1, 5, 9, 13, m[sg[2]], m[sg[3]]);
		g(v, 2, 6, 10, 14, m[sg[4]], m[sg[5]]);
		g(v, 3, 7, 11, 15, m[sg[6]], m[sg[7]]);
		g(v, 0, 5, 10, 15, m[sg[8]], m[sg[9]]);
		g(v, 1, 6, 11, 12, m[sg[10]], m[sg[11]]);
		g(v, 2, 7, 8, 13, m[sg[12]], m[sg[13]]);
		g(v, 3, 4, 9, 14, m[sg[14]], m[sg[15]]);
	}
	for (i = 0; i < 8; i++)
		s->h[i] ^= v[i] ^ v[i + 8];
}

int blake2s_init(struct blake2s *s, size_t outlen, const void *key,
		 size_t keylen)
{
	if (!outlen || outlen > BLAKE2S_MAX_OUT || keylen > BLAKE2S_MAX_KEY ||
	    (keylen && !key))
		return -1;
	memset(s, 0, sizeof(*s));
	memcpy(s->h, iv, sizeof(s->h));
	/* parameter block: digest length, key length, fanout 1, depth 1 */
	s->h[0] ^= 0x01010000 ^ (uint32_t)keylen << 8 ^ (uint32_t)outlen;
	s->outlen = outlen;
	if (keylen) { /* the key, zero-padded, is the first block */
		blake2s_update(s, key, keylen);
		s->len = BLAKE2S_BLOCK;
	}
	return 0;
}

void blake2s_update(struct blake2s *s, const void *in, size_t len)
{
	const uint8_t *p = in;

	while (len) {
		size_t n;

		if (s->len == BLAKE2S_BLOCK) { /* full, and more follows */
			s->t[0] += BLAKE2S_BLOCK;
			if (s->t[0] < BLAKE2S_BLOCK)
				s->t[1]++;
			compress(s, 0);
			s->len = 0;
		}
		n = BLAKE2S_BLOCK - s->len;
		if (n > len)
			n = len;
		memcpy(s->buf + s->len, p, n);
		s->len += n;
		p += n;
		len -= n;
	}
}

void blake2s_final(struct blake2s *s, uint8_t *out)
{
	s->t[0] += (uint32_t)s->len;
	if (s->t[0] < s->len)
		s->t[1]++;
	memset(s->buf + s->len, 0, BLAKE2S_BLOCK - s->len);
	compress(s, 1);
	for (size_t i = 0; i < s->outlen; i++)
		out[i] = (uint8_t)(s->h[i / 4] >> (8 * (i % 4)));
}

int blake2s(uint8_t *out, size_t outlen, const void *in, size_t len)
{
	struct blake2s s;

	if (blake2s_init(&s, outlen, NULL, 0))
		return -1;
	blake2s_update(&s, in, len);
	blake2s_final(&s, out);
	return 0;
}

char *blake2s_digest8(char hex[17], const void *in, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	uint8_t d[BLAKE2S_MAX_OUT];

	blake2s(d, sizeof(d), in, len);
	for (int i = 0; i < 8; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[16] = '\0';
	return hex;
}
