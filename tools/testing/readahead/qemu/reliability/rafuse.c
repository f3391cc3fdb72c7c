// SPDX-License-Identifier: GPL-2.0
/*
 * rafuse.c - a read-only FUSE server that answers reads late, and its
 * reader: the guest side of fuse.sh.
 *
 * Built statically (gcc -static) by build-initramfs.sh for the "fuse"
 * guest image.  Speaks the /dev/fuse protocol itself (<linux/fuse.h>;
 * no libfuse):
 *
 *   rafuse serve [-n FILES] [-s MB] [-d MS] [-b MAXBG] [-c CONG] MNT
 *	mount a FUSE file system on MNT holding FILES read-only files f0,
 *	f1, ... of MB megabytes each (default 8 files of 4 MB), then serve
 *	it from a child process (the command returns once it is mounted).
 *	Every byte is a function of the file's inode number and its offset
 *	(pattern()), so a reader can check each one.  The FUSE_INIT reply
 *	asks for asynchronous reads (readahead then goes out as background
 *	requests) and sets max_background MAXBG (default 2) and
 *	congestion_threshold CONG (default 1).  Each READ is answered MS
 *	milliseconds (default 50) after it arrived; the other requests at
 *	once.  So while a reader waits for its data, the connection has at
 *	least CONG background requests: it is congested as fuse_readahead()
 *	tests it.  SIGUSR1 prints the server's counts on its stderr.
 *
 *   rafuse read MODE FILE [BYTES]
 *	read the first BYTES of FILE (default: all of it) in one of these
 *	ways, and check every byte read against pattern():
 *	  seq           read(2), 64 KB at a time, from offset 0
 *	  seq4k         read(2), 4 KB at a time, from offset 0
 *	  random        64 pread(2)s of 4 KB at pseudo-random page offsets
 *	                (never page 0, no page twice)
 *	  fadv-random   POSIX_FADV_RANDOM, then 64 pread(2)s of 16 KB at
 *	                pseudo-random offsets
 *	  willneed      POSIX_FADV_WILLNEED of the range, then read(2) it
 *	  readahead     readahead(2) of the range, then read(2) it
 *	  madv-willneed mmap the range, MADV_WILLNEED, then read it through
 *	                the mapping
 *	prints one line "rafuse: MODE FILE: ..." with the bytes checked.
 *
 * Exit status 0 when every byte was right; 1 on a wrong byte or a
 * failed read; 2 on usage or setup errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define ROOT_MODE (S_IFDIR | 0555)
#define FILE_MODE (S_IFREG | 0444)
/* Node ids: 1 is the root, file fK is K + 2. */
#define FIRST_FILE_ID 2
/* Requests held at once; more than any reader here keeps in flight. */
#define MAX_HELD 256
/* A request buffer the kernel accepts (at least FUSE_MIN_READ_BUFFER). */
#define REQ_BUF (128 * 1024 + PAGE)

/* --- The files' contents ---------------------------------------------- */

static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* The byte at offset @off of the file with inode number @ino. */
static unsigned char pattern(uint64_t ino, uint64_t off)
{
	uint64_t w = mix(ino * 0x9e3779b97f4a7c15ULL + (off >> 3));

	return w >> (8 * (off & 7));
}

static void fill(uint64_t ino, uint64_t off, unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern(ino, off + i);
}

/* --- The server ------------------------------------------------------- */

struct held {
	uint64_t unique;
	uint64_t nodeid;
	uint64_t off;
	uint32_t size;
	double due;
};

static struct {
	int fd;
	unsigned int nfiles;
	uint64_t size;
	double delay;
	/* FIFO of the READs not answered yet (same delay: due in order). */
	struct held held[MAX_HELD];
	unsigned int head, count;
	/* Counts for SIGUSR1. */
	unsigned long reqs, reads, max_held, reads_congested;
	unsigned long long read_bytes;
	unsigned int cong;
} srv;

static volatile sig_atomic_t dump_asked;

