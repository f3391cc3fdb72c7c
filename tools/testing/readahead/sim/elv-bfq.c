// SPDX-License-Identifier: GPL-2.0
/*
 * elv-bfq.c - BFQ as 6.1 runs it on a rotational disk, for reads.
 *
 * Each process has its own queue; the queue in service dispatches until
 * it has used its budget (max_budget sectors), or timeout_sync has passed
 * since it got the disk, or it runs dry and idling does not pay.  Within
 * a queue: the oldest request once per service if it has waited
 * fifo_expire_sync, else the nearest to the last position (forward, or
 * backward within back_seek_max at back_seek_penalty times the
 * distance).  A dry queue is idled on for slice_idle when its process
 * is not seeky (at most 4 of its last 32 requests more than 800 sectors
 * from the one before) and its think time is short (mean at most
 * slice_idle).  Early queue merging: a process whose new request lies
 * within 8192 sectors of where the queue in service last dispatched,
 * while its own queue is younger than 100 ms of service, joins that queue
 * for good (interleaved readers of one file become one stream).  With
 * equal weights the service order is round robin; weight raising
 * (low_latency) and cgroups are not modelled.
 *
 * On a disk taking several requests (queue_depth) the queue in service
 * sends as many as the disk takes; a dry queue whose process would not
 * be idled on expires at once, its requests still on the disk, and the
 * next queue's go behind them; one that would be idled on is kept, the
 * disk getting nothing more, until its last request completes, then the
 * idle starts.  Injection of other queues' requests during the idle
 * (bfq_choose_bfqq_for_injection()) is not modelled: on a rotational
 * disk idling boosts throughput and 6.1 injects nothing then.
 */
#include "elevator.h"

enum { BFQ_SLICE_IDLE, BFQ_TIMEOUT_SYNC, BFQ_MAX_BUDGET,
       BFQ_FIFO_EXPIRE_SYNC, BFQ_BACK_SEEK_MAX, BFQ_BACK_SEEK_PENALTY };

static const struct elv_tunable bfq_tunables[] = {
	[BFQ_SLICE_IDLE] = { "slice_idle", 8, 0, 1000, "ms" },
	[BFQ_TIMEOUT_SYNC] = { "timeout_sync", 125, 1, 10000, "ms" },
	[BFQ_MAX_BUDGET] = { "max_budget", 16384, 8, 1048576, "sectors" },
	[BFQ_FIFO_EXPIRE_SYNC] = { "fifo_expire_sync", 125, 1, 60000, "ms" },
	[BFQ_BACK_SEEK_MAX] = { "back_seek_max", 16384, 0, 1048576, "KB" },
	[BFQ_BACK_SEEK_PENALTY] = { "back_seek_penalty", 2, 1, 1000,
				    "times" },
};

#define BFQ_SEEK_THR		800		/* sectors */
#define BFQ_CLOSE_THR		(8 * 1024)	/* sectors */
#define BFQ_MERGE_TIME		(100 * NS_PER_MS)

struct bfq_data {
	struct pq_service sv;
	simtime_t service_start;
};

static void bfq_init(struct disk *d)
{
	struct bfq_data *bd = sim_alloc(sizeof(*bd));

	*bd = (struct bfq_data){ 0 };
	d->elv_data = bd;
}

static void bfq_exit(struct disk *d)
{
	struct bfq_data *bd = d->elv_data;

	pq_free_all(&bd->sv.pqs);
	free(bd);
	d->elv_data = NULL;
}

static bool bfq_seeky(const struct proc_queue *pq)
{
	return __builtin_popcount(pq->seek_history) > 32 / 8;
}

static void bfq_set_active(struct bfq_data *bd, struct proc_queue *pq)
{
	bd->sv.active = pq;
	bd->service_start = sim_now;
	bd->sv.fifo_checked = false;
	pq->served = 0;
	if (!pq->first_service)
		pq->first_service = sim_now + 1;
}

static void bfq_expire(struct disk *d, struct bfq_data *bd)
{
	struct proc_queue *pq = bd->sv.active;

	pq_idle_stop(d, &bd->sv);
	bd->sv.active = NULL;
	if (pq->queued)
		pq_rr_add(&bd->sv.pqs, pq, false);
}

static bool bfq_young(const struct proc_queue *pq)
{
	return !pq->first_service ||
	       sim_now < pq->first_service - 1 + BFQ_MERGE_TIME;
}

