// SPDX-License-Identifier: GPL-2.0
/*
 * elv-cfq.c - CFQ as 2.6.30 ran it (its default scheduler), for reads.
 *
 * Each process has its own queue.  The queues with requests wait on a
 * round-robin list; the head becomes active for a time slice (slice_sync,
 * started at its first dispatch) and only its requests are dispatched:
 * once per slice the oldest if it has waited fifo_expire_sync, else the
 * nearest to the last position (forward, or backward within
 * back_seek_max at back_seek_penalty times the distance).  When the
 * active queue runs dry the disk idles for slice_idle (2 ms for a seeky
 * process), waiting for that process's next request, unless its think
 * time (the decaying mean of the gaps between its last completion and
 * its next request) exceeds slice_idle or the rest of the slice.  A
 * request of another process that lies close to the last position (within
 * the active process's mean seek distance, 8192 sectors before it has a
 * mean) preempts an idling queue.  A queue whose slice ends with requests
 * goes to the back of the list.  All reads are synchronous; one priority
 * level.
 *
 * Close cooperators, as commit a36e71f9 ("cfq-iosched: add close
 * cooperator code", April 2009, in 2.6.30) added them.  Whenever the
 * active queue has no request waiting and its slice is not used up -
 * right after its last one is dispatched (2.6.30's request_fn asks for
 * the next request before the disk is free), when another process's
 * request arrives, and when the disk would idle - cfq_select_queue()
 * looks for another queue whose next request is close to the last
 * position (the preemption's test: within the active process's mean seek
 * distance, 8192 sectors without a mean; no queue is excluded for being
 * seeky, a seeky process's large mean just reaches further) and, if there
 * is one, ends the active slice and serves that queue instead of idling
 * or waiting.  2.6.30 finds it in an rb-tree of the busy queues keyed by
 * the sector of each one's next request: the queue at exactly the last
 * position, else one neighbour of that position, then the other, the
 * first that is close.  The queue taken is marked "coop" and cannot jump
 * ahead again while marked; the mark is cleared when the queue next gets
 * its turn from the round-robin list (or by preemption).  Here a queue's
 * next request is the one the choice above prefers from the last
 * position (2.6.30 keeps the one it preferred from the position at each
 * arrival); of two neighbours the nearer is tried first (the kernel
 * tries first the one the tree's shape puts first: they differ only when
 * both are close); and of queues whose next requests start at one sector
 * only the one whose request arrived first is seen (the tree holds one
 * queue per sector).  cfq_arm_slice_timer()'s test (no idle when a
 * cooperator exists and the process's think time exceeds 2 jiffies) is
 * not modelled: cfq_select_queue() takes the cooperator right after, so
 * the test decides only whether a timer is armed and deleted at once.
 * The merging of cooperating queues came in 2.6.33 and is not modelled.
 *
 * On a disk taking several requests (queue_depth), the active queue
 * sends up to CFQ_QUANTUM of them at once while other queues wait (2.6.30's
 * cfq_quantum; alone, it sends as many as the disk takes), and a dry one
 * that would be idled on keeps the disk until its last completion, when
 * the idle starts; hw_tag detection is not modelled (the disk's depth
 * is known).
 */
#include "elevator.h"

#include <string.h>

enum { CFQ_SLICE_SYNC, CFQ_SLICE_IDLE, CFQ_FIFO_EXPIRE_SYNC,
       CFQ_BACK_SEEK_MAX, CFQ_BACK_SEEK_PENALTY };

static const struct elv_tunable cfq_tunables[] = {
	[CFQ_SLICE_SYNC] = { "slice_sync", 100, 1, 10000, "ms" },
	[CFQ_SLICE_IDLE] = { "slice_idle", 8, 0, 1000, "ms" },
	[CFQ_FIFO_EXPIRE_SYNC] = { "fifo_expire_sync", 125, 1, 60000, "ms" },
	[CFQ_BACK_SEEK_MAX] = { "back_seek_max", 16384, 0, 1048576, "KB" },
	[CFQ_BACK_SEEK_PENALTY] = { "back_seek_penalty", 2, 1, 1000,
				    "times" },
};

#define CFQ_SEEK_THR		(8 * 1024)	/* sectors */
#define CFQ_SEEKY_IDLE		(2 * NS_PER_MS)
/* cfq_quantum: requests the active queue may have on the disk */
#define CFQ_QUANTUM		4

struct cfq_data {
	struct pq_service sv;
	simtime_t slice_end;		/* 0: no dispatch in this slice yet */
	bool *coop;			/* per queue (sv.pqs.q[i]): jumped ahead */
	unsigned int coop_cap;
};

static void cfq_init(struct disk *d)
{
	struct cfq_data *cd = sim_alloc(sizeof(*cd));

	*cd = (struct cfq_data){ 0 };
	d->elv_data = cd;
}

static void cfq_exit(struct disk *d)
{
	struct cfq_data *cd = d->elv_data;

	pq_free_all(&cd->sv.pqs);
	free(cd->coop);
	free(cd);
	d->elv_data = NULL;
}