static void on_usr1(int sig)
{
	(void)sig;
	dump_asked = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void dump(void)
{
	fprintf(stderr,
		"rafuse: server: %lu requests, %lu reads (%llu bytes), %lu reads arrived with >= %u held, at most %lu reads held at once, %u held now\n",
		srv.reqs, srv.reads, srv.read_bytes, srv.reads_congested,
		srv.cong, srv.max_held, srv.count);
}

/* Send the reply to @unique: @error (negative errno) or @len bytes. */
static void reply(uint64_t unique, int error, const void *data, size_t len)
{
	struct fuse_out_header out = {
		.len = sizeof(out) + (error ? 0 : len),
		.error = error,
		.unique = unique,
	};
	struct iovec iov[2] = {
		{ .iov_base = &out, .iov_len = sizeof(out) },
		{ .iov_base = (void *)data, .iov_len = error ? 0 : len },
	};

	/* ENOENT: the request was interrupted or aborted meanwhile. */
	if (writev(srv.fd, iov, 2) < 0 && errno != ENOENT)
		fprintf(stderr, "rafuse: answer to %llu: %s\n",
			(unsigned long long)unique, strerror(errno));
}

static int is_file(uint64_t nodeid)
{
	return nodeid >= FIRST_FILE_ID && nodeid < FIRST_FILE_ID + srv.nfiles;
}

static void fill_attr(uint64_t nodeid, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = nodeid;
	a->blksize = PAGE;
	if (nodeid == FUSE_ROOT_ID) {
		a->mode = ROOT_MODE;
		a->nlink = 2;
	} else {
		a->mode = FILE_MODE;
		a->nlink = 1;
		a->size = srv.size;
		a->blocks = srv.size / 512;
	}
}

static void do_init(uint64_t unique, const struct fuse_init_in *in,
		    unsigned int maxbg)
{
	struct fuse_init_out out = {
		.major = FUSE_KERNEL_VERSION,
		.minor = FUSE_KERNEL_MINOR_VERSION,
		.max_readahead = in->max_readahead,
		/* Readahead as background requests: what congestion counts. */
		.flags = FUSE_ASYNC_READ,
		.max_background = maxbg,
		.congestion_threshold = srv.cong,
		.max_write = PAGE,
		.time_gran = 1,
	};

	if (in->major != FUSE_KERNEL_VERSION) {
		fprintf(stderr, "rafuse: kernel speaks FUSE %u.%u\n",
			in->major, in->minor);
		reply(unique, -EPROTO, NULL, 0);
		return;
	}
	if (in->minor < out.minor)
		out.minor = in->minor;
	reply(unique, 0, &out, sizeof(out));
	fprintf(stderr, "rafuse: INIT: kernel %u.%u, max_background %u, congestion_threshold %u, read delay %.0f ms\n",
		in->major, in->minor, maxbg, srv.cong, srv.delay * 1e3);
}

static void do_lookup(uint64_t unique, uint64_t parent, const char *name)
{
	struct fuse_entry_out out = { 0 };
	char *end;
	unsigned long k;

	if (parent != FUSE_ROOT_ID || name[0] != 'f' || !name[1]) {
		reply(unique, -ENOENT, NULL, 0);
		return;
	}
	k = strtoul(name + 1, &end, 10);
	if (*end || k >= srv.nfiles || (name[1] == '0' && name[2])) {
		reply(unique, -ENOENT, NULL, 0);
		return;
	}
	out.nodeid = FIRST_FILE_ID + k;
	out.entry_valid = 3600;
	out.attr_valid = 3600;
	fill_attr(out.nodeid, &out.attr);
	reply(unique, 0, &out, sizeof(out));
}

static void do_getattr(uint64_t unique, uint64_t nodeid)
{
	struct fuse_attr_out out = { .attr_valid = 3600 };

	if (nodeid != FUSE_ROOT_ID && !is_file(nodeid)) {
		reply(unique, -ENOENT, NULL, 0);
		return;
	}
	fill_attr(nodeid, &out.attr);
	reply(unique, 0, &out, sizeof(out));
}

static void do_open(uint64_t unique, uint64_t nodeid, int dir)
{
	/* No FOPEN_DIRECT_IO: reads go through the page cache. */
	struct fuse_open_out out = { .fh = nodeid };

	if (dir ? nodeid != FUSE_ROOT_ID : !is_file(nodeid)) {
		reply(unique, dir ? -ENOTDIR : -EISDIR, NULL, 0);
		return;
	}
	reply(unique, 0, &out, sizeof(out));
}

/* Directory entries from @off on ("." is 0, ".." 1, fK is K + 2). */
static void do_readdir(uint64_t unique, const struct fuse_read_in *in)
{
	static unsigned char buf[REQ_BUF];
	size_t max = in->size < sizeof(buf) ? in->size : sizeof(buf);
	size_t len = 0;

	for (uint64_t i = in->offset; i < 2 + srv.nfiles; i++) {
		struct fuse_dirent *d = (struct fuse_dirent *)(buf + len);
		char name[16];
		size_t n;

		if (i < 2)
			snprintf(name, sizeof(name), "%s", i ? ".." : ".");
		else
			snprintf(name, sizeof(name), "f%llu",
				 (unsigned long long)(i - 2));
		n = strlen(name);
		if (len + FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + n) > max)
			break;
		d->ino = i < 2 ? FUSE_ROOT_ID : FIRST_FILE_ID + i - 2;
		d->off = i + 1;
		d->namelen = n;
		d->type = i < 2 ? S_IFDIR >> 12 : S_IFREG >> 12;
		memcpy(d->name, name, n);
		memset(d->name + n, 0, FUSE_DIRENT_SIZE(d) - FUSE_NAME_OFFSET - n);
		len += FUSE_DIRENT_SIZE(d);
	}
	reply(unique, 0, buf, len);
}

