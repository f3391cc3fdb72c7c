// SPDX-License-Identifier: GPL-2.0
/*
 * folio_runs.c - the folios of a read request, as one line of text.
 *
 * The harness's h_folios() and the simulator's --folios log print the
 * folios each ->readahead (or ->read_folio) is handed the same way:
 * contiguous unmarked folios of one order as one "FIRST-LAST:ORDER"
 * entry ("PAGE:ORDER" for a single page), a folio carrying PG_readahead
 * as an entry of its own, with a '*'.  Each entry goes to the caller's
 * @put as it is complete.
 */
#include "lib.h"

static void put_run(struct folio_runs *r, const char *mark,
		    void (*put)(const char *entry))
{
	char entry[64];

	if (r->next - r->first == 1)
		snprintf(entry, sizeof(entry), "%lu:%u%s", r->first, r->order,
			 mark);
	else
		snprintf(entry, sizeof(entry), "%lu-%lu:%u%s", r->first,
			 r->next - 1, r->order, mark);
	r->open = false;
	put(entry);
}

void folio_runs_add(struct folio_runs *r, struct folio *folio,
		    void (*put)(const char *entry))
{
	pgoff_t next = folio->index + folio_nr_pages(folio);
	bool marked = folio_test_readahead(folio);

	if (r->open && !marked && folio->index == r->next &&
	    folio_order(folio) == r->order) {
		r->next = next;
		return;
	}
	folio_runs_end(r, put);
	r->first = folio->index;
	r->next = next;
	r->order = folio_order(folio);
	r->open = true;
	if (marked)
		put_run(r, "*", put);
}

void folio_runs_end(struct folio_runs *r, void (*put)(const char *entry))
{
	if (r->open)
		put_run(r, "", put);
}
