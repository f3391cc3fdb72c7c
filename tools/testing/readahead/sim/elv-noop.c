// SPDX-License-Identifier: GPL-2.0
/*
 * elv-noop.c - the "noop" scheduler (6.1: "none"): arrival order.
 */
#include "elevator.h"

static struct blk_request *noop_next(struct disk *d)
{
	return d->queue;
}

const struct elevator_type elv_noop = {
	.name = "noop",
	.next = noop_next,
};
