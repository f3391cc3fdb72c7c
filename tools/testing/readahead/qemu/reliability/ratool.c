// SPDX-License-Identifier: GPL-2.0
/*
 * ratool.c - the reliability tests' small reader, writer and racer.
 *
 * Built statically (gcc -static) by build-initramfs.sh for the "rel" and
 * "mini" guest images, and natively on the host to compute the expected
 * block hashes.  Owns the guest-side programs of ioerror.sh,
 * sanitized.sh and mempress.sh that fio and busybox cannot do:
 *
 *   ratool hashes FILE            "BLOCK HASH" per 4 KB block (FNV-1a 64)
 *   ratool scan FILE BS [BLOCK]   read(2) FILE sequentially with BS-byte
 *                                 reads (from 4 KB block BLOCK, default
 *                                 0); a read failing with EIO is
 *                                 retried 4 KB at a time; prints
 *                                 "BLOCK HASH" or "BLOCK EIO" per block
 *   ratool mscan FILE             the same through a shared read-only
 *                                 mmap (SIGBUS = "EIO")
 *   ratool willneed FILE          readahead(2) then POSIX_FADV_WILLNEED
 *                                 of the whole file (errors printed)
 *   ratool advise FILE SECONDS    the race's DONTNEED/WILLNEED/readahead(2)
 *                                 loop alone (e.g. on a read-only disk
 *                                 while fio reads the same file)
 *   ratool race FILE KB SECONDS   the truncation race on a writable fs:
 *                                 one writer truncating and rewriting
 *                                 FILE, one DONTNEED/WILLNEED/readahead(2)
 *                                 process, three readers (4 KB read(2),
 *                                 64 KB read(2), mmap) checking every
 *                                 8-byte word is its own file offset or 0
 *                                 (a hole); FILE is at most KB kilobytes
 *
 * Exit status 0 when the program ran (EIO is an outcome, not a failure,
 * for scan/mscan); 1 on a data mismatch in race; 2 on usage or setup
 * errors.  Prints one summary line starting with "ratool:".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BLK 4096

static uint64_t fnv(const unsigned char *p, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	while (n--) {
		h ^= *p++;
		h *= 1099511628211ULL;
	}
	return h;
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0) {
		fprintf(stderr, "ratool: open %s: %s\n", path, strerror(errno));
		exit(2);
	}
	return fd;
}

static off_t size_of(int fd)
{
	struct stat st;

	if (fstat(fd, &st)) {
		perror("ratool: fstat");
		exit(2);
	}
	return st.st_size;
}

static int cmd_hashes(const char *path)
{
	int fd = open_or_die(path, O_RDONLY);
	unsigned char buf[BLK];
	long blk = 0;
	ssize_t n;

	while ((n = read(fd, buf, BLK)) > 0)
		printf("%ld %016llx\n", blk++, (unsigned long long)fnv(buf, n));
	if (n < 0) {
		perror("ratool: read");
		return 2;
	}
	return 0;
}

static int cmd_scan(const char *path, long bs, long first)
{
	int fd = open_or_die(path, O_RDONLY);
	off_t size = size_of(fd), off = (off_t)first * BLK;
	unsigned char *buf;
	long nio = 0, nok = 0, other = 0;

	if (bs < BLK || bs % BLK) {
		fprintf(stderr, "ratool: BS must be a multiple of 4096\n");
		return 2;
	}
	buf = malloc(bs);
	if (!buf || lseek(fd, off, SEEK_SET) < 0)
		return 2;
	while (off < size) {
		ssize_t n = read(fd, buf, bs);

		if (n > 0) {
			for (ssize_t i = 0; i < n; i += BLK) {
				size_t len = n - i < BLK ? n - i : BLK;

				printf("%lld %016llx\n", (long long)(off + i) / BLK,
				       (unsigned long long)fnv(buf + i, len));
				nok++;
			}
			off += n;
			continue;
		}
		if (n == 0)
			break;
		if (errno != EIO) {
			fprintf(stderr, "ratool: read at %lld: %s\n",
				(long long)off, strerror(errno));
			other++;
		}
		/* Locate the failing blocks of this chunk, 4 KB at a time. */
		for (off_t end = off + bs; off < end && off < size; off += BLK) {
			n = pread(fd, buf, BLK, off);
			if (n > 0) {
				printf("%lld %016llx\n", (long long)off / BLK,
				       (unsigned long long)fnv(buf, n));
				nok++;
			} else {
				printf("%lld %s\n", (long long)off / BLK,
				       n < 0 && errno == EIO ? "EIO" : "ERR");
				nio++;
			}
		}
		if (lseek(fd, off, SEEK_SET) < 0)
			return 2;
	}
	fprintf(stderr, "ratool: scan %s bs=%ld: %ld blocks ok, %ld failed, %ld other errors\n",
		path, bs, nok, nio, other);
	return other ? 1 : 0;
}

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}