static bool cfq_seeky(const struct proc_queue *pq)
{
	return PQ_SAMPLE_VALID(pq->seek_samples) &&
	       pq->seek_mean > CFQ_SEEK_THR;
}

static void cfq_set_active(struct cfq_data *cd, struct proc_queue *pq)
{
	cd->sv.active = pq;
	cd->slice_end = 0;
	cd->sv.fifo_checked = false;
}

static void cfq_expire(struct disk *d, struct cfq_data *cd)
{
	struct proc_queue *pq = cd->sv.active;

	pq_idle_stop(d, &cd->sv);
	cd->sv.active = NULL;
	if (pq->queued)
		pq_rr_add(&cd->sv.pqs, pq, false);
}

static bool cfq_rq_close(const struct cfq_data *cd,
			 const struct blk_request *rq)
{
	const struct proc_queue *act = cd->sv.active;
	uint64_t sdist = CFQ_SEEK_THR, dist;

	if (PQ_SAMPLE_VALID(act->seek_samples))
		sdist = act->seek_mean;
	dist = rq->sector > cd->sv.last_position ?
	       rq->sector - cd->sv.last_position : cd->sv.last_position - rq->sector;
	return dist <= sdist;
}

/* 2.6.30's cfq_cfqq_coop flag of @pq. */
static bool *cfq_coop(struct cfq_data *cd, const struct proc_queue *pq)
{
	struct proc_queues *t = &cd->sv.pqs;
	unsigned int i, old = cd->coop_cap;

	if (cd->coop_cap < t->nr) {
		cd->coop_cap = t->cap;
		cd->coop = realloc(cd->coop, cd->coop_cap * sizeof(*cd->coop));
		if (!cd->coop)
			sim_die("sim: out of host memory");
		memset(cd->coop + old, 0, (cd->coop_cap - old) * sizeof(*cd->coop));
	}
	for (i = 0; t->q[i] != pq; i++)
		;
	return &cd->coop[i];
}

/* @pq's request CFQ would choose next from the last position. */
static struct blk_request *cfq_next_rq(struct disk *d, struct cfq_data *cd,
				       struct proc_queue *pq)
{
	struct pq_service probe = cd->sv;

	probe.fifo_checked = true;
	return pq_choose(d, &probe, pq, 0,
			 (uint64_t)elv_tun(d, CFQ_BACK_SEEK_MAX) * 2,
			 (uint64_t)elv_tun(d, CFQ_BACK_SEEK_PENALTY));
}

/* Does @rq's queue take @n's place in the tree of next requests? */
static bool cfq_key_before(const struct blk_request *rq,
			   const struct blk_request *n, uint64_t pos)
{
	if (!n)
		return true;
	if (rq->sector != n->sector)
		return rq->sector < pos ? rq->sector > n->sector :
					  rq->sector < n->sector;
	/* One queue per sector: the one whose request came first. */
	return rq->queued_at < n->queued_at;
}

/*
 * cfqq_close(): the busy queue whose next request starts at the last
 * position, else of the two whose next requests are its neighbours below
 * and above, the nearer if close, else the other if close.
 */
static struct proc_queue *cfq_close_queue(struct disk *d,
					  struct cfq_data *cd)
{
	struct blk_request *at = NULL, *below = NULL, *above = NULL;
	struct blk_request *rq, **slot, *first, *second;
	uint64_t pos = cd->sv.last_position;
	struct proc_queue *pq;
	unsigned int i;

	for (i = 0; i < cd->sv.pqs.nr; i++) {
		pq = cd->sv.pqs.q[i];
		if (pq == cd->sv.active || !pq->queued)
			continue;
		rq = cfq_next_rq(d, cd, pq);
		slot = rq->sector == pos ? &at :
		       rq->sector < pos ? &below : &above;
		if (cfq_key_before(rq, *slot, pos))
			*slot = rq;
	}
	if (at)
		return at->elv_priv;
	first = above;
	second = below;
	if (below && (!above || pos - below->sector < above->sector - pos)) {
		first = below;
		second = above;
	}
	if (first && cfq_rq_close(cd, first))
		return first->elv_priv;
	if (second && cfq_rq_close(cd, second))
		return second->elv_priv;
	return NULL;
}

/*
 * cfq_close_cooperator(): a close queue that has not jumped ahead since
 * its last turn, which may now (marked).  The active slice ends and that
 * queue's begins.
 */
static bool cfq_take_cooperator(struct disk *d, struct cfq_data *cd)
{
	struct proc_queue *pq;
	bool *coop;

	if (cd->slice_end && sim_now >= cd->slice_end)
		return false;
	pq = cfq_close_queue(d, cd);
	if (!pq)
		return false;
	coop = cfq_coop(cd, pq);
	if (*coop)
		return false;
	*coop = true;
	cfq_expire(d, cd);
	pq_rr_del(&cd->sv.pqs, pq);
	cfq_set_active(cd, pq);
	return true;
}

