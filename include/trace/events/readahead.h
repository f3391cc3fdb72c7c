/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The readahead tracepoint: one event per readahead decision, for ftrace,
 * perf and bpftrace.  Unlike the kernel log lines of
 * /sys/kernel/debug/readahead/trace_enable, which are rate limited, it
 * loses nothing short of a full ring buffer.
 *
 * READAHEAD_TRACE_FMT is the text of a decision, defined here once: the
 * event prints it, mm/readahead.c's log line prints it, and so does every
 * tool that writes such lines, so that one parser (ra_analyze) reads
 * trace_pipe, trace-cmd output, dmesg and the tools' traces alike.  Its
 * arguments, in order: the pattern, pid, comm, the device's major and
 * minor and its name, the inode number, the file name, the request's
 * first page and length, the window's start, size and async size,
 * whether the window starts past the request (0 or 1), the fault's miss
 * count (", miss=N", or "" when not a fault), and the pages submitted.
 * READAHEAD_TRACE_FMT_NAME(conv) is the same text with @conv converting
 * the name: "%pD" prints it from a struct file, as the dentry has it at
 * that moment.  The event keeps READAHEAD_TRACE_NAME_LEN - 1 bytes of it.
 */
#ifndef _TRACE_READAHEAD_FORMAT
#define _TRACE_READAHEAD_FORMAT

#define READAHEAD_TRACE_FMT_NAME(conv)					\
	"readahead-%s(pid=%d(%s), dev=%02x:%02x(%s), ino=%lu(" conv "), "	\
	"req=%lu+%lu, ra=%lu+%lu-%lu, async=%d%s) = %lu"
#define READAHEAD_TRACE_FMT		READAHEAD_TRACE_FMT_NAME("%s")
#define READAHEAD_TRACE_NAME_LEN	32
#define READAHEAD_TRACE_MISS_LEN	20
#define READAHEAD_TRACE_PATTERN_LEN	16

#endif /* _TRACE_READAHEAD_FORMAT */

#undef TRACE_SYSTEM
#define TRACE_SYSTEM readahead

#if !defined(_TRACE_READAHEAD_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_READAHEAD_H

#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

TRACE_EVENT(readahead,

	TP_PROTO(const char *pattern, struct file *file, struct inode *inode,
		 pgoff_t index, unsigned long req, pgoff_t start,
		 unsigned long size, unsigned long async_size, bool fault,
		 unsigned int miss, unsigned long actual),

	TP_ARGS(pattern, file, inode, index, req, start, size, async_size,
		fault, miss, actual),

	TP_STRUCT__entry(
		__array(char, pattern, READAHEAD_TRACE_PATTERN_LEN)
		__field(pid_t, pid)
		__array(char, comm, TASK_COMM_LEN)
		__field(dev_t, dev)
		__array(char, bdev, 32)
		__field(unsigned long, ino)
		__array(char, name, READAHEAD_TRACE_NAME_LEN)
		__field(pgoff_t, index)
		__field(unsigned long, req)
		__field(pgoff_t, start)
		__field(unsigned long, size)
		__field(unsigned long, async_size)
		__array(char, miss, READAHEAD_TRACE_MISS_LEN)
		__field(unsigned long, actual)
	),

	TP_fast_assign(
		strscpy(__entry->pattern, pattern, sizeof(__entry->pattern));
		__entry->pid = task_pid_nr(current);
		memcpy(__entry->comm, current->comm, TASK_COMM_LEN);
		__entry->dev = inode->i_sb->s_dev;
		strscpy(__entry->bdev, inode->i_sb->s_id, sizeof(__entry->bdev));
		__entry->ino = inode->i_ino;
		/* %pD: a concurrent rename cannot free the name under us. */
		if (file)
			snprintf(__entry->name, sizeof(__entry->name), "%pD",
				 file);
		else
			__entry->name[0] = '\0';
		__entry->index = index;
		__entry->req = req;
		__entry->start = start;
		__entry->size = size;
		__entry->async_size = async_size;
		if (fault)
			snprintf(__entry->miss, sizeof(__entry->miss),
				 ", miss=%u", miss);
		else
			__entry->miss[0] = '\0';
		__entry->actual = actual;
	),

	TP_printk(READAHEAD_TRACE_FMT,
		  __entry->pattern, __entry->pid, __entry->comm,
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->bdev,
		  __entry->ino, __entry->name, __entry->index, __entry->req,
		  __entry->start, __entry->size, __entry->async_size,
		  __entry->start > __entry->index, __entry->miss,
		  __entry->actual)
);

#endif /* _TRACE_READAHEAD_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
