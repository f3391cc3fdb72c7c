/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Harness stand-in for <trace/define_trace.h>: <linux/tracepoint.h>
 * already made each TRACE_EVENT a function; there is nothing to define.
 */