static void answer_read(const struct held *h)
{
	static unsigned char buf[REQ_BUF];
	uint64_t len = h->size;

	if (len > sizeof(buf))
		len = sizeof(buf);
	/* Past the end: a short read, as the kernel expects at EOF. */
	if (h->off >= srv.size)
		len = 0;
	else if (len > srv.size - h->off)
		len = srv.size - h->off;
	fill(h->nodeid, h->off, buf, len);
	srv.read_bytes += len;
	reply(h->unique, 0, buf, len);
}

/* Answer the held READs that are due (all of them when @all). */
static void answer_due(int all)
{
	double t = now();

	while (srv.count) {
		struct held *h = &srv.held[srv.head];

		if (!all && h->due > t)
			break;
		answer_read(h);
		srv.head = (srv.head + 1) % MAX_HELD;
		srv.count--;
	}
}

static void do_read(uint64_t unique, uint64_t nodeid,
		    const struct fuse_read_in *in)
{
	struct held *h;

	if (!is_file(nodeid)) {
		reply(unique, -EISDIR, NULL, 0);
		return;
	}
	srv.reads++;
	if (srv.count >= srv.cong)
		srv.reads_congested++;
	if (srv.count == MAX_HELD) {
		/* Full: the oldest goes now. */
		answer_read(&srv.held[srv.head]);
		srv.head = (srv.head + 1) % MAX_HELD;
		srv.count--;
	}
	h = &srv.held[(srv.head + srv.count) % MAX_HELD];
	h->unique = unique;
	h->nodeid = nodeid;
	h->off = in->offset;
	h->size = in->size;
	h->due = now() + srv.delay;
	srv.count++;
	if (srv.count > srv.max_held)
		srv.max_held = srv.count;
}

static void handle(const unsigned char *buf, size_t n, unsigned int maxbg)
{
	const struct fuse_in_header *in = (const void *)buf;
	const void *arg = buf + sizeof(*in);
	struct fuse_statfs_out st = { 0 };

	if (n < sizeof(*in) || in->len != n) {
		fprintf(stderr, "rafuse: short request (%zu bytes)\n", n);
		return;
	}
	srv.reqs++;
	switch (in->opcode) {
	case FUSE_INIT:
		do_init(in->unique, arg, maxbg);
		break;
	case FUSE_LOOKUP:
		do_lookup(in->unique, in->nodeid, arg);
		break;
	case FUSE_GETATTR:
		do_getattr(in->unique, in->nodeid);
		break;
	case FUSE_OPEN:
		do_open(in->unique, in->nodeid, 0);
		break;
	case FUSE_OPENDIR:
		do_open(in->unique, in->nodeid, 1);
		break;
	case FUSE_READ:
		do_read(in->unique, in->nodeid, arg);
		break;
	case FUSE_READDIR:
		do_readdir(in->unique, arg);
		break;
	case FUSE_STATFS:
		st.st.bsize = PAGE;
		st.st.frsize = PAGE;
		st.st.namelen = 255;
		st.st.files = srv.nfiles;
		st.st.blocks = srv.nfiles * srv.size / PAGE;
		reply(in->unique, 0, &st, sizeof(st));
		break;
	case FUSE_FLUSH:
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
		reply(in->unique, 0, NULL, 0);
		break;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		/* No reply; an interrupted READ is still answered when due. */
		break;
	default:
		reply(in->unique, -ENOSYS, NULL, 0);
		break;
	}
}

