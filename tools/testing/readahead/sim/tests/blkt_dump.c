// SPDX-License-Identifier: GPL-2.0
/*
 * blkt_dump.c - prints a blktrace file one record a line, for the tests.
 *
 * Owns an independent reading of the format ra_sim --blktrace writes:
 * fields are taken at their byte offsets in the 48-byte record (not
 * through blktrace.h's struct), little-endian, the magic checked, the
 * payload skipped by its length and shown for U, X and A.  One line per
 * record:
 *
 *   SEQ TIME_NS ACT CATEGORIES SECTOR BYTES PID MAJ,MIN CPU ERR [PDU]
 *
 * ACT is blkparse's letter for the code (N for a notification, with the
 * process name as PDU), CATEGORIES the high 16 bits in hex.  Usage:
 *
 *   blkt_dump FILE
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NR_ACT	16

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static uint64_t be(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

int main(int argc, char **argv)
{
	static const char *const act[NR_ACT] = {
		"?", "Q", "M", "F", "G", "S", "R", "D", "C", "P", "U", "UT",
		"I", "X", "B", "A",
	};
	unsigned char r[48], pdu[256];
	FILE *f;

	f = argc == 2 ? fopen(argv[1], "rb") : NULL;
	if (!f) {
		fprintf(stderr, "usage: blkt_dump FILE\n");
		return 2;
	}
	while (fread(r, sizeof(r), 1, f) == 1) {
		uint32_t action = le(r + 28, 4), dev = le(r + 36, 4);
		unsigned int code = action & 0xffff, len = le(r + 46, 2);

		if (le(r, 4) != 0x65617407) {
			fprintf(stderr, "blkt_dump: bad magic\n");
			return 1;
		}
		if (len > sizeof(pdu) || (len && fread(pdu, len, 1, f) != 1)) {
			fprintf(stderr, "blkt_dump: truncated payload\n");
			return 1;
		}
		printf("%llu %llu %s %04x %llu %llu %llu %u,%u %llu %llu",
		       (unsigned long long)le(r + 4, 4),
		       (unsigned long long)le(r + 8, 8),
		       action & (1u << 26) ? "N" :
		       code < NR_ACT ? act[code] : "?",
		       action >> 16, (unsigned long long)le(r + 16, 8),
		       (unsigned long long)le(r + 24, 4),
		       (unsigned long long)le(r + 32, 4), dev >> 20,
		       dev & 0xfffff, (unsigned long long)le(r + 40, 4),
		       (unsigned long long)le(r + 44, 2));
		if (action & (1u << 26))
			printf(" %.*s", (int)strnlen((char *)pdu, len),
			       (char *)pdu);
		else if (len == 8)
			printf(" %llu", (unsigned long long)be(pdu, 8));
		else if (len == 16)
			printf(" %llu,%llu %llu",
			       (unsigned long long)be(pdu, 4) >> 20,
			       (unsigned long long)be(pdu, 4) & 0xfffff,
			       (unsigned long long)be(pdu + 8, 8));
		printf("\n");
	}
	return 0;
}
