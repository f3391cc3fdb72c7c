/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ra_observe.h - what the simulator makes of each readahead call.
 */
#ifndef RA_SIM_RA_OBSERVE_H
#define RA_SIM_RA_OBSERVE_H

#include "sim.h"

/* Set as ra_call_observer for a run. */
extern const struct ra_call_observer sim_observer;
extern FILE *ra_trace_file;
/* The implementation prints its own trace lines (ours does). */
extern bool ra_real_trace;

/* Decisions by the pattern ra_observe.c infers from the window left. */
#define RA_INFERRED_MAX	12
struct ra_inferred {
	const char *pattern;
	uint64_t calls, io, size, io_size;
};
extern struct ra_inferred ra_inferred[RA_INFERRED_MAX];
extern unsigned int nr_inferred;
extern int ra_cur_pid;
extern const char *ra_cur_comm;

int ra_call_fadvise(struct file *file, loff_t offset, loff_t len,
		    int advice);

#endif
