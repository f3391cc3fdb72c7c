/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Harness stand-in for <linux/tracepoint.h>: TRACE_EVENT(name, ...)
 * becomes a function trace_name() that fills the event's fields with the
 * event's own TP_fast_assign and prints its own TP_printk, as trace_pipe
 * would show it, through shim_tracepoint_print() (see shim_debugfs.h).
 * The event is enabled while shim_tracepoint_sink is set.  Strings are
 * kept in fixed arrays; there is no ring buffer.
 */
#ifndef RA_SHIM_TRACEPOINT_H
#define RA_SHIM_TRACEPOINT_H

#include "../shim.h"

#define SHIM_TP_STRING_LEN	64

#define TP_PROTO(...)		__VA_ARGS__
#define TP_ARGS(...)		__VA_ARGS__
#define TP_STRUCT__entry(...)	__VA_ARGS__
#define TP_fast_assign(...)	__VA_ARGS__
#define TP_printk(fmt, ...)	fmt, ##__VA_ARGS__

#define __field(type, item)		type item;
#define __array(type, item, len)	type item[len];
#define __string(item, src)		char item[SHIM_TP_STRING_LEN];
#define __assign_str(dst, src)						\
	strscpy(__entry->dst, (src), sizeof(__entry->dst))
#define __get_str(field)		((const char *)__entry->field)

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	struct shim_trace_entry_##name {				\
		tstruct							\
	};								\
	static inline void trace_##name(proto)				\
	{								\
		struct shim_trace_entry_##name entry;			\
		struct shim_trace_entry_##name *__entry = &entry;	\
									\
		if (!shim_tracepoint_sink)				\
			return;						\
		{ assign }						\
		shim_tracepoint_print(#name, print);			\
	}

#endif /* RA_SHIM_TRACEPOINT_H */
