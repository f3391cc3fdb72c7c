/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness.h - the harness's view of a running system, for tests.
 *
 * A readahead implementation (ours, or the pristine 6.12 or 6.1 file) is a table
 * of its entry points.  Around it the harness provides what the kernel
 * would: files on a tiny filesystem whose ->readahead records every page
 * it is asked to read, the read(2) path and the page fault path of 6.1's
 * mm/filemap.c, fadvise, a descriptor table, and a log of every
 * readahead call with the window it left behind.
 */
#ifndef RA_HARNESS_H
#define RA_HARNESS_H

#include "lib.h"

/* ---- files ---- */

struct h_file {
	struct inode inode;
	struct backing_dev_info bdi;
	struct file file;
	struct dentry dentry;
	char name[16];		/* "f" and the inode number */
	struct task_struct task; /* the process reading: pid 4000 + fd */
	int fd;
};

/* A regular file of @size bytes on a device with read_ahead_kb @ra_kb. */
struct h_file *h_create(loff_t size, unsigned long ra_kb);
/* Another open file (own readahead state) on the same inode. */
struct h_file *h_reopen(struct h_file *f);
void h_close(struct h_file *f);
/* Drop every cached page of @f's inode. */
void h_drop_cache(struct h_file *f);
/* Put pages [first, first + nr) in the cache, uptodate, unmarked. */
void h_populate(struct h_file *f, pgoff_t first, unsigned long nr);
bool h_cached(struct h_file *f, pgoff_t index);
/* Give @f's mapping large folios, as mapping_set_large_folios(). */
void h_set_large_folios(struct h_file *f, bool on);
void h_set_min_order(struct h_file *f, unsigned int order);
void h_evict(struct h_file *f, pgoff_t first, unsigned long nr);
void h_populate_marked(struct h_file *f, pgoff_t index, unsigned int order);
bool h_marked(struct h_file *f, pgoff_t index);

/* read(2) of @len bytes at @pos, through 6.1's filemap_read() logic. */
ssize_t h_read(struct h_file *f, loff_t pos, size_t len);
/* @n pages of @f from page @first, in 4 KB read(2)s. */
static inline void h_read_seq(struct h_file *f, pgoff_t first, pgoff_t n)
{
	pgoff_t i;

	for (i = first; i < first + n; i++)
		h_read(f, (loff_t)i * 4096, 4096);
}
/*
 * A page fault at page @pgoff of a mapping with @vm_flags (VM_*): 1 for a
 * major fault, 0 for a minor one.
 */
int h_fault(struct h_file *f, pgoff_t pgoff, unsigned long vm_flags);
/*
 * Pages fault-around maps at a fault (6.12's default: 16, 64 KB), 0 for
 * none, as before 3.15; with it a fault whose readahead dropped the
 * mmap_lock is tried again, as VM_FAULT_RETRY does.  Reset by each test.
 */
extern unsigned int h_fault_around_pages;
/*
 * With @on, every read the filesystem is given stays in flight (its
 * folios locked, not uptodate) until h_complete_reads(), and a fault that
 * finds its folio so goes to sleep on it: h_fault() returns there.
 */
void h_hold_reads(bool on);
void h_complete_reads(void);
/* posix_fadvise(2) and readahead(2) with their error returns. */
int h_fadvise(int fd, loff_t offset, loff_t len, int advice);
ssize_t h_readahead(int fd, loff_t offset, size_t count);
/* A descriptor not open for reading / a FIFO / a directory. */
int h_open_special(umode_t mode, fmode_t fmode);

/*
 * How the filesystem's ->readahead behaves: it reads at most @take pages
 * of each request and leaves the rest to the caller (as NFS, CIFS and
 * netfs may); with @expand_align it first grows each request to that
 * alignment (readahead_expand(), as ceph, netfs and erofs do); with
 * @congested it behaves as FUSE past its congestion threshold: before
 * each folio it reads rac->ra, and leaves the rest of the request unread
 * once only the window's asynchronous pages are left.  A NULL rac->ra is
 * a kernel oops there: the harness aborts.
 */
struct h_fs_behaviour {
	unsigned long take;
	unsigned long expand_align;
	bool congested;
};
extern struct h_fs_behaviour h_fs;

/* ---- what happened ---- */

/* Reset the logs (not the cache). */
void h_log_reset(void);
/*
 * Windows left in the readahead state by each readahead call that
 * changed it: "0+4-3 4+8-8", in call order.
 */
const char *h_windows(void);
/*
 * Pages submitted for I/O, one run per request, in order; the page that
 * carried PG_readahead at submission is given in brackets:
 * "0-3[1] 4-11[4] 17".
 */
const char *h_io(void);
/* One I/O request of h_io(): pages [first, first + nr) of @mapping. */
struct h_io_req {
	const struct address_space *mapping;
	pgoff_t first;
	unsigned long nr;
	pgoff_t marked;		/* the page with PG_readahead, or ULONG_MAX */
	bool single;		/* ->read_folio ("r"), not ->readahead */
};
/* The requests h_io() prints, in order; their number in *@nr. */
const struct h_io_req *h_io_reqs(unsigned long *nr);
/*
 * Folios handed to the filesystem, in order: contiguous folios of one
 * order in one request as "first-last:order" ("first:order" for one
 * page), a marked folio alone and with a '*': "0-3:2* 4-7:2 8-15:3".
 */
const char *h_folios(void);
/* Per readahead call: "sync 0+1 0+4-3 =4", joined with "; ". */
const char *h_calls(void);
/* Pages submitted in all, and pages submitted while already read. */
unsigned long h_pages_submitted(void);
unsigned long h_pages_resubmitted(void);
/* Readahead calls that changed the window but submitted nothing. */
unsigned long h_all_cached_calls(void);
/* Pages put into / taken out of the page cache, by anyone. */
unsigned long h_pages_added(void);
unsigned long h_pages_removed(void);
/* I/O requests the filesystem issued (one per contiguous run). */
unsigned long h_io_requests(void);
/* Synchronous readahead calls (cache misses in read(2)). */
unsigned long h_sync_calls(void);
/* Readahead calls of every kind: the entries of h_calls(). */
unsigned long h_ra_calls(void);
/* Pages of new windows that were found cached: duplicate work. */
unsigned long h_cached_in_windows(void);
/* Page faults that found no page (major faults). */
unsigned long h_major_faults(void);

/* Close every file, dropping their caches. */
void h_close_all(void);

/* Trace lines printed since the last h_log_reset(), one per line. */
const char *h_trace(void);
/* The sink that collects them (set shim_trace_sink to it). */
void h_trace_collect(const char *line);
/* The readahead tracepoint's lines, as trace_pipe shows them, likewise. */
const char *h_tracepoint(void);
void h_tracepoint_collect(const char *line);

/* The page cache's own (pagecache.c). */
void xa_destroy_index(struct xarray *xa);

extern long shim_live_folios;
/* Pages inserted into and removed from every mapping's index. */
extern unsigned long shim_pages_added, shim_pages_removed;
extern long shim_alloc_budget;
/* Allocations of folios above this order fail (UINT_MAX: none do). */
extern unsigned int shim_alloc_order_limit;
/* The addition that fails with -ENOMEM after this many (-1: none). */
extern long shim_add_enomem_in;
/* Folios added come back from eviction: PG_workingset. */
extern bool shim_add_workingset;

#endif /* RA_HARNESS_H */
