// SPDX-License-Identifier: GPL-2.0
/*
 * elv-sort.c - the "sort" scheduler: a one-way scan (the simulator's
 * first elevator, kept as its default).
 *
 * The waiting request at or after the head with the lowest sector, else
 * the lowest: no fairness between processes, no deadlines, no idling.
 */
#include "elevator.h"

static struct blk_request *sort_next(struct disk *d)
{
	return elv_next_in_order(d, d->mech.head, NULL);
}

const struct elevator_type elv_sort = {
	.name = "sort",
	.next = sort_next,
};