/* bfq_setup_cooperator(): @pq's process joins the queue in service. */
static struct proc_queue *bfq_cooperator(struct disk *d,
					 struct bfq_data *bd,
					 struct proc_queue *pq,
					 uint64_t sector)
{
	struct proc_queue *act = bd->sv.active;
	uint64_t dist;

	if (!act || act == pq || !bfq_young(pq))
		return pq;
	dist = sector > bd->sv.last_position ? sector - bd->sv.last_position :
					     bd->sv.last_position - sector;
	if (dist > BFQ_CLOSE_THR)
		return pq;
	pq->merged_into = act;
	d->st.merges_queues++;
	return act;
}

static bool bfq_allow_merge(struct disk *d, struct blk_request *rq, int pid,
			    bool front)
{
	struct bfq_data *bd = d->elv_data;

	(void)front;
	return rq->elv_priv == pq_get(&bd->sv.pqs, pid);
}

static void bfq_add(struct disk *d, struct blk_request *rq)
{
	struct bfq_data *bd = d->elv_data;
	struct proc_queue *pq = pq_get(&bd->sv.pqs, rq->pid);
	uint64_t dist;

	pq = bfq_cooperator(d, bd, pq, rq->sector);
	rq->elv_priv = pq;
	pq_update_ttime(pq, 2 * elv_ms(d, BFQ_SLICE_IDLE));
	dist = rq->sector > pq->last_pos ? rq->sector - pq->last_pos :
					   pq->last_pos - rq->sector;
	pq->seek_history = pq->seek_history << 1 |
			   (pq->last_pos && dist > BFQ_SEEK_THR);
	pq->last_pos = rq->sector + rq->nsect;
	pq->idle_window = !(PQ_SAMPLE_VALID(pq->ttime_samples) &&
			    pq->ttime_mean > elv_ms(d, BFQ_SLICE_IDLE));
	pq->queued++;
	if (pq != bd->sv.active)
		pq_rr_add(&bd->sv.pqs, pq, false);
}

static struct blk_request *bfq_next(struct disk *d)
{
	struct bfq_data *bd = d->elv_data;
	struct proc_queue *pq;
	struct blk_request *rq;

	for (;;) {
		pq = bd->sv.active;
		if (!pq) {
			pq = pq_rr_pop(&bd->sv.pqs);
			if (!pq)
				return NULL;
			bfq_set_active(bd, pq);
		}
		if (pq->served >= elv_tun(d, BFQ_MAX_BUDGET) ||
		    sim_now >= bd->service_start +
			       elv_ms(d, BFQ_TIMEOUT_SYNC)) {
			bfq_expire(d, bd);
			continue;
		}
		if (pq->queued) {
			pq_idle_stop(d, &bd->sv);
			rq = pq_choose(d, &bd->sv, pq,
				       elv_ms(d, BFQ_FIFO_EXPIRE_SYNC),
				       (uint64_t)elv_tun(d, BFQ_BACK_SEEK_MAX) * 2,
				       (uint64_t)elv_tun(d, BFQ_BACK_SEEK_PENALTY));
			pq->queued--;
			pq->dispatched++;
			pq->served += rq->nsect;
			bd->sv.last_position = rq->sector + rq->nsect;
			return rq;
		}
		if (bd->sv.idle_until) {
			if (sim_now < bd->sv.idle_until)
				return NULL;
			bfq_expire(d, bd);
			continue;
		}
		if (!elv_tun(d, BFQ_SLICE_IDLE) || !pq->idle_window ||
		    bfq_seeky(pq)) {
			bfq_expire(d, bd);
			continue;
		}
		/*
		 * A disk taking several requests: the dry queue is kept
		 * while its requests are on the disk, the idle starting at
		 * its last completion (6.1's bfq_select_queue() keeps it
		 * when bfq_better_to_idle(); bfq_completed_request() arms
		 * the timer when none is left in flight).
		 */
		if (pq->dispatched)
			return NULL;
		pq_idle_start(d, &bd->sv, elv_ms(d, BFQ_SLICE_IDLE));
		return NULL;
	}
}

const struct elevator_type elv_bfq = {
	.name = "bfq",
	.tunables = bfq_tunables,
	.nr_tunables = ELV_NR(bfq_tunables),
	.init = bfq_init,
	.exit = bfq_exit,
	.allow_merge = bfq_allow_merge,
	.add = bfq_add,
	.next = bfq_next,
	.completed = pq_completed,
};
