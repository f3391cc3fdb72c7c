/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ra_observe.h - the simulated kernel's calls into the readahead code.
 */
#ifndef RA_SIM_RA_OBSERVE_H
#define RA_SIM_RA_OBSERVE_H

#include "sim.h"

extern const struct ra_impl *sim_impl;
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

void ra_call_sync(struct file *file, pgoff_t index, unsigned long req);
void ra_call_async(struct file *file, struct folio *folio,
		   unsigned long req);
/* A fault: the async entry point with the folio found, else the sync. */
void ra_call_fault(struct vm_fault *vmf, struct folio *folio);
int ra_call_fadvise(struct file *file, loff_t offset, loff_t len,
		    int advice);

#endif