static bool cfq_allow_merge(struct disk *d, struct blk_request *rq, int pid,
			    bool front)
{
	struct cfq_data *cd = d->elv_data;

	(void)front;
	return rq->elv_priv == pq_get(&cd->sv.pqs, pid);
}

static void cfq_add(struct disk *d, struct blk_request *rq)
{
	struct cfq_data *cd = d->elv_data;
	struct proc_queue *pq = pq_get(&cd->sv.pqs, rq->pid);
	double idle = elv_tun(d, CFQ_SLICE_IDLE);

	rq->elv_priv = pq;
	pq_update_ttime(pq, 2 * elv_ms(d, CFQ_SLICE_IDLE));
	pq_update_seek(pq, rq->sector);
	pq->last_pos = rq->sector + rq->nsect;
	if (!idle)
		pq->idle_window = false;
	else if (PQ_SAMPLE_VALID(pq->ttime_samples))
		pq->idle_window = pq->ttime_mean <= elv_ms(d, CFQ_SLICE_IDLE);
	pq->queued++;
	if (pq == cd->sv.active)
		return;
	if (cd->sv.active && cd->sv.idle_until && cfq_rq_close(cd, rq)) {
		/* As good as what the idling process would send: take it. */
		d->st.preempts++;
		cfq_expire(d, cd);
		pq_rr_del(&cd->sv.pqs, pq);
		cfq_set_active(cd, pq);
		/* It gets its turn from the front of the list. */
		*cfq_coop(cd, pq) = false;
		return;
	}
	pq_rr_add(&cd->sv.pqs, pq, false);
	/* The queue is run: a dry active queue may give way to a cooperator. */
	if (cd->sv.active && !cd->sv.active->queued)
		cfq_take_cooperator(d, cd);
}

static bool cfq_may_idle(struct disk *d, struct cfq_data *cd,
			 struct proc_queue *pq)
{
	if (!elv_tun(d, CFQ_SLICE_IDLE) || !pq->idle_window)
		return false;
	return !(PQ_SAMPLE_VALID(pq->ttime_samples) &&
		 cd->slice_end - sim_now < pq->ttime_mean);
}

static struct blk_request *cfq_next(struct disk *d)
{
	struct cfq_data *cd = d->elv_data;
	struct proc_queue *pq;
	struct blk_request *rq;
	simtime_t idle;

	for (;;) {
		pq = cd->sv.active;
		if (!pq) {
			pq = pq_rr_pop(&cd->sv.pqs);
			if (!pq)
				return NULL;
			cfq_set_active(cd, pq);
			*cfq_coop(cd, pq) = false;
		}
		if (cd->slice_end && sim_now >= cd->slice_end) {
			cfq_expire(d, cd);
			continue;
		}
		if (pq->queued) {
			/* 2.6.30's quantum, on a disk taking several. */
			if (pq->dispatched >= CFQ_QUANTUM &&
			    (cd->sv.pqs.rr_head ||
			     pq->dispatched >= 4 * CFQ_QUANTUM))
				return NULL;
			pq_idle_stop(d, &cd->sv);
			rq = pq_choose(d, &cd->sv, pq,
				       elv_ms(d, CFQ_FIFO_EXPIRE_SYNC),
				       (uint64_t)elv_tun(d, CFQ_BACK_SEEK_MAX) * 2,
				       (uint64_t)elv_tun(d, CFQ_BACK_SEEK_PENALTY));
			if (!cd->slice_end)
				cd->slice_end = sim_now +
						elv_ms(d, CFQ_SLICE_SYNC);
			pq->queued--;
			pq->dispatched++;
			cd->sv.last_position = rq->sector + rq->nsect;
			/*
			 * 2.6.30's request_fn asks for the next request at
			 * once, the disk busy or not: a queue run dry may
			 * give way to a cooperator now.
			 */
			if (!pq->queued)
				cfq_take_cooperator(d, cd);
			return rq;
		}
		if (cfq_take_cooperator(d, cd))
			continue;
		if (cd->sv.idle_until) {
			if (sim_now < cd->sv.idle_until)
				return NULL;
			cfq_expire(d, cd);
			continue;
		}
		if (!cfq_may_idle(d, cd, pq)) {
			cfq_expire(d, cd);
			continue;
		}
		/*
		 * A disk taking several requests: 2.6.30 keeps a dry queue
		 * with requests in flight if it would idle on it, and arms
		 * the idle at its last completion.
		 */
		if (pq->dispatched)
			return NULL;
		idle = elv_ms(d, CFQ_SLICE_IDLE);
		if (cfq_seeky(pq) && idle > CFQ_SEEKY_IDLE)
			idle = CFQ_SEEKY_IDLE;
		pq_idle_start(d, &cd->sv, idle);
		return NULL;
	}
}

const struct elevator_type elv_cfq = {
	.name = "cfq",
	.tunables = cfq_tunables,
	.nr_tunables = ELV_NR(cfq_tunables),
	.init = cfq_init,
	.exit = cfq_exit,
	.allow_merge = cfq_allow_merge,
	.add = cfq_add,
	.next = cfq_next,
	.completed = pq_completed,
};
