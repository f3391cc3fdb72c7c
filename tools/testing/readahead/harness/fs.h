/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fs.h - between the harness's filesystem (fs.c) and its logs
 * (harness.c): what the filesystem reports as it reads.
 */
#ifndef RA_HARNESS_FS_H
#define RA_HARNESS_FS_H

#include "harness.h"

/* The logs' observer of readahead calls, set when a file is opened. */
extern const struct ra_call_observer h_observer;
/* A request of @nr pages from @first; @marked carries PG_readahead. */
void h_log_io(struct address_space *mapping, pgoff_t first,
	      unsigned long nr, pgoff_t marked, bool single);
/* A folio of the request being read, then the request's end. */
void h_log_folio(struct folio *folio);
void h_log_folios_end(void);
/* Are reads held in flight (h_hold_reads())? */
bool h_reads_held(void);

#endif /* RA_HARNESS_FS_H */
