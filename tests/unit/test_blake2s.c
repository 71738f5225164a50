// SPDX-License-Identifier: GPL-2.0
/*
 * guest-image/blake2s.c against RFC 7693: appendix B's BLAKE2s-256("abc"),
 * the empty message, and appendix E's self-test (every digest length it
 * names, keyed and unkeyed, inputs across block boundaries, hashed into
 * one grand hash); and the probe's 8-byte hex digest of a read.
 */
#include "../../guest-image/blake2s.h"
#include "../../guest-image/record.h"
#include "check.h"

#include <string.h>

static const uint8_t abc256[32] = { 0x50, 0x8C, 0x5E, 0x8C, 0x32, 0x7C, 0x14,
				    0xE2, 0xE1, 0xA7, 0x2B, 0xA3, 0x4E, 0xEB,
				    0x45, 0x2F, 0x37, 0x45, 0x8B, 0x20, 0x9E,
				    0xD6, 0x3A, 0x29, 0x4D, 0x99, 0x9B, 0x4C,
				    0x86, 0x67, 0x59, 0x82 };

static const uint8_t empty256[32] = { 0x69, 0x21, 0x7a, 0x30, 0x79, 0x90, 0x80,
				      0x94, 0xe1, 0x11, 0x21, 0xd0, 0x42, 0x35,
				      0x4a, 0x7c, 0x1f, 0x55, 0xb6, 0x48, 0x2c,
				      0xa1, 0xa5, 0x1e, 0x1b, 0x25, 0x0d, 0xfd,
				      0x1e, 0xd0, 0xee, 0xf9 };

static void rfc7693_appendix_b_abc(void)
{
	uint8_t md[32];
	struct blake2s s;

	CHECK(blake2s(md, 32, "abc", 3) == 0 && !memcmp(md, abc256, 32));
	/* the same message a byte at a time */
	CHECK(blake2s_init(&s, 32, NULL, 0) == 0);
	blake2s_update(&s, "a", 1);
	blake2s_update(&s, "", 0);
	blake2s_update(&s, "bc", 2);
	blake2s_final(&s, md);
	CHECK(!memcmp(md, abc256, 32));
}

static void empty_message(void)
{
	uint8_t md[32];

	CHECK(blake2s(md, 32, "", 0) == 0 && !memcmp(md, empty256, 32));
}

/* RFC 7693 appendix E: a Fibonacci byte sequence. */
static void selftest_seq(uint8_t *out, size_t len, uint32_t seed)
{
	uint32_t t, a = 0xDEAD4BAD * seed, b = 1;

	for (size_t i = 0; i < len; i++) {
		t = a + b;
		a = b;
		b = t;
		out[i] = (uint8_t)(t >> 24);
	}
}

static void rfc7693_appendix_e_selftest(void)
{
	static const uint8_t grand[32] = { 0x6A, 0x41, 0x1F, 0x08, 0xCE, 0x25,
					   0xAD, 0xCD, 0xFB, 0x02, 0xAB, 0xA6,
					   0x41, 0x45, 0x1C, 0xEC, 0x53, 0xC5,
					   0x98, 0xB2, 0x4F, 0x4F, 0xC7, 0x87,
					   0xFB, 0xDC, 0x88, 0x79, 0x7F, 0x4C,
					   0x1D, 0xFE };
	static const size_t md_len[4] = { 16, 20, 28, 32 };
	static const size_t in_len[6] = { 0, 3, 64, 65, 255, 1024 };
	uint8_t in[1024], md[32], key[32];
	struct blake2s all, one;

	CHECK(blake2s_init(&all, 32, NULL, 0) == 0);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 6; j++) {
			size_t outlen = md_len[i], inlen = in_len[j];

			selftest_seq(in, inlen, (uint32_t)inlen);
			CHECK(blake2s(md, outlen, in, inlen) == 0);
			blake2s_update(&all, md, outlen);
			selftest_seq(key, outlen, (uint32_t)outlen);
			CHECK(blake2s_init(&one, outlen, key, outlen) == 0);
			blake2s_update(&one, in, inlen);
			blake2s_final(&one, md);
			blake2s_update(&all, md, outlen);
		}
	blake2s_final(&all, md);
	CHECK(!memcmp(md, grand, 32));
}

static void bad_parameters_refused(void)
{
	struct blake2s s;
	uint8_t md[33];

	CHECK(blake2s_init(&s, 0, NULL, 0) == -1);
	CHECK(blake2s_init(&s, 33, NULL, 0) == -1);
	CHECK(blake2s_init(&s, 32, md, 33) == -1);
	CHECK(blake2s_init(&s, 32, NULL, 1) == -1);
	CHECK(blake2s(md, 33, "", 0) == -1);
}

/* The probe's digest: 16 lowercase hex digits, the hash's first 8 bytes,
 * a valid record value; one changed byte of a read changes it. */
static void read_digest_is_first_8_bytes_in_hex(void)
{
	uint8_t buf[32];
	char hex[17], other[17];

	CHECK(!strcmp(blake2s_digest8(hex, "abc", 3), "508c5e8c327c14e2"));
	CHECK(crb_digest_ok(hex, strlen(hex)));
	CHECK(!strcmp(blake2s_digest8(hex, "", 0), "69217a3079908094"));
	selftest_seq(buf, sizeof(buf), 7);
	blake2s_digest8(hex, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++) {
		buf[i] ^= 1;
		CHECK(strcmp(blake2s_digest8(other, buf, sizeof(buf)), hex));
		buf[i] ^= 1;
	}
	CHECK(!strcmp(blake2s_digest8(other, buf, sizeof(buf)), hex));
	/* a read that returned fewer bytes is another digest */
	CHECK(strcmp(blake2s_digest8(other, buf, sizeof(buf) - 1), hex));
}

int main(void)
{
	TEST(rfc7693_appendix_b_abc);
	TEST(empty_message);
	TEST(rfc7693_appendix_e_selftest);
	TEST(bad_parameters_refused);
	TEST(read_digest_is_first_8_bytes_in_hex);
	return check_any_failed;
}