static void serve(unsigned int maxbg)
{
	static unsigned char buf[REQ_BUF];

	for (;;) {
		struct pollfd p = { .fd = srv.fd, .events = POLLIN };
		int timeout = -1;
		ssize_t n;

		if (srv.count) {
			double left = srv.held[srv.head].due - now();

			timeout = left > 0 ? (int)(left * 1e3) + 1 : 0;
		}
		if (dump_asked) {
			dump_asked = 0;
			dump();
		}
		if (poll(&p, 1, timeout) < 0 && errno != EINTR) {
			perror("rafuse: poll");
			exit(1);
		}
		answer_due(0);
		if (!(p.revents & (POLLIN | POLLERR | POLLHUP)))
			continue;
		n = read(srv.fd, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR || errno == ENOENT)
				continue;
			/* ENODEV: unmounted, or the connection aborted. */
			fprintf(stderr, "rafuse: /dev/fuse: %s, exiting\n",
				strerror(errno));
			dump();
			exit(0);
		}
		handle(buf, n, maxbg);
	}
}

static int cmd_serve(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	unsigned int maxbg = 2;
	long mb = 4, ms = 50;
	char opts[256];
	pid_t pid;
	int c;

	srv.nfiles = 8;
	srv.cong = 1;
	while ((c = getopt(argc, argv, "n:s:d:b:c:")) != -1) {
		switch (c) {
		case 'n':
			srv.nfiles = atoi(optarg);
			break;
		case 's':
			mb = atol(optarg);
			break;
		case 'd':
			ms = atol(optarg);
			break;
		case 'b':
			maxbg = atoi(optarg);
			break;
		case 'c':
			srv.cong = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (optind != argc - 1 || !srv.nfiles || srv.nfiles > 1000 ||
	    mb < 1 || ms < 0 || !maxbg || maxbg > 65535 || !srv.cong ||
	    srv.cong > 65535) {
		fprintf(stderr, "usage: rafuse serve [-n FILES] [-s MB] [-d MS] [-b MAXBG] [-c CONG] MNT\n");
		return 2;
	}
	srv.size = (uint64_t)mb << 20;
	srv.delay = ms / 1e3;
	srv.fd = open("/dev/fuse", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (srv.fd < 0) {
		perror("rafuse: /dev/fuse");
		return 2;
	}
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=%o,user_id=0,group_id=0,allow_other",
		 srv.fd, ROOT_MODE);
	if (mount("rafuse", argv[optind], "fuse", MS_RDONLY | MS_NOSUID | MS_NODEV,
		  opts)) {
		fprintf(stderr, "rafuse: mount %s: %s\n", argv[optind],
			strerror(errno));
		return 2;
	}
	/* The kernel sends FUSE_INIT now; the child answers it. */
	pid = fork();
	if (pid < 0) {
		perror("rafuse: fork");
		return 2;
	}
	if (pid) {
		printf("%d\n", (int)pid);
		return 0;
	}
	/* Let the caller's $(...) or pipe end: keep only stderr. */
	c = open("/dev/null", O_RDWR);
	if (c < 0 || dup2(c, 0) < 0 || dup2(c, 1) < 0) {
		perror("rafuse: /dev/null");
		exit(2);
	}
	close(c);
	/* No SA_RESTART: the signal ends the poll() at once. */
	sigaction(SIGUSR1, &sa, NULL);
	serve(maxbg);
	return 0;
}

/* --- The reader ------------------------------------------------------- */

static uint64_t file_ino;
static unsigned long long checked, bad;

/* Check @len bytes read at @off; report the first wrong one. */
static void check(const unsigned char *buf, uint64_t off, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == pattern(file_ino, off + i))
			continue;
		if (!bad)
			fprintf(stderr, "rafuse: byte at %llu is %02x, want %02x\n",
				(unsigned long long)(off + i), buf[i],
				pattern(file_ino, off + i));
		bad++;
	}
	checked += len;
}

