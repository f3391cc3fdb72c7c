// SPDX-License-Identifier: GPL-2.0
/*
 * elv-mq-deadline.c - 6.1's mq-deadline, for reads.
 *
 * Requests are kept in sector order and in arrival order.  A batch runs
 * in ascending sector order from the last dispatched request, up to
 * fifo_batch requests; a batch ends early when no request lies ahead.
 * A new batch starts at the oldest request if it has waited read_expire
 * or if nothing lies ahead of the last dispatch, else it goes on ahead.
 * No per-process queues, no idling: whoever submitted the request, the
 * disk never waits.  Writes (write_expire, writes_starved) do not occur
 * in the simulator and are not modelled.
 */
#include "elevator.h"

enum { DL_READ_EXPIRE, DL_FIFO_BATCH, DL_FRONT_MERGES };

static const struct elv_tunable dl_tunables[] = {
	[DL_READ_EXPIRE] = { "read_expire", 500, 1, 60000, "ms" },
	[DL_FIFO_BATCH] = { "fifo_batch", 16, 1, 1024, "requests" },
	[DL_FRONT_MERGES] = { "front_merges", 1, 0, 1, "0 or 1" },
};

struct dl_data {
	uint64_t next_pos;	/* sector after the last dispatch */
	bool have_next;		/* a batch is running */
	unsigned int batching;
};

static void dl_init(struct disk *d)
{
	d->elv_data = sim_alloc(sizeof(struct dl_data));
	*(struct dl_data *)d->elv_data = (struct dl_data){ 0 };
}

static void dl_exit(struct disk *d)
{
	free(d->elv_data);
	d->elv_data = NULL;
}

/* The first request at or after @pos in sector order, no wrap. */
static struct blk_request *dl_ahead(struct disk *d, uint64_t pos)
{
	struct blk_request *r, *best = NULL;

	for (r = d->queue; r; r = r->next)
		if (r->sector >= pos && (!best || r->sector < best->sector))
			best = r;
	return best;
}

static struct blk_request *dl_next(struct disk *d)
{
	struct dl_data *dd = d->elv_data;
	struct blk_request *rq = NULL, *old;

	if (!d->queue)
		return NULL;
	if (dd->have_next && dd->batching < elv_tun(d, DL_FIFO_BATCH))
		rq = dl_ahead(d, dd->next_pos);
	if (!rq) {
		old = elv_oldest(d, NULL);
		if (old->queued_at + elv_ms(d, DL_READ_EXPIRE) <= sim_now ||
		    !dd->have_next)
			rq = old;
		else
			rq = dl_ahead(d, dd->next_pos);
		if (!rq)
			rq = old;
		dd->batching = 0;
	}
	dd->batching++;
	dd->have_next = true;
	dd->next_pos = rq->sector + rq->nsect;
	return rq;
}

static bool dl_allow_merge(struct disk *d, struct blk_request *rq, int pid,
			   bool front)
{
	(void)rq;
	(void)pid;
	return !front || elv_tun(d, DL_FRONT_MERGES);
}

const struct elevator_type elv_mq_deadline = {
	.name = "mq-deadline",
	.tunables = dl_tunables,
	.nr_tunables = ELV_NR(dl_tunables),
	.init = dl_init,
	.exit = dl_exit,
	.allow_merge = dl_allow_merge,
	.next = dl_next,
};
