/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Harness stand-in for <trace/events/readahead.h>: the project's own
 * header (include/trace/events/readahead.h, next on the include path:
 * LIB_INCLUDES ends with the project's include/), whose events the harness's
 * <linux/tracepoint.h> turns into functions that call the registered
 * probes and print the event's TP_printk line to shim_tracepoint_sink.
 * Its snprintf() is the shim's, which knows the kernel's %pD
 * (<linux/kernel.h>).
 */
#include <linux/kernel.h>
#include_next <trace/events/readahead.h>