static int cmd_mscan(const char *path)
{
	int fd = open_or_die(path, O_RDONLY);
	off_t size = size_of(fd);
	long nblk = (size + BLK - 1) / BLK, nok = 0, nio = 0;
	unsigned char *map, buf[BLK];
	struct sigaction sa = { .sa_handler = on_sigbus };

	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("ratool: mmap");
		return 2;
	}
	sigaction(SIGBUS, &sa, NULL);
	for (volatile long b = 0; b < nblk; b++) {
		size_t len;

		if (sigsetjmp(bus_jmp, 1)) {
			printf("%ld EIO\n", (long)b);
			nio++;
			continue;
		}
		len = size - b * BLK < BLK ? size - b * BLK : BLK;
		memcpy(buf, map + b * BLK, len);
		printf("%ld %016llx\n", (long)b, (unsigned long long)fnv(buf, len));
		nok++;
	}
	fprintf(stderr, "ratool: mscan %s: %ld blocks ok, %ld SIGBUS\n", path, nok, nio);
	return 0;
}

static int cmd_willneed(const char *path)
{
	int fd = open_or_die(path, O_RDONLY);
	off_t size = size_of(fd);
	int r1 = readahead(fd, 0, size) ? errno : 0;
	int r2 = posix_fadvise(fd, 0, size, POSIX_FADV_WILLNEED);

	fprintf(stderr, "ratool: willneed %s: readahead(2) %s, WILLNEED %s\n",
		path, r1 ? strerror(r1) : "ok", r2 ? strerror(r2) : "ok");
	return 0;
}

/* --- The truncation race ------------------------------------------------ */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Every 8-byte word of the race file holds its own offset + 1. */
static void fill(uint64_t *w, off_t off, size_t len)
{
	for (size_t i = 0; i < len / 8; i++)
		w[i] = off + 8 * i + 1;
}

/* A word is right if it is its offset + 1, or 0 (a hole or past a cut). */
static long check(const uint64_t *w, off_t off, size_t len, const char *who)
{
	long bad = 0;

	for (size_t i = 0; i < len / 8; i++) {
		if (w[i] == 0 || w[i] == (uint64_t)(off + 8 * i + 1))
			continue;
		if (!bad)
			fprintf(stderr, "ratool: %s: word at %lld is %llx\n", who,
				(long long)(off + 8 * i), (unsigned long long)w[i]);
		bad++;
	}
	return bad;
}

static void writer(const char *path, off_t max, double until, unsigned seed)
{
	int fd = open_or_die(path, O_RDWR);
	static uint64_t chunk[65536 / 8];
	long rounds = 0;

	srand(seed);
	while (now() < until) {
		off_t cut = (off_t)(rand() % (max / BLK)) * BLK;

		if (ftruncate(fd, rounds % 7 == 0 ? 0 : cut))
			perror("ratool: ftruncate");
		/* Rewrite from the cut (or from a random later point,
		 * leaving a hole) back to the full size. */
		off_t off = rounds % 3 == 0 ? cut + BLK * (rand() % 64) : cut;

		for (; off < max; off += sizeof(chunk)) {
			size_t len = max - off < (off_t)sizeof(chunk) ?
				(size_t)(max - off) : sizeof(chunk);

			fill(chunk, off, len);
			if (pwrite(fd, chunk, len, off) != (ssize_t)len)
				perror("ratool: pwrite");
		}
		rounds++;
	}
	fprintf(stderr, "ratool: writer: %ld truncate+rewrite rounds\n", rounds);
	exit(0);
}

static void advisor(const char *path, off_t max, double until, unsigned seed)
{
	int fd = open_or_die(path, O_RDONLY);
	long calls = 0;

	srand(seed);
	while (now() < until) {
		off_t off = (off_t)(rand() % (max / BLK)) * BLK;
		off_t len = (off_t)(1 + rand() % 512) * BLK;

		switch (calls % 4) {
		case 0:
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
			break;
		case 1:
			posix_fadvise(fd, off, len, POSIX_FADV_DONTNEED);
			break;
		case 2:
			posix_fadvise(fd, off, len, POSIX_FADV_WILLNEED);
			break;
		default:
			readahead(fd, off, len);
			break;
		}
		calls++;
		if (calls % 16 == 0)
			usleep(1000);
	}
	fprintf(stderr, "ratool: advisor: %ld fadvise/readahead calls\n", calls);
	exit(0);
}

