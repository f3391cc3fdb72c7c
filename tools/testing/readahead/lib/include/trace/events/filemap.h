/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Harness stand-in for <trace/events/filemap.h>: 6.12's page cache events
 * that mm/readahead_outcome.c follows, with the kernel's prototypes, for
 * probes only (SHIM_PROBE_EVENT).  The page cache (pagecache.c, the
 * simulator's cache.c) fires the arrival and departure of a folio, the
 * read and fault paths (harness.c, the simulator's reader.c) the accesses,
 * where 6.12's mm/filemap.c fires them.
 */
#ifndef RA_SHIM_TRACE_FILEMAP_H
#define RA_SHIM_TRACE_FILEMAP_H

#include <linux/tracepoint.h>

SHIM_PROBE_EVENT(mm_filemap_add_to_page_cache,
		 TP_PROTO(struct folio *folio), TP_ARGS(folio))
SHIM_PROBE_EVENT(mm_filemap_delete_from_page_cache,
		 TP_PROTO(struct folio *folio), TP_ARGS(folio))
SHIM_PROBE_EVENT(mm_filemap_get_pages,
		 TP_PROTO(struct address_space *mapping, pgoff_t index,
			  pgoff_t last_index),
		 TP_ARGS(mapping, index, last_index))
SHIM_PROBE_EVENT(mm_filemap_map_pages,
		 TP_PROTO(struct address_space *mapping, pgoff_t index,
			  pgoff_t last_index),
		 TP_ARGS(mapping, index, last_index))
SHIM_PROBE_EVENT(mm_filemap_fault,
		 TP_PROTO(struct address_space *mapping, pgoff_t index),
		 TP_ARGS(mapping, index))

#endif /* RA_SHIM_TRACE_FILEMAP_H */
