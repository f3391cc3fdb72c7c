/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ra_call.h - calls into the running readahead implementation, observed.
 *
 * The harness and the simulator call the running struct ra_impl from
 * their read, fault and fadvise paths through these wrappers, and
 * observe every call the same way: the window before and after, the
 * pages the filesystem was asked to read during the call, whether the
 * window moved, and how many pages of the new window inside the file
 * were cached already.  What is done with an observation belongs to the
 * layer above, which sets ra_call_observer: the harness's logs, the
 * simulator's statistics and inferred trace.
 */
#ifndef RA_CALL_H
#define RA_CALL_H

#include "shim.h"

struct ra_impl;

/* The implementation running now (the harness's tests switch it). */
extern const struct ra_impl *ra_impl;

enum ra_call_kind {
	RA_CALL_SYNC,		/* a miss in read(2) */
	RA_CALL_ASYNC,		/* a marked folio in read(2) */
	RA_CALL_FAULT_MISS,	/* a fault that found no page */
	RA_CALL_FAULT_HIT,	/* a fault that found its page */
	RA_CALL_FADVISE,	/* forced readahead: fadvise, readahead(2) */
	RA_CALL_NR
};

/* "sync", "async", "fault-miss", "fault-hit", "fadvise". */
extern const char *const ra_call_names[RA_CALL_NR];

struct ra_call {
	enum ra_call_kind kind;
	struct file *file;
	struct file_ra_state before;	/* the state before the call */
	pgoff_t index;			/* the page asked for */
	unsigned long req;		/* pages asked for */
	/* At ra_call_begin() the counter, after ra_call_end() the pages. */
	unsigned long submitted;
	bool moved;			/* start, size or async_size changed */
	unsigned long cached;		/* moved: window pages found cached */
};

struct ra_call_observer {
	/* Pages the filesystem has been asked to read so far. */
	unsigned long (*submitted)(void);
	/* A call has returned (after ra_call_end()). */
	void (*observe)(const struct ra_call *c);
};

extern const struct ra_call_observer *ra_call_observer;

void ra_call_begin(struct ra_call *c, enum ra_call_kind kind,
		   struct file *file, pgoff_t index, unsigned long req);
/* Completes @c and hands it to ra_call_observer->observe(). */
void ra_call_end(struct ra_call *c);

void ra_call_sync(struct file *file, pgoff_t index, unsigned long req);
void ra_call_async(struct file *file, struct folio *folio,
		   unsigned long req);
/* A fault: the async entry point with the folio found, else the sync. */
void ra_call_fault(struct vm_fault *vmf, struct folio *folio);
/*
 * Fault-around found @hits cached pages, the faulting one among them if
 * @mapped: the implementation's count of hits, not a readahead call.
 */
void ra_call_map_hits(struct vm_fault *vmf, unsigned int hits, bool mapped);

#endif /* RA_CALL_H */
