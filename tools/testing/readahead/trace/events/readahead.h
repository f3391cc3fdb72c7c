/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Harness stand-in for <trace/events/readahead.h>: the harness has no
 * ftrace, so the tracepoint does nothing (the debugfs trace line, which
 * carries the same fields, is what the harness checks).
 */
#include "../../shim.h"

static inline void trace_readahead(const char *pattern, dev_t dev,
				   unsigned long ino, pgoff_t index,
				   unsigned long req, pgoff_t start,
				   unsigned long size, unsigned long async_size,
				   bool fault, unsigned long actual)
{
}
