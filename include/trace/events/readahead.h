/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The readahead tracepoint: one event per readahead decision, with the
 * fields of the debugfs trace line, for ftrace, perf and bpftrace.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM readahead

#if !defined(_TRACE_READAHEAD_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_READAHEAD_H

#include <linux/tracepoint.h>

TRACE_EVENT(readahead,

	TP_PROTO(const char *pattern, dev_t dev, unsigned long ino,
		 pgoff_t index, unsigned long req, pgoff_t start,
		 unsigned long size, unsigned long async_size, bool fault,
		 unsigned long actual),

	TP_ARGS(pattern, dev, ino, index, req, start, size, async_size, fault,
		actual),

	TP_STRUCT__entry(
		__string(pattern, pattern)
		__field(dev_t, dev)
		__field(unsigned long, ino)
		__field(pgoff_t, index)
		__field(unsigned long, req)
		__field(pgoff_t, start)
		__field(unsigned long, size)
		__field(unsigned long, async_size)
		__field(bool, fault)
		__field(unsigned long, actual)
	),

	TP_fast_assign(
		__assign_str(pattern, pattern);
		__entry->dev = dev;
		__entry->ino = ino;
		__entry->index = index;
		__entry->req = req;
		__entry->start = start;
		__entry->size = size;
		__entry->async_size = async_size;
		__entry->fault = fault;
		__entry->actual = actual;
	),

	TP_printk("%s dev=%02x:%02x ino=%lu req=%lu+%lu ra=%lu+%lu-%lu async=%d fault=%d actual=%lu",
		  __get_str(pattern), MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->ino, __entry->index, __entry->req, __entry->start,
		  __entry->size, __entry->async_size,
		  __entry->start > __entry->index, __entry->fault,
		  __entry->actual)
);

#endif /* _TRACE_READAHEAD_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
