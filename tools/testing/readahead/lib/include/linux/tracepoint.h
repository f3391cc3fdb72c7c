/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Harness stand-in for <linux/tracepoint.h>: each event of TRACE_EVENT or
 * DEFINE_EVENT becomes a function trace_name() that calls the probes
 * registered with register_trace_name() (as the kernel calls them: data
 * first, then the event's arguments) and, while shim_tracepoint_sink is
 * set, fills the event's fields with its own TP_fast_assign and prints
 * its own TP_printk, as trace_pipe would show it, through
 * shim_tracepoint_print() (see shim_debugfs.h).  While no event has
 * either, each costs one test inline (shim_tracepoints_live), as a static
 * key does in a kernel without jump labels (with them, a no-op), and the
 * rest is out of line: the CPU bench counts about what a distribution
 * kernel runs with its tracepoints built and off.  There is no ring buffer:
 * the fields live on the stack for the time of the print.  Each event's
 * probes are a weak global, __tracepoint_name, so that every file that
 * includes the events shares them, as the kernel's files share the one
 * CREATE_TRACE_POINTS defines.
 */
#ifndef RA_SHIM_TRACEPOINT_H
#define RA_SHIM_TRACEPOINT_H

#include "../shim.h"

#define SHIM_TP_STRING_LEN	64
#define SHIM_TP_MAX_PROBES	4

typedef void (*shim_tp_fn)(void);

struct shim_tracepoint {
	unsigned int nr_probes;
	struct {
		shim_tp_fn fn;
		void *data;
	} probes[SHIM_TP_MAX_PROBES];
};

/* 0, -EEXIST for a probe already there, -ENOMEM when all slots are used. */
int shim_tracepoint_register(struct shim_tracepoint *tp, shim_tp_fn fn,
			     void *data);
/* 0, or -ENOENT for a probe not registered. */
int shim_tracepoint_unregister(struct shim_tracepoint *tp, shim_tp_fn fn,
			       void *data);

/* __print_symbolic(): the name of @value in @syms, else "0x..." as ftrace. */
struct shim_trace_sym {
	unsigned long value;
	const char *name;
};

const char *shim_print_symbolic(unsigned long value,
				const struct shim_trace_sym *syms);

#define PARAMS(args...)			args
#define TP_PROTO(args...)		args
#define TP_ARGS(args...)		args
#define TP_STRUCT__entry(args...)	args
#define TP_fast_assign(args...)		args
#define TP_printk(fmt, args...)		fmt, ##args

#define __field(type, item)		type item;
#define __array(type, item, len)	type item[len];
#define __string(item, src)		char item[SHIM_TP_STRING_LEN];
#define __assign_str(dst, src)						\
	strscpy(__entry->dst, (src), sizeof(__entry->dst))
#define __get_str(field)		((const char *)__entry->field)
#define __print_symbolic(value, syms...)				\
	shim_print_symbolic((unsigned long)(value),			\
			    (const struct shim_trace_sym[]){ syms, { 0, NULL } })

/* The value must be an enumerator in scope; user space gets nothing. */
#define TRACE_DEFINE_ENUM(a)	_Static_assert((a) == (a), #a)

/* An event class: its fields, and a function that prints an event of it. */
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)	\
	struct shim_trace_entry_##name {				\
		tstruct							\
	};								\
	static inline void shim_trace_show_##name(const char *event, proto) \
	{								\
		struct shim_trace_entry_##name entry;			\
		struct shim_trace_entry_##name *__entry = &entry;	\
									\
		{ assign }						\
		shim_tracepoint_print(event, print);			\
	}

/* A tracepoint's probes and how to (un)register and call them. */
#define SHIM_DECLARE_TRACE(name, proto, args)				\
	__attribute__((weak)) struct shim_tracepoint __tracepoint_##name; \
	static inline int						\
	register_trace_##name(void (*probe)(void *__data, proto), void *data) \
	{								\
		return shim_tracepoint_register(&__tracepoint_##name,	\
						(shim_tp_fn)probe, data); \
	}								\
	static inline int						\
	unregister_trace_##name(void (*probe)(void *__data, proto), void *data) \
	{								\
		return shim_tracepoint_unregister(&__tracepoint_##name,	\
						  (shim_tp_fn)probe, data); \
	}								\
	static inline void shim_trace_probes_##name(proto)		\
	{								\
		unsigned int __i;					\
									\
		for (__i = 0; __i < SHIM_TP_MAX_PROBES; __i++) {	\
			void (*__fn)(void *, proto) = (void (*)(void *, proto)) \
				__tracepoint_##name.probes[__i].fn;	\
									\
			if (__fn)					\
				__fn(__tracepoint_##name.probes[__i].data, args); \
		}							\
	}

/*
 * The event: a test inline, where the kernel has its static key, and
 * the probes and the print out of line, as the kernel's __traceiter.
 */
#define DEFINE_EVENT(template, name, proto, args)			\
	SHIM_DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))		\
	static noinline void shim_trace_fire_##name(proto)		\
	{								\
		if (__tracepoint_##name.nr_probes)			\
			shim_trace_probes_##name(args);			\
		if (shim_tracepoint_sink)				\
			shim_trace_show_##template(#name, args);	\
	}								\
	static __always_inline void trace_##name(proto)		\
	{								\
		if (unlikely(shim_tracepoints_live))			\
			shim_trace_fire_##name(args);			\
	}

/*
 * An event of the kernel's own that the harness fires for probes only
 * (the page cache's: <trace/events/filemap.h>), never printed: the
 * tests' traces hold the readahead events alone.
 */
#define SHIM_PROBE_EVENT(name, proto, args)				\
	SHIM_DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))		\
	static __always_inline void trace_##name(proto)		\
	{								\
		if (unlikely(__tracepoint_##name.nr_probes))		\
			shim_trace_probes_##name(args);			\
	}

/* Probes that were running when they were unregistered: none here. */
static inline void tracepoint_synchronize_unregister(void) { }

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print)) \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))

#endif /* RA_SHIM_TRACEPOINT_H */
