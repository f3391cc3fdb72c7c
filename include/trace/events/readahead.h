/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The readahead tracepoints.  Every event records raw numbers only: the
 * device and inode a file is known by, page indexes, window sizes.  The
 * task's comm and pid are in every ftrace record already, and names are
 * for whoever prints the event.
 *
 * Four events are named and laid out as mainline lays them out, so that
 * tools written for mainline read ours:
 *
 * page_cache_ra_unbounded - a read from page_cache_ra_unbounded():
 *	@index, @nr_to_read pages, @lookahead_size of them marked ahead.
 * page_cache_ra_order - a window read in large folios: where (@index),
 *	the folio @order asked for, and the window of the file's state.
 * page_cache_sync_ra, page_cache_async_ra (class page_cache_ra_op) - a
 *	cache miss, and a marked folio found, as readahead is asked: the
 *	request (@index, @req_count pages) and the file's readahead state
 *	as it is then, before anything is decided.
 *
 * Three are ours:
 *
 * readahead_decision - what the state machine decided and read: the
 *	pattern (enum ra_pattern, printed by name), the request, the
 *	window issued (@start, @size, @async_size, read in folios of up
 *	to @order), whether a page fault asked (@fault; @mmap_miss is the
 *	file's fault miss count), and @nr_read, the pages newly submitted
 *	for I/O (cached pages and pages past the end of the file do not
 *	count: 0 is a decision that found everything cached).  One event
 *	per decision of read(2), page faults, readahead(2) and
 *	POSIX_FADV_WILLNEED and the fault read-around.
 * readahead_defer - a reader left the marker at @index to the reader
 *	that set it (see the "defer" pattern): @backup is the index of the
 *	folio it marked instead, whose reader takes the stream over if the
 *	owner never comes, or -1 when it marked none because the marked
 *	window is still being read.
 * readahead_outcome - what became of the pages one decision read,
 *	once each is used or gone (@end "settled"), or as they are when
 *	the tracking stops ("stopped") or needs the room ("full"): of
 *	@pages read, @used (a read(2), a fault or a fault-around reached
 *	it while cached), @evicted (it left the cache unused) and @cached
 *	(neither yet); @lead_ns, the sum over the used pages of the time
 *	from the window's first page entering the cache to the page's
 *	first use; @stall, the decision was for a page its reader waited
 *	for.  Fired by CONFIG_READAHEAD_DEBUGFS's outcome tracking
 *	(mm/readahead_outcome.c) while outcome_enable is 1.
 *
 * Also defined here once, for the kernel and for the tools that write
 * and read readahead traces (tools/testing/readahead): enum ra_pattern,
 * and READAHEAD_TRACE_FMT, the text of the kernel log line that
 * CONFIG_READAHEAD_DEBUGFS prints per decision (mm/readahead_debug.c).
 * Its arguments, in order: the pattern's name, pid, comm, the device's
 * major and minor and its name, the inode number, the file name, the
 * request's first page and length, the window's start, size and async
 * size, whether the window starts past the request (0 or 1), the fault's
 * miss count (", miss=N", at most READAHEAD_TRACE_MISS_LEN bytes, or ""
 * when not a fault) and the pages submitted.  READAHEAD_TRACE_FMT_NAME()
 * is the same text with @conv converting the file name ("%pD": from the
 * struct file).
 */
#ifndef _TRACE_READAHEAD_DEFS
#define _TRACE_READAHEAD_DEFS

/*
 * The decisions of the state machine, readahead_decision's pattern.  The
 * names are show_ra_pattern()'s below, which ra_pattern_name() gives the
 * debugfs view's log line and statistics too.
 */
enum ra_pattern {
	RA_PATTERN_INITIAL0,
	RA_PATTERN_INITIAL,
	RA_PATTERN_SUBSEQUENT,
	RA_PATTERN_MARKER,
	RA_PATTERN_CONTEXT,
	RA_PATTERN_OVERSIZE,
	RA_PATTERN_RANDOM,
	RA_PATTERN_AROUND,
	RA_PATTERN_FADVISE,
	RA_PATTERN_DEFER,
	RA_NR_PATTERNS
};

/* The name of @pattern, as show_ra_pattern() prints it. */
static inline const char *ra_pattern_name(enum ra_pattern pattern)
{
	static const char * const names[RA_NR_PATTERNS] = {
		[RA_PATTERN_INITIAL0]	= "initial0",
		[RA_PATTERN_INITIAL]	= "initial",
		[RA_PATTERN_SUBSEQUENT]	= "subsequent",
		[RA_PATTERN_MARKER]	= "marker",
		[RA_PATTERN_CONTEXT]	= "context",
		[RA_PATTERN_OVERSIZE]	= "oversize",
		[RA_PATTERN_RANDOM]	= "random",
		[RA_PATTERN_AROUND]	= "around",
		[RA_PATTERN_FADVISE]	= "fadvise",
		[RA_PATTERN_DEFER]	= "defer",
	};

	return pattern < RA_NR_PATTERNS ? names[pattern] : "unknown";
}

/* One decision, as readahead_decision passes it to its probes. */
struct ra_decision {
	enum ra_pattern pattern;
	pgoff_t index;			/* the request: first page... */
	unsigned long req;		/* ...and length */
	pgoff_t start;			/* the window issued */
	unsigned long size;
	unsigned long async_size;
	unsigned int order;		/* read in folios of up to this order */
	bool fault;			/* asked by the page fault path */
	unsigned long actual;		/* pages newly submitted for I/O */
};

/* Why readahead_outcome reports a window. */
enum ra_outcome_end {
	RA_OUTCOME_SETTLED,	/* every page read is used or gone */
	RA_OUTCOME_STOPPED,	/* the tracking stopped */
	RA_OUTCOME_FULL,	/* the oldest window, to make room */
};

/* One window's outcome, as readahead_outcome passes it to its probes. */
struct ra_window_outcome {
	dev_t dev;			/* the file, as its inode names it */
	unsigned long ino;
	enum ra_pattern pattern;
	pgoff_t start;			/* the decision's window */
	unsigned long size;
	unsigned long pages;		/* pages it read, followed */
	unsigned long used;
	unsigned long evicted;
	unsigned long cached;
	u64 lead_ns;
	bool stall;
	enum ra_outcome_end end;
};

/* readahead_defer's @backup when no backup folio was marked. */
#define READAHEAD_NO_BACKUP	((pgoff_t)-1)

#define READAHEAD_TRACE_FMT_NAME(conv)					\
	"readahead-%s(pid=%d(%s), dev=%02x:%02x(%s), ino=%lu(" conv "), "	\
	"req=%lu+%lu, ra=%lu+%lu-%lu, async=%d%s) = %lu"
#define READAHEAD_TRACE_FMT		READAHEAD_TRACE_FMT_NAME("%s")
#define READAHEAD_TRACE_MISS_LEN	20

#endif /* _TRACE_READAHEAD_DEFS */

#undef TRACE_SYSTEM
#define TRACE_SYSTEM readahead

#if !defined(_TRACE_READAHEAD_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_READAHEAD_H

#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/tracepoint.h>

/* The pattern's values, for user space to decode the binary records. */
TRACE_DEFINE_ENUM(RA_PATTERN_INITIAL0);
TRACE_DEFINE_ENUM(RA_PATTERN_INITIAL);
TRACE_DEFINE_ENUM(RA_PATTERN_SUBSEQUENT);
TRACE_DEFINE_ENUM(RA_PATTERN_MARKER);
TRACE_DEFINE_ENUM(RA_PATTERN_CONTEXT);
TRACE_DEFINE_ENUM(RA_PATTERN_OVERSIZE);
TRACE_DEFINE_ENUM(RA_PATTERN_RANDOM);
TRACE_DEFINE_ENUM(RA_PATTERN_AROUND);
TRACE_DEFINE_ENUM(RA_PATTERN_FADVISE);
TRACE_DEFINE_ENUM(RA_PATTERN_DEFER);

#define show_ra_pattern(pattern)					\
	__print_symbolic(pattern,					\
			 { RA_PATTERN_INITIAL0,		"initial0" },	\
			 { RA_PATTERN_INITIAL,		"initial" },	\
			 { RA_PATTERN_SUBSEQUENT,	"subsequent" },	\
			 { RA_PATTERN_MARKER,		"marker" },	\
			 { RA_PATTERN_CONTEXT,		"context" },	\
			 { RA_PATTERN_OVERSIZE,		"oversize" },	\
			 { RA_PATTERN_RANDOM,		"random" },	\
			 { RA_PATTERN_AROUND,		"around" },	\
			 { RA_PATTERN_FADVISE,		"fadvise" },	\
			 { RA_PATTERN_DEFER,		"defer" })

TRACE_EVENT(page_cache_ra_unbounded,

	TP_PROTO(struct inode *inode, pgoff_t index, unsigned long nr_to_read,
		 unsigned long lookahead_size),

	TP_ARGS(inode, index, nr_to_read, lookahead_size),

	TP_STRUCT__entry(
		__field(dev_t, s_dev)
		__field(unsigned long, i_ino)
		__field(pgoff_t, index)
		__field(unsigned long, nr_to_read)
		__field(unsigned long, lookahead_size)
	),

	TP_fast_assign(
		__entry->s_dev = inode->i_sb->s_dev;
		__entry->i_ino = inode->i_ino;
		__entry->index = index;
		__entry->nr_to_read = nr_to_read;
		__entry->lookahead_size = lookahead_size;
	),

	TP_printk("dev=%d:%d ino=%lx index=%lu nr_to_read=%lu lookahead_size=%lu",
		  MAJOR(__entry->s_dev), MINOR(__entry->s_dev),
		  __entry->i_ino, __entry->index, __entry->nr_to_read,
		  __entry->lookahead_size)
);

TRACE_EVENT(page_cache_ra_order,

	TP_PROTO(struct inode *inode, pgoff_t index,
		 const struct file_ra_state *ra),

	TP_ARGS(inode, index, ra),

	TP_STRUCT__entry(
		__field(dev_t, s_dev)
		__field(unsigned long, i_ino)
		__field(pgoff_t, index)
		__field(unsigned int, order)
		__field(unsigned int, size)
		__field(unsigned int, async_size)
		__field(unsigned int, ra_pages)
	),

	TP_fast_assign(
		__entry->s_dev = inode->i_sb->s_dev;
		__entry->i_ino = inode->i_ino;
		__entry->index = index;
		__entry->order = ra->order;
		__entry->size = ra->size;
		__entry->async_size = ra->async_size;
		__entry->ra_pages = ra->ra_pages;
	),

	TP_printk("dev=%d:%d ino=%lx index=%lu order=%u size=%u async_size=%u ra_pages=%u",
		  MAJOR(__entry->s_dev), MINOR(__entry->s_dev),
		  __entry->i_ino, __entry->index, __entry->order,
		  __entry->size, __entry->async_size, __entry->ra_pages)
);

DECLARE_EVENT_CLASS(page_cache_ra_op,

	TP_PROTO(struct inode *inode, pgoff_t index,
		 const struct file_ra_state *ra, unsigned long req_count),

	TP_ARGS(inode, index, ra, req_count),

	TP_STRUCT__entry(
		__field(dev_t, s_dev)
		__field(unsigned long, i_ino)
		__field(pgoff_t, index)
		__field(unsigned long, req_count)
		__field(unsigned int, order)
		__field(unsigned int, size)
		__field(unsigned int, async_size)
		__field(unsigned int, ra_pages)
		__field(unsigned int, mmap_miss)
		__field(loff_t, prev_pos)
	),

	TP_fast_assign(
		__entry->s_dev = inode->i_sb->s_dev;
		__entry->i_ino = inode->i_ino;
		__entry->index = index;
		__entry->req_count = req_count;
		__entry->order = ra->order;
		__entry->size = ra->size;
		__entry->async_size = ra->async_size;
		__entry->ra_pages = ra->ra_pages;
		__entry->mmap_miss = ra->mmap_miss;
		__entry->prev_pos = ra->prev_pos;
	),

	TP_printk("dev=%d:%d ino=%lx index=%lu req_count=%lu order=%u size=%u async_size=%u ra_pages=%u mmap_miss=%u prev_pos=%lld",
		  MAJOR(__entry->s_dev), MINOR(__entry->s_dev),
		  __entry->i_ino, __entry->index, __entry->req_count,
		  __entry->order, __entry->size, __entry->async_size,
		  __entry->ra_pages, __entry->mmap_miss,
		  (long long)__entry->prev_pos)
);

DEFINE_EVENT(page_cache_ra_op, page_cache_sync_ra,

	TP_PROTO(struct inode *inode, pgoff_t index,
		 const struct file_ra_state *ra, unsigned long req_count),

	TP_ARGS(inode, index, ra, req_count)
);

DEFINE_EVENT(page_cache_ra_op, page_cache_async_ra,

	TP_PROTO(struct inode *inode, pgoff_t index,
		 const struct file_ra_state *ra, unsigned long req_count),

	TP_ARGS(inode, index, ra, req_count)
);

/*
 * @ractl is for probes (the debugfs view prints the reader's file from
 * it); the record keeps numbers only.
 */
TRACE_EVENT(readahead_decision,

	TP_PROTO(struct readahead_control *ractl, const struct ra_decision *d),

	TP_ARGS(ractl, d),

	TP_STRUCT__entry(
		__field(dev_t, s_dev)
		__field(unsigned long, i_ino)
		__field(unsigned int, pattern)
		__field(pgoff_t, index)
		__field(unsigned long, req_count)
		__field(pgoff_t, start)
		__field(unsigned long, size)
		__field(unsigned long, async_size)
		__field(unsigned int, order)
		__field(bool, fault)
		__field(unsigned int, mmap_miss)
		__field(unsigned long, nr_read)
	),

	TP_fast_assign(
		__entry->s_dev = ractl->mapping->host->i_sb->s_dev;
		__entry->i_ino = ractl->mapping->host->i_ino;
		__entry->pattern = d->pattern;
		__entry->index = d->index;
		__entry->req_count = d->req;
		__entry->start = d->start;
		__entry->size = d->size;
		__entry->async_size = d->async_size;
		__entry->order = d->order;
		__entry->fault = d->fault;
		__entry->mmap_miss = ractl->ra ? ractl->ra->mmap_miss : 0;
		__entry->nr_read = d->actual;
	),

	TP_printk("dev=%d:%d ino=%lx pattern=%s index=%lu req_count=%lu start=%lu size=%lu async_size=%lu order=%u fault=%d mmap_miss=%u nr_read=%lu",
		  MAJOR(__entry->s_dev), MINOR(__entry->s_dev),
		  __entry->i_ino,
		  show_ra_pattern(__entry->pattern),
		  __entry->index, __entry->req_count, __entry->start,
		  __entry->size, __entry->async_size, __entry->order,
		  __entry->fault, __entry->mmap_miss, __entry->nr_read)
);

TRACE_EVENT(readahead_defer,

	TP_PROTO(struct inode *inode, pgoff_t index, pgoff_t backup),

	TP_ARGS(inode, index, backup),

	TP_STRUCT__entry(
		__field(dev_t, s_dev)
		__field(unsigned long, i_ino)
		__field(pgoff_t, index)
		__field(pgoff_t, backup)
	),

	TP_fast_assign(
		__entry->s_dev = inode->i_sb->s_dev;
		__entry->i_ino = inode->i_ino;
		__entry->index = index;
		__entry->backup = backup;
	),

	TP_printk("dev=%d:%d ino=%lx index=%lu backup=%ld",
		  MAJOR(__entry->s_dev), MINOR(__entry->s_dev),
		  __entry->i_ino, __entry->index, (long)__entry->backup)
);

TRACE_DEFINE_ENUM(RA_OUTCOME_SETTLED);
TRACE_DEFINE_ENUM(RA_OUTCOME_STOPPED);
TRACE_DEFINE_ENUM(RA_OUTCOME_FULL);

TRACE_EVENT(readahead_outcome,

	TP_PROTO(const struct ra_window_outcome *o),

	TP_ARGS(o),

	TP_STRUCT__entry(
		__field(dev_t, s_dev)
		__field(unsigned long, i_ino)
		__field(unsigned int, pattern)
		__field(pgoff_t, start)
		__field(unsigned long, size)
		__field(unsigned long, pages)
		__field(unsigned long, used)
		__field(unsigned long, evicted)
		__field(unsigned long, cached)
		__field(u64, lead_ns)
		__field(bool, stall)
		__field(unsigned int, end)
	),

	TP_fast_assign(
		__entry->s_dev = o->dev;
		__entry->i_ino = o->ino;
		__entry->pattern = o->pattern;
		__entry->start = o->start;
		__entry->size = o->size;
		__entry->pages = o->pages;
		__entry->used = o->used;
		__entry->evicted = o->evicted;
		__entry->cached = o->cached;
		__entry->lead_ns = o->lead_ns;
		__entry->stall = o->stall;
		__entry->end = o->end;
	),

	TP_printk("dev=%d:%d ino=%lx pattern=%s start=%lu size=%lu pages=%lu used=%lu evicted=%lu cached=%lu lead_ns=%llu stall=%d end=%s",
		  MAJOR(__entry->s_dev), MINOR(__entry->s_dev),
		  __entry->i_ino,
		  show_ra_pattern(__entry->pattern),
		  __entry->start, __entry->size, __entry->pages,
		  __entry->used, __entry->evicted, __entry->cached,
		  (unsigned long long)__entry->lead_ns, __entry->stall,
		  __print_symbolic(__entry->end,
				   { RA_OUTCOME_SETTLED,	"settled" },
				   { RA_OUTCOME_STOPPED,	"stopped" },
				   { RA_OUTCOME_FULL,		"full" }))
);

#endif /* _TRACE_READAHEAD_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
