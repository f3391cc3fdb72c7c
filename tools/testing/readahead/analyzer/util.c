// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - small helpers: allocation that cannot fail, a hash map of small
 * integer keys, interned strings, and printing names (comm, file, bdev) as
 * single whitespace-free table fields.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

static void *check(void *p)
{
	if (!p) {
		fputs("ra_analyze: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return check(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t size)
{
	return check(realloc(p, size ? size : 1));
}

/* Room for element @nr of an array of *@alloc, doubled when full. */
void *grow(void *p, size_t *alloc, size_t nr, size_t size)
{
	if (nr < *alloc)
		return p;
	*alloc = *alloc ? 2 * *alloc : 64;
	if (*alloc > (size_t)-1 / size)
		check(NULL);
	return xrealloc(p, *alloc * size);
}

static size_t mix(unsigned long long h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (size_t)h;
}

static size_t hash_words(const unsigned long long *key, unsigned int words)
{
	unsigned long long h = 0x9e3779b97f4a7c15ULL;
	unsigned int i;

	for (i = 0; i < words; i++)
		h = mix(h ^ key[i]) + i;
	return (size_t)h;
}

void hmap_init(struct hmap *h, unsigned int words)
{
	memset(h, 0, sizeof(*h));
	h->words = words;
}

static size_t hmap_find(const struct hmap *h, const unsigned long long *key)
{
	size_t i = hash_words(key, h->words) & (h->cap - 1);

	while (h->vals[i] != ~0u &&
	       memcmp(&h->keys[i * h->words], key, h->words * sizeof(*key)))
		i = (i + 1) & (h->cap - 1);
	return i;
}

static void hmap_resize(struct hmap *h)
{
	struct hmap old = *h;
	size_t i, j;

	h->cap = old.cap ? 2 * old.cap : 64;
	h->keys = xmalloc(h->cap * h->words * sizeof(*h->keys));
	h->vals = xmalloc(h->cap * sizeof(*h->vals));
	memset(h->vals, 0xff, h->cap * sizeof(*h->vals));
	for (i = 0; i < old.cap; i++) {
		if (old.vals[i] == ~0u)
			continue;
		j = hmap_find(h, &old.keys[i * h->words]);
		memcpy(&h->keys[j * h->words], &old.keys[i * h->words],
		       h->words * sizeof(*h->keys));
		h->vals[j] = old.vals[i];
	}
	free(old.keys);
	free(old.vals);
}

/*
 * The value slot of @key (h->words words), added if new: then it holds
 * ~0u, and the caller stores the value.  Valid until the next call.
 */
unsigned int *hmap_slot(struct hmap *h, const unsigned long long *key)
{
	size_t i;

	if (2 * (h->nr + 1) > h->cap)
		hmap_resize(h);
	i = hmap_find(h, key);
	if (h->vals[i] == ~0u) {
		memcpy(&h->keys[i * h->words], key,
		       h->words * sizeof(*key));
		h->nr++;
	}
	return &h->vals[i];
}

/* The value of @key, or ~0u if it has none. */
unsigned int hmap_get(const struct hmap *h, const unsigned long long *key)
{
	if (!h->cap)
		return ~0u;
	return h->vals[hmap_find(h, key)];
}

void hmap_free(struct hmap *h)
{
	free(h->keys);
	free(h->vals);
	hmap_init(h, h->words);
}

static size_t hash_str(const char *s)
{
	unsigned long long h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return mix(h);
}

static size_t strtab_find(const struct strtab *st, const char *s)
{
	size_t i = hash_str(s) & (st->cap - 1);

	while (st->slot[i] && strcmp(st->str[st->slot[i] - 1], s))
		i = (i + 1) & (st->cap - 1);
	return i;
}

/*
 * The number of the string @s (allocated, owned by the table from now
 * on): a string seen before is freed and its first copy's number given.
 */
unsigned int strtab_add(struct strtab *st, char *s)
{
	size_t i, k;

	if (2 * (st->nr + 1) > st->cap) {
		free(st->slot);
		st->cap = st->cap ? 2 * st->cap : 64;
		st->slot = xcalloc(st->cap, sizeof(*st->slot));
		for (k = 0; k < st->nr; k++)
			st->slot[strtab_find(st, st->str[k])] = k + 1;
	}
	i = strtab_find(st, s);
	if (st->slot[i]) {
		free(s);
		return st->slot[i] - 1;
	}
	st->str = grow(st->str, &st->alloc, st->nr, sizeof(*st->str));
	st->str[st->nr] = s;
	st->slot[i] = ++st->nr;
	return st->nr - 1;
}

void strtab_free(struct strtab *st)
{
	size_t i;

	for (i = 0; i < st->nr; i++)
		free(st->str[i]);
	free(st->str);
	free(st->slot);
	memset(st, 0, sizeof(*st));
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/*
 * Print @s so that it stays one field: whitespace, backslash and
 * non-printable bytes become octal escapes as in /proc/mounts ("\040"),
 * and an empty name becomes "-".
 */
int print_name(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n = 0;

	if (!*p)
		return fprintf(out, "-");
	for (; *p; p++) {
		if (*p <= ' ' || *p == '\\' || *p >= 0x7f)
			n += fprintf(out, "\\%03o", *p);
		else
			n += fprintf(out, "%c", *p);
	}
	return n;
}

/* print_name() padded with blanks to @width columns. */
void print_field(FILE *out, const char *s, int width)
{
	int n = print_name(out, s);

	while (n++ < width)
		fputc(' ', out);
}