/* Read [@off, @off + @len) with pread(2)s of at most @bs bytes. */
static int read_range(int fd, uint64_t off, uint64_t len, size_t bs)
{
	static unsigned char buf[65536];

	if (bs > sizeof(buf))
		bs = sizeof(buf);
	while (len) {
		size_t want = len < bs ? len : bs;
		ssize_t n = pread(fd, buf, want, off);

		if (n <= 0) {
			fprintf(stderr, "rafuse: read at %llu: %s\n",
				(unsigned long long)off,
				n ? strerror(errno) : "unexpected end of file");
			return 1;
		}
		check(buf, off, n);
		off += n;
		len -= n;
	}
	return 0;
}

/* 64 distinct pages from 1 to @npages - 1, pseudo-random, fixed seed. */
static int random_reads(int fd, uint64_t npages, size_t bs)
{
	static unsigned char seen[1 << 16];
	uint64_t x = 12345;
	int done = 0, err = 0;

	if (npages < 2 * 64 || npages > sizeof(seen)) {
		fprintf(stderr, "rafuse: random reads want 128 to 65536 pages\n");
		return 2;
	}
	while (done < 64 && !err) {
		uint64_t pg;

		x = mix(x);
		pg = 1 + x % (npages - bs / PAGE);
		if (seen[pg])
			continue;
		seen[pg] = 1;
		err = read_range(fd, pg * PAGE, bs, bs);
		done++;
	}
	return err;
}

static int cmd_read(const char *mode, const char *path, const char *bytes)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	uint64_t len;
	int err = 0;

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "rafuse: %s: %s\n", path, strerror(errno));
		return 2;
	}
	file_ino = st.st_ino;
	len = bytes ? strtoull(bytes, NULL, 0) : (uint64_t)st.st_size;
	if (len > (uint64_t)st.st_size)
		len = st.st_size;
	if (!strcmp(mode, "seq")) {
		err = read_range(fd, 0, len, 65536);
	} else if (!strcmp(mode, "seq4k")) {
		err = read_range(fd, 0, len, PAGE);
	} else if (!strcmp(mode, "random")) {
		err = random_reads(fd, len / PAGE, PAGE);
	} else if (!strcmp(mode, "fadv-random")) {
		err = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
		if (err)
			fprintf(stderr, "rafuse: POSIX_FADV_RANDOM: %s\n",
				strerror(err));
		else
			err = random_reads(fd, len / PAGE, 4 * PAGE);
	} else if (!strcmp(mode, "willneed")) {
		err = posix_fadvise(fd, 0, len, POSIX_FADV_WILLNEED);
		if (err)
			fprintf(stderr, "rafuse: POSIX_FADV_WILLNEED: %s\n",
				strerror(err));
		else
			err = read_range(fd, 0, len, 65536);
	} else if (!strcmp(mode, "readahead")) {
		if (readahead(fd, 0, len)) {
			perror("rafuse: readahead");
			err = 1;
		} else {
			err = read_range(fd, 0, len, 65536);
		}
	} else if (!strcmp(mode, "madv-willneed")) {
		unsigned char *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);

		if (map == MAP_FAILED) {
			perror("rafuse: mmap");
			return 2;
		}
		if (madvise(map, len, MADV_WILLNEED)) {
			perror("rafuse: MADV_WILLNEED");
			err = 1;
		} else {
			check(map, 0, len);
		}
		munmap(map, len);
	} else {
		fprintf(stderr, "rafuse: unknown read mode '%s'\n", mode);
		return 2;
	}
	printf("rafuse: %s %s: %llu bytes checked, %llu wrong%s\n", mode, path,
	       checked, bad, err ? ", a call failed" : "");
	if (err == 2)
		return 2;
	return err || bad || !checked ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "serve"))
		return cmd_serve(argc - 1, argv + 1);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "read"))
		return cmd_read(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	fprintf(stderr, "usage: rafuse serve|read ... (see rafuse.c)\n");
	return 2;
}