static void reader(const char *path, size_t bs, double until, int id)
{
	int fd = open_or_die(path, O_RDONLY);
	static uint64_t buf[65536 / 8];
	long bad = 0, passes = 0;
	long long bytes = 0;
	char who[32];

	snprintf(who, sizeof(who), "reader%d bs=%zu", id, bs);
	while (now() < until) {
		off_t off = 0;
		ssize_t n;

		lseek(fd, 0, SEEK_SET);
		while ((n = read(fd, buf, bs)) > 0) {
			bad += check(buf, off, n & ~7, who);
			off += n;
			bytes += n;
		}
		if (n < 0)
			fprintf(stderr, "ratool: %s: read: %s\n", who, strerror(errno));
		passes++;
	}
	fprintf(stderr, "ratool: %s: %ld passes, %lld MB, %ld bad words\n",
		who, passes, bytes >> 20, bad);
	exit(bad ? 1 : 0);
}

static void mreader(const char *path, off_t max, double until)
{
	int fd = open_or_die(path, O_RDONLY);
	struct sigaction sa = { .sa_handler = on_sigbus };
	volatile long bad = 0, passes = 0, sigbus = 0;
	uint64_t *map;

	map = mmap(NULL, max, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("ratool: mmap");
		exit(2);
	}
	sigaction(SIGBUS, &sa, NULL);
	while (now() < until) {
		for (volatile off_t off = 0; off < max; off += BLK) {
			uint64_t page[BLK / 8];

			if (sigsetjmp(bus_jmp, 1)) {
				sigbus++;	/* past EOF after a truncate */
				break;
			}
			memcpy(page, (char *)map + off, BLK);
			bad += check(page, off, BLK, "mmap reader");
		}
		passes++;
	}
	fprintf(stderr, "ratool: mmap reader: %ld passes, %ld SIGBUS past EOF, %ld bad words\n",
		(long)passes, (long)sigbus, (long)bad);
	exit(bad ? 1 : 0);
}

static int cmd_race(const char *path, long kb, double secs)
{
	off_t max = ((off_t)kb << 10) & ~(off_t)(BLK - 1);
	double until = now() + secs;
	pid_t pids[6];
	int np = 0, fails = 0, fd;
	static uint64_t chunk[65536 / 8];

	if (max < 16 * BLK)
		max = 16 * BLK;
	/* Start from a complete file. */
	fd = open_or_die(path, O_RDWR | O_CREAT | O_TRUNC);
	for (off_t off = 0; off < max; off += sizeof(chunk)) {
		size_t len = max - off < (off_t)sizeof(chunk) ?
				(size_t)(max - off) : sizeof(chunk);

		fill(chunk, off, len);
		if (pwrite(fd, chunk, len, off) != (ssize_t)len) {
			perror("ratool: pwrite");
			return 2;
		}
	}
	fsync(fd);
	close(fd);

	for (int role = 0; role < 5; role++) {
		pid_t p = fork();

		if (p < 0) {
			perror("ratool: fork");
			return 2;
		}
		if (p == 0) {
			switch (role) {
			case 0:
				writer(path, max, until, 1);
				break;
			case 1:
				advisor(path, max, until, 2);
				break;
			case 2:
				reader(path, 4096, until, 1);
				break;
			case 3:
				reader(path, 65536, until, 2);
				break;
			default:
				mreader(path, max, until);
				break;
			}
		}
		pids[np++] = p;
	}
	for (int i = 0; i < np; i++) {
		int st;

		if (waitpid(pids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			fails++;
	}
	fprintf(stderr, "ratool: race %s (%lld KB, %.0f s): %s\n", path,
		(long long)max >> 10, secs, fails ? "FAILED" : "ok");
	return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (argc == 3 && !strcmp(argv[1], "hashes"))
		return cmd_hashes(argv[2]);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "scan"))
		return cmd_scan(argv[2], atol(argv[3]), argc == 5 ? atol(argv[4]) : 0);
	if (argc == 3 && !strcmp(argv[1], "mscan"))
		return cmd_mscan(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "willneed"))
		return cmd_willneed(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "advise")) {
		int fd = open_or_die(argv[2], O_RDONLY);
		off_t max = size_of(fd);

		close(fd);
		if (max < 16 * BLK)
			max = 16 * BLK;
		advisor(argv[2], max, now() + atof(argv[3]), 3);
	}
	if (argc == 5 && !strcmp(argv[1], "race"))
		return cmd_race(argv[2], atol(argv[3]), atof(argv[4]));
	fprintf(stderr, "usage: ratool hashes|scan|mscan|willneed|advise|race ... (see ratool.c)\n");
	return 2;
}
