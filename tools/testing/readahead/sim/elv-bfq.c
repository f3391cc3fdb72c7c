// SPDX-License-Identifier: GPL-2.0
/*
 * elv-bfq.c - BFQ as 6.1 runs it on a rotational disk, for reads.
 *
 * Each process gets its own queue on a disk with its first request there;
 * the queues with requests ("busy") take turns (6.1's WF2Q+: a
 * weight-raised queue first, else round robin among equal weights).  The
 * queue in service dispatches until it has used its budget (max_budget
 * sectors), or timeout_sync has passed since it got the disk, or it runs
 * dry and 6.1 would not idle on it; within a queue, the oldest request
 * once per service if it has waited fifo_expire_sync, else the nearest to
 * the last position (forward, or backward within back_seek_max at
 * back_seek_penalty times the distance).
 *
 * Whether to idle on a dry queue (bfq_better_to_idle()) follows 6.1:
 * idling boosts throughput (idling_boosts_thr_without_issues()) when no
 * busy queue is weight-raised and either the disk is believed not to
 * queue (hw_tag detected 0) or the queue is sequential and I/O-bound with
 * a short think time; service guarantees ask for it
 * (idling_needed_for_service_guarantees()) for a raised queue among
 * others not raised, and for the one busy queue.  The think time is
 * 6.1's: sampled only when the queue has nothing queued or on the disk,
 * short while its mean is at most slice_idle / 2.  A queue becoming busy
 * ends the service of one that idling does not pay for, requests queued
 * or not (6.1's preemption in bfq_bfqq_handle_idle_busy_switch()).
 * Queue merging follows bfq_setup_cooperator(): close cooperators (the
 * queue in service, or the queue whose next request is nearest) and
 * stable merges of queues created together, each with 6.1's conditions;
 * a shared queue that turns seeky is split again.  low_latency (6.1's
 * default 1) raises a new or long-idle queue's weight 30 times for
 * 10.5 s, unless it belongs to a large burst (8 queues created less than
 * 180 ms apart).  Each rule below says which 6.1 behaviour it models.
 *
 * Not modelled: soft real-time weight raising (it too spares the queues
 * of a large burst), injection and waker queues, budget feedback (the
 * budget stays max_budget), the peak-rate estimate (it would change the
 * raising's duration), priorities and cgroups, async queues, and
 * processes exiting (a queue keeps its process references to the end).
 * The disk is rotational.
 *
 * On a disk taking several requests (queue_depth) the queue in service
 * sends as many as the disk takes; a dry queue that would be idled on
 * keeps the disk, which gets nothing more, until its last request
 * completes, then the idle starts (bfq_select_queue() keeps it,
 * bfq_completed_request() arms the timer); one that would not is expired
 * at once, its requests still on the disk.
 */
#include "elevator.h"

#include <string.h>

enum { BFQ_SLICE_IDLE, BFQ_TIMEOUT_SYNC, BFQ_MAX_BUDGET,
       BFQ_FIFO_EXPIRE_SYNC, BFQ_BACK_SEEK_MAX, BFQ_BACK_SEEK_PENALTY,
       BFQ_LOW_LATENCY };

static const struct elv_tunable bfq_tunables[] = {
	[BFQ_SLICE_IDLE] = { "slice_idle", 8, 0, 1000, "ms" },
	[BFQ_TIMEOUT_SYNC] = { "timeout_sync", 125, 1, 10000, "ms" },
	[BFQ_MAX_BUDGET] = { "max_budget", 16384, 8, 1048576, "sectors" },
	[BFQ_FIFO_EXPIRE_SYNC] = { "fifo_expire_sync", 125, 1, 60000, "ms" },
	[BFQ_BACK_SEEK_MAX] = { "back_seek_max", 16384, 0, 1048576, "KB" },
	[BFQ_BACK_SEEK_PENALTY] = { "back_seek_penalty", 2, 1, 1000,
				    "times" },
	[BFQ_LOW_LATENCY] = { "low_latency", 1, 0, 1, "on/off" },
};

/* 6.1's constants (block/bfq-iosched.c), in the simulator's units. */
#define BFQ_SEEK_THR		800		/* sectors: a seeky request */
#define BFQ_SEEKY_BITS		19		/* of the last 32: a seeky queue */
#define BFQ_CLOSE_THR		(8 * 1024)	/* sectors: a close request */
#define BFQ_MERGE_TIME		(100 * NS_PER_MS)	/* bfq_merge_time_limit */
#define BFQ_BURST_INTERVAL	(180 * NS_PER_MS)
#define BFQ_STABLE_ACTIVATION	(600 * NS_PER_MS)
#define BFQ_STABLE_LATE		(600 * NS_PER_MS)
#define BFQ_MIN_IDLE_TIME	(2000 * NS_PER_MS)	/* bfq_wr_min_idle_time */
#define BFQ_MIN_TT		(2 * NS_PER_MS)
#define BFQ_HW_QUEUE_THRESHOLD	3
#define BFQ_HW_QUEUE_SAMPLES	32
#define BFQ_LARGE_BURST		8		/* queues */
#define BFQ_WR_COEFF		30
/*
 * bfq_wr_duration(): the reference duration of a rotational disk (7 s)
 * times its reference rate over the peak rate, which 6.1 starts at 2/3
 * of the reference rate: 10.5 s (the QEMU guest's traces say so too).
 * The peak-rate estimate that would change it later is not modelled.
 */
#define BFQ_WR_DURATION		(10500 * NS_PER_MS)
#define BFQ_WR_MIN_TIME		(20 * NS_PER_MS)	/* idle of a raised queue */
#define BFQ_WR_MAX_SERVICE	120000		/* sectors: max_service_from_wr */
#define BFQ_BURST_FORGET	(10000 * NS_PER_MS)

enum bfq_expiration { BFQ_TOO_IDLE, BFQ_BUDGET_TIMEOUT, BFQ_BUDGET_EXHAUSTED,
		      BFQ_NO_MORE_REQUESTS, BFQ_PREEMPTED };

struct bfq_proc;

/*
 * A queue.  pq first: rq->elv_priv and the service list are the shared
 * proc_queue's (pq.pid: the process that created it).
 */
struct bfq_queue {
	struct proc_queue pq;
	struct bfq_queue *all_next;	/* every queue of the disk */
	struct bfq_queue *new_bfqq;	/* a merge into it is scheduled */
	struct bfq_proc *bic;		/* its one process, NULL if shared */
	unsigned int refs;		/* process references (6.1's) */
	simtime_t creation, split_time;
	bool busy, just_created, coop, split_coop, io_bound, short_ttime;
	bool non_blocking_wait;		/* expired empty: may take up again */
	bool split_ever;		/* split_time is set */
	uint64_t service_from_backlogged;	/* sectors since it got busy */
	simtime_t first_io;		/* its first dispatch since then */
	simtime_t io_start;		/* I/O-bound observation window */
	uint64_t tot_idle;
	/* weight raising (interactive) and burst detection */
	unsigned int wr_coeff;		/* 1, or BFQ_WR_COEFF while raised */
	simtime_t wr_start, wr_max;	/* last_wr_start_finish, duration */
	uint64_t service_from_wr;
	bool in_large_burst, in_burst_list;
	bool emptied_ever;		/* budget_timeout is set */
	simtime_t budget_timeout;	/* 6.1 overloads it: emptied at */
};

/*
 * A process as the disk's scheduler knows it (6.1's bfq_io_cq): its queue,
 * the queue a stable merge is scheduled with, and what bfq_bfqq_save_state()
 * keeps of its own queue while it shares another.
 */
struct bfq_proc {
	int pid;
	struct bfq_queue *bfqq;
	struct bfq_queue *stable_merge;
	bool stably_merged;
	bool saved;
	uint64_t ttime_samples, ttime_total, ttime_mean;
	simtime_t last_end, io_start;
	uint64_t tot_idle;
	bool short_ttime, io_bound;
	unsigned int wr_coeff;
	simtime_t wr_start, wr_max;
	bool in_large_burst, was_in_burst_list;
};

struct bfq_data {
	struct pq_service sv;		/* sv.last_position: any dispatch's */
	simtime_t service_start;
	uint64_t in_serv_last_pos;	/* the queue in service's last, or 0 */
	struct bfq_queue *all;
	/* Each allocated once: queues keep pointers to them (bic). */
	struct bfq_proc **procs;
	unsigned int nr_procs, procs_cap;
	struct bfq_queue *last_created;	/* stable merging's reference */
	unsigned int busy_queues;	/* bfq_tot_busy_queues() */
	unsigned int queued;		/* requests in the scheduler */
	unsigned int rq_in_driver;	/* dispatched, not completed */
	int hw_tag;			/* -1 unknown, 0, 1 */
	unsigned int max_rq_in_driver, hw_tag_samples;
	unsigned int wr_busy_queues;	/* busy and weight-raised */
	unsigned int burst_size;	/* queues in the burst list */
	bool large_burst, burst_started;
	simtime_t last_ins_in_burst;
};

static void bfq_init(struct disk *d)
{
	struct bfq_data *bd = sim_alloc(sizeof(*bd));

	*bd = (struct bfq_data){ 0 };
	bd->hw_tag = -1;
	d->elv_data = bd;
}

static void bfq_exit(struct disk *d)
{
	struct bfq_data *bd = d->elv_data;
	struct bfq_queue *q, *next;
	unsigned int i;

	for (q = bd->all; q; q = next) {
		next = q->all_next;
		free(q);
	}
	for (i = 0; i < bd->nr_procs; i++)
		free(bd->procs[i]);
	free(bd->procs);
	free(bd);
	d->elv_data = NULL;
}

static struct bfq_proc *bfq_proc_find(struct bfq_data *bd, int pid)
{
	unsigned int i;

	for (i = 0; i < bd->nr_procs; i++)
		if (bd->procs[i]->pid == pid)
			return bd->procs[i];
	return NULL;
}

static struct bfq_proc *bfq_proc_get(struct bfq_data *bd, int pid)
{
	struct bfq_proc *p = bfq_proc_find(bd, pid);

	if (p)
		return p;
	if (bd->nr_procs == bd->procs_cap) {
		bd->procs_cap = bd->procs_cap ? 2 * bd->procs_cap : 16;
		bd->procs = realloc(bd->procs,
				    bd->procs_cap * sizeof(*bd->procs));
		if (!bd->procs)
			sim_die("sim: out of host memory");
	}
	p = sim_alloc(sizeof(*p));
	*p = (struct bfq_proc){ .pid = pid };
	bd->procs[bd->nr_procs++] = p;
	return p;
}

/*
 * bic_set_bfqq(): @p's I/O goes to @q from now on; a stable merge with
 * @q itself is dropped (6.1 cancels it there).
 */
static void bfq_set_queue(struct bfq_proc *p, struct bfq_queue *q)
{
	p->bfqq = q;
	if (p->stable_merge == q)
		p->stable_merge = NULL;
}

static uint64_t bfq_dist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* BFQQ_SEEKY(): more than 19 of its last 32 requests were seeky. */
static bool bfq_seeky(const struct bfq_queue *q)
{
	return __builtin_popcount(q->pq.seek_history) > BFQ_SEEKY_BITS;
}

/*
 * bfq_too_late_for_merging(): a queue served for more than 100 ms since
 * it last became busy is no longer merged (true cooperators start
 * together).  Becoming busy again resets this, so an interleaved pair
 * may still merge whenever one of them starts anew.
 */
static bool bfq_too_late(const struct bfq_queue *q)
{
	return q->service_from_backlogged > 0 &&
	       sim_now > q->first_io + BFQ_MERGE_TIME;
}

/*
 * bfq_bfqq_save_state(): what a queue's one process takes along when it
 * joins a shared queue, for bfq_bfqq_resume_state() to give back to the
 * queue it gets at a split.
 */
static void bfq_save_state(struct disk *d, struct bfq_queue *q)
{
	struct bfq_proc *p = q->bic;

	if (!p)
		return;
	p->saved = true;
	p->ttime_samples = q->pq.ttime_samples;
	p->ttime_total = q->pq.ttime_total;
	p->ttime_mean = q->pq.ttime_mean;
	p->last_end = q->pq.last_end;
	p->io_start = q->io_start;
	p->tot_idle = q->tot_idle;
	p->short_ttime = q->short_ttime;
	p->io_bound = q->io_bound;
	p->in_large_burst = q->in_large_burst;
	p->was_in_burst_list = q->in_burst_list;
	/* Merged as it was created: the raising it would have had. */
	if (q->just_created && !q->in_large_burst &&
	    elv_tun(d, BFQ_LOW_LATENCY)) {
		p->wr_coeff = BFQ_WR_COEFF;
		p->wr_start = sim_now;
		p->wr_max = BFQ_WR_DURATION;
	} else {
		p->wr_coeff = q->wr_coeff;
		p->wr_start = q->wr_start;
		p->wr_max = q->wr_max;
	}
}

static void bfq_resume_state(struct disk *d, struct bfq_queue *q,
			     const struct bfq_proc *p)
{
	struct bfq_data *bd = d->elv_data;

	if (!p->saved)
		return;
	if (elv_tun(d, BFQ_LOW_LATENCY)) {
		if (q->busy && q->wr_coeff > 1)
			bd->wr_busy_queues--;
		q->wr_coeff = p->wr_coeff;
		q->wr_start = p->wr_start;
		q->wr_max = p->wr_max;
		if (q->wr_coeff > 1 && (q->in_large_burst ||
					sim_now > q->wr_start + q->wr_max))
			q->wr_coeff = 1;
		if (q->busy && q->wr_coeff > 1)
			bd->wr_busy_queues++;
	}
	q->pq.ttime_samples = p->ttime_samples;
	q->pq.ttime_total = p->ttime_total;
	q->pq.ttime_mean = p->ttime_mean;
	q->pq.last_end = p->last_end;
	q->io_start = p->io_start;
	q->tot_idle = p->tot_idle;
	q->short_ttime = p->short_ttime;
	q->io_bound = p->io_bound;
}

/*
 * idling_boosts_thr_without_issues(): on a rotational disk, idling pays
 * when the disk does not queue (hw_tag detected 0: before detection 6.1
 * assumes it may) or when the queue is sequential (not seeky), I/O-bound
 * and of short think time; but never while a busy queue is weight-raised.
 * A queue without processes gets nothing more to idle for.
 */
static bool bfq_idling_boosts_thr(const struct bfq_data *bd,
				  const struct bfq_queue *q)
{
	if (!q->refs)
		return false;
	return (bd->hw_tag == 0 ||
		(!bfq_seeky(q) && q->io_bound && q->short_ttime)) &&
	       !bd->wr_busy_queues;
}

/*
 * idling_needed_for_service_guarantees(): for a weight-raised queue while
 * some busy queue is not raised, or while the disk holds 4 requests more
 * than its own; and for the one busy queue.  (The scenario is never
 * asymmetric here: one class, no cgroups, and 6.1 leaves raised queues
 * out of the weights it compares.)
 */
static bool bfq_idling_needed(const struct bfq_data *bd,
			      const struct bfq_queue *q)
{
	if (!q->refs)
		return false;
	return (q->wr_coeff > 1 &&
		(bd->wr_busy_queues < bd->busy_queues ||
		 bd->rq_in_driver >= q->pq.dispatched + 4)) ||
	       bd->busy_queues == 1;
}

/* bfq_better_to_idle(). */
static bool bfq_better_to_idle(struct disk *d, const struct bfq_queue *q)
{
	const struct bfq_data *bd = d->elv_data;

	if (!q->refs || !elv_tun(d, BFQ_SLICE_IDLE))
		return false;
	return bfq_idling_boosts_thr(bd, q) || bfq_idling_needed(bd, q);
}

static void bfq_set_active(struct disk *d, struct bfq_data *bd,
			   struct bfq_queue *q)
{
	bd->sv.active = &q->pq;
	bd->service_start = sim_now;
	q->budget_timeout = sim_now + elv_ms(d, BFQ_TIMEOUT_SYNC);
	q->emptied_ever = true;
	bd->sv.fifo_checked = false;
	/* __bfq_set_in_service_queue() forgets the last one's position. */
	bd->in_serv_last_pos = 0;
}

static void bfq_del_busy(struct bfq_data *bd, struct bfq_queue *q)
{
	q->busy = false;
	bd->busy_queues--;
	if (q->wr_coeff > 1)
		bd->wr_busy_queues--;
	pq_rr_del(&bd->sv.pqs, &q->pq);
}

/* bfq_bfqq_end_wr(). */
static void bfq_end_wr(struct bfq_data *bd, struct bfq_queue *q)
{
	if (q->busy)
		bd->wr_busy_queues--;
	q->wr_coeff = 1;
	q->wr_max = 0;
	q->wr_start = sim_now;
}

/*
 * The next queue in service: 6.1's WF2Q+ gives a weight-raised queue
 * (30 times the weight) the disk before the others; among equal weights
 * it is the round robin.
 */
static struct bfq_queue *bfq_rr_pop(struct bfq_data *bd)
{
	struct proc_queue *pq, *best = NULL;

	for (pq = bd->sv.pqs.rr_head; pq; pq = pq->rr_next)
		if (!best || ((struct bfq_queue *)pq)->wr_coeff >
			     ((struct bfq_queue *)best)->wr_coeff)
			best = pq;
	if (best)
		pq_rr_del(&bd->sv.pqs, best);
	return (struct bfq_queue *)best;
}

/* bfq_bfqq_expire() of the queue in service. */
static void bfq_expire(struct disk *d, struct bfq_data *bd,
		       enum bfq_expiration reason)
{
	struct bfq_queue *q = (struct bfq_queue *)bd->sv.active;

	/* __bfq_bfqq_expire(): a shared queue gone seeky is split later. */
	if (q->coop && bfq_seeky(q))
		q->split_coop = true;
	pq_idle_stop(d, &bd->sv);
	bd->sv.active = NULL;
	if (reason == BFQ_PREEMPTED)
		d->st.preempts++;
	/*
	 * Empty, it leaves the busy queues (unless preempted while service
	 * guarantees want it idled on); its budget is kept for a request
	 * arriving in time, except after a timeout or an exhausted budget.
	 */
	if (!q->pq.queued &&
	    !(reason == BFQ_PREEMPTED && bfq_idling_needed(bd, q))) {
		if (!q->pq.dispatched) {
			q->budget_timeout = sim_now;
			q->emptied_ever = true;
		}
		bfq_del_busy(bd, q);
		if (reason != BFQ_BUDGET_TIMEOUT &&
		    reason != BFQ_BUDGET_EXHAUSTED)
			q->non_blocking_wait = true;
		else
			q->pq.served = 0;
		return;
	}
	q->pq.served = 0;
	pq_rr_add(&bd->sv.pqs, &q->pq, false);
}

static struct bfq_queue *bfq_new_queue(struct bfq_data *bd,
				       struct bfq_proc *p, bool respawn)
{
	struct bfq_queue *q = sim_alloc(sizeof(*q));
	struct bfq_queue *last = bd->last_created;

	memset(q, 0, sizeof(*q));
	q->pq.pid = p->pid;
	q->pq.last_end = sim_now;
	/* bfq_init_bfqq(): the first request is taken as seeky. */
	q->pq.seek_history = 1;
	q->creation = sim_now;
	q->just_created = true;
	q->short_ttime = true;
	q->io_bound = true;
	q->io_start = sim_now;
	q->wr_coeff = 1;
	q->refs = 1;
	q->bic = p;
	q->all_next = bd->all;
	bd->all = q;
	bfq_set_queue(p, q);
	if (respawn)
		return q;
	/*
	 * bfq_do_or_sched_stable_merge(): the first queue created, or the
	 * first more than 600 ms after the last such, is the reference;
	 * a queue created within 180 ms of it is to be merged with it
	 * stably, which on a rotational disk 6.1 decides 600 ms later.
	 */
	if (!last || last->creation + BFQ_STABLE_ACTIVATION < q->creation)
		bd->last_created = q;
	else if (last->creation + BFQ_BURST_INTERVAL >= q->creation)
		p->stable_merge = last;
	return q;
}

/* bfq_release_process_ref(): process @p no longer uses @q. */
static void bfq_release_ref(struct bfq_data *bd, struct bfq_queue *q)
{
	q->refs--;
	if (q->busy && !q->pq.queued && &q->pq != bd->sv.active)
		bfq_del_busy(bd, q);
	if (bd->last_created == q)
		bd->last_created = NULL;
}

/*
 * bfq_setup_merge(): schedule @q's processes to move to @new (the end of
 * its own scheduled merges), if both still have processes.
 */
static struct bfq_queue *bfq_setup_merge(struct bfq_queue *q,
					 struct bfq_queue *new)
{
	if (!new->refs)
		return NULL;
	while (new->new_bfqq) {
		if (new->new_bfqq == q)
			return NULL;
		new = new->new_bfqq;
	}
	if (!q->refs || !new->refs)
		return NULL;
	q->new_bfqq = new;
	new->refs += q->refs;
	return new;
}

/* bfq_merge_bfqqs(): process @p leaves @q for q->new_bfqq. */
static struct bfq_queue *bfq_merge_bfqqs(struct disk *d, struct bfq_data *bd,
					 struct bfq_proc *p,
					 struct bfq_queue *q)
{
	struct bfq_queue *new = q->new_bfqq;

	bfq_save_state(d, q);
	bfq_save_state(d, new);
	if (q->io_bound)
		new->io_bound = true;
	q->io_bound = false;
	/* A raised queue hands its raising over. */
	if (new->wr_coeff == 1 && q->wr_coeff > 1) {
		new->wr_coeff = q->wr_coeff;
		new->wr_max = q->wr_max;
		new->wr_start = q->wr_start;
		if (new->busy)
			bd->wr_busy_queues++;
	}
	if (q->wr_coeff > 1) {
		q->wr_coeff = 1;
		if (q->busy)
			bd->wr_busy_queues--;
	}
	bfq_set_queue(p, new);
	new->coop = true;
	new->bic = NULL;
	q->bic = NULL;
	if (bd->last_created == q)
		bd->last_created = new;
	bfq_release_ref(bd, q);
	d->st.merges_queues++;
	return new;
}

/* May @q and @new be merged (bfq_may_be_close_cooperator())? */
static bool bfq_may_cooperate(const struct bfq_queue *q,
			      const struct bfq_queue *new)
{
	return !bfq_too_late(new) && !bfq_seeky(q) && !bfq_seeky(new);
}

/*
 * The request of @q that 6.1 would serve next from the last position
 * (bfqq->next_rq): the nearest forward, or backward within back_seek_max
 * at back_seek_penalty times the distance; else the lowest.
 */
static const struct blk_request *bfq_next_rq(struct disk *d,
					     const struct bfq_queue *q)
{
	const struct bfq_data *bd = d->elv_data;

	return pq_nearest(d, &q->pq, bd->sv.last_position,
			  (uint64_t)elv_tun(d, BFQ_BACK_SEEK_MAX) * 2,
			  (uint64_t)elv_tun(d, BFQ_BACK_SEEK_PENALTY));
}

/*
 * bfq_find_close_cooperator(): of the queues in 6.1's position tree
 * (those with a next request, not too late to merge), the one whose next
 * request is nearest to @pos, if within 8192 sectors and not @q itself.
 * (6.1 looks at the tree's node above the position, then at its other
 * neighbour: the nearest unless both are close.)
 */
static struct bfq_queue *bfq_find_close(struct disk *d, struct bfq_queue *q,
					uint64_t pos)
{
	struct bfq_data *bd = d->elv_data;
	struct bfq_queue *x, *best = NULL;
	uint64_t best_dist = UINT64_MAX;

	for (x = bd->all; x; x = x->all_next) {
		const struct blk_request *r;

		if (!x->pq.queued || bfq_too_late(x))
			continue;
		r = bfq_next_rq(d, x);
		if (bfq_dist(r->sector, pos) < best_dist) {
			best_dist = bfq_dist(r->sector, pos);
			best = x;
		}
	}
	if (!best || best == q || best_dist > BFQ_CLOSE_THR)
		return NULL;
	return best;
}

/*
 * bfq_setup_cooperator(): where process @p's I/O at @pos goes instead of
 * its queue @q, or NULL.
 */
static struct bfq_queue *bfq_cooperator(struct disk *d, struct bfq_data *bd,
					struct bfq_proc *p,
					struct bfq_queue *q, uint64_t pos)
{
	struct bfq_queue *act = (struct bfq_queue *)bd->sv.active, *new;

	/* A merge already scheduled: the end of its chain. */
	if (q->new_bfqq) {
		new = q->new_bfqq;
		while (new->new_bfqq)
			new = new->new_bfqq;
		return new;
	}
	/*
	 * The delayed stable merge of a rotational disk: 600 ms after @q
	 * was created (and split, if it was), it merges with the queue it
	 * was created close to, unless idling pays for @q (then it stays
	 * alone for good, as a sequential queue should).
	 */
	if (p->stable_merge && !q->just_created &&
	    sim_now > q->creation + BFQ_STABLE_LATE &&
	    (!q->split_ever || sim_now > q->split_time + BFQ_STABLE_LATE)) {
		struct bfq_queue *s = p->stable_merge;
		unsigned int refs = min(q->refs, s->refs);

		p->stable_merge = NULL;
		if (bfq_idling_boosts_thr(bd, q) || !refs)
			return NULL;
		new = bfq_setup_merge(q, s);
		if (new) {
			p->stably_merged = true;
			if (new->bic)
				new->bic->stably_merged = true;
		}
		return new;
	}
	if (bfq_too_late(q))
		return NULL;
	/* With one busy queue 6.1 does not look for a cooperator. */
	if (bd->busy_queues == 1)
		return NULL;
	/* The queue in service, if @pos is close to its last dispatch. */
	if (act && act != q &&
	    bfq_dist(pos, bd->in_serv_last_pos) <= BFQ_CLOSE_THR &&
	    bfq_may_cooperate(q, act)) {
		new = bfq_setup_merge(q, act);
		if (new)
			return new;
	}
	/* Else the queue whose next request is close to @pos. */
	new = bfq_find_close(d, q, pos);
	if (new && bfq_may_cooperate(q, new))
		return bfq_setup_merge(q, new);
	return NULL;
}

/*
 * bfq_handle_burst(): queues created less than 180 ms apart, with none
 * busy when the first was, form a burst; once 8 have, the burst is large
 * and its queues (and those created in it from then on) are not
 * weight-raised: many processes starting together are taken for one
 * throughput-bound job, not for an interactive application.
 */
static void bfq_handle_burst(struct bfq_data *bd, struct bfq_queue *q)
{
	struct bfq_queue *x;

	if (!bd->burst_started ||
	    bd->last_ins_in_burst + BFQ_BURST_INTERVAL < sim_now) {
		bd->burst_started = true;
		bd->large_burst = false;
		for (x = bd->all; x; x = x->all_next)
			x->in_burst_list = false;
		bd->burst_size = 0;
		if (!bd->busy_queues) {
			q->in_burst_list = true;
			bd->burst_size = 1;
		}
	} else if (bd->large_burst) {
		q->in_large_burst = true;
	} else if (++bd->burst_size == BFQ_LARGE_BURST) {
		bd->large_burst = true;
		for (x = bd->all; x; x = x->all_next) {
			if (x->in_burst_list)
				x->in_large_burst = true;
			x->in_burst_list = false;
		}
		q->in_large_burst = true;
	} else {
		q->in_burst_list = true;
	}
	bd->last_ins_in_burst = sim_now;
}

/*
 * bfq_init_rq(): process @p's queue for a new request, created with its
 * first one on the disk; a shared queue that went seeky is split first
 * (unless the process was merged stably): the last process keeps it,
 * the others get new queues with what they had before the merge.
 */
static struct bfq_queue *bfq_rq_queue(struct disk *d, struct bfq_data *bd,
				      struct bfq_proc *p)
{
	struct bfq_queue *q = p->bfqq;
	bool split = false;

	if (!q) {
		q = bfq_new_queue(bd, p, false);
		if (bd->burst_size || !bd->busy_queues)
			bfq_handle_burst(bd, q);
		return q;
	}
	if (q->coop && q->split_coop && !p->stably_merged) {
		split = true;
		if (q->refs == 1) {
			q->coop = false;
			q->split_coop = false;
		} else {
			bfq_release_ref(bd, q);
			q = bfq_new_queue(bd, p, true);
			q->split_time = sim_now;
			q->split_ever = true;
			q->in_large_burst = p->in_large_burst ||
					    (p->was_in_burst_list &&
					     bd->large_burst);
		}
	}
	if (!q->new_bfqq && q->refs == 1) {
		q->bic = p;
		if (split)
			bfq_resume_state(d, q, p);
	}
	return q;
}

/*
 * bfq_update_io_thinktime(): the gap from the queue's last completion to
 * its new request, sampled only when it has nothing queued or on the
 * disk, at most 2 x slice_idle; bfq_update_has_short_ttime(): short while
 * the mean (once trusted) is at most slice_idle / 2, not re-judged in the
 * 2 s after a split.
 */
static void bfq_update_ttime(struct disk *d, struct bfq_queue *q)
{
	simtime_t idle = elv_ms(d, BFQ_SLICE_IDLE);

	if (!q->pq.dispatched && !q->busy)
		pq_update_ttime(&q->pq, 2 * idle);
	if (!idle || (q->split_ever &&
		      sim_now <= q->split_time + BFQ_MIN_IDLE_TIME))
		return;
	q->short_ttime = !(PQ_SAMPLE_VALID(q->pq.ttime_samples) &&
			   q->pq.ttime_mean > idle / 2);
}

/*
 * bfq_update_io_intensity(): I/O-bound while the queue was empty at most
 * a fifth of the time, over a window of about the last 200 ms.
 */
static void bfq_update_io_intensity(struct bfq_queue *q)
{
	simtime_t tot = sim_now - q->io_start;

	if (!q->pq.queued && !q->pq.dispatched)
		q->tot_idle += sim_now - q->pq.last_end;
	if (q->just_created)
		return;
	q->io_bound = !(q->tot_idle * 5 > tot);
	if (tot > 200 * NS_PER_MS) {
		q->io_start = sim_now - tot / 2;
		q->tot_idle /= 2;
	}
}

/*
 * bfq_bfqq_handle_idle_busy_switch(): @q gets busy.  It takes up its old
 * budget if it was expired empty and its request came within
 * 3 x slice_idle of its last completion, and then preempts the queue in
 * service; so does any queue when idling does not pay for the one in
 * service (bfq_better_to_idle(), counting @q busy).
 */
static void bfq_busy_switch(struct disk *d, struct bfq_data *bd,
			    struct bfq_proc *p, struct bfq_queue *q)
{
	struct bfq_queue *act = (struct bfq_queue *)bd->sv.active;
	bool in_time = sim_now <= q->pq.last_end +
				  3 * elv_ms(d, BFQ_SLICE_IDLE);
	bool wants = q->non_blocking_wait && in_time &&
		     q->pq.served < elv_tun(d, BFQ_MAX_BUDGET);
	/* bfq_bfqq_idle_for_long_time(): emptied more than 2 s ago. */
	bool idle_long = !q->pq.dispatched &&
			 (!q->emptied_ever ||
			  sim_now > q->budget_timeout + BFQ_MIN_IDLE_TIME);
	bool interactive = !q->in_large_burst && idle_long;
	unsigned int old_wr = q->wr_coeff;

	if (!wants)
		q->pq.served = 0;
	q->non_blocking_wait = false;
	/* A queue of a burst idle for 10 s more is taken out of it. */
	if (!q->just_created && idle_long && q->emptied_ever &&
	    sim_now > q->budget_timeout + BFQ_BURST_FORGET) {
		q->in_burst_list = false;
		q->in_large_burst = false;
	}
	q->just_created = false;
	/*
	 * bfq_update_bfqq_wr_on_rq_arrival(), interactive raising only: a
	 * queue of one process (or merged stably) that was idle for long
	 * and is not in a large burst is raised for BFQ_WR_DURATION, or
	 * raised anew; a raised queue found in a large burst is not any
	 * more.  (Soft real-time raising is not modelled: it too spares
	 * the queues of a large burst.)  Not in the 2 s after a split, nor
	 * with low_latency=0.
	 */
	if (elv_tun(d, BFQ_LOW_LATENCY) &&
	    (!q->split_ever || sim_now > q->split_time + BFQ_MIN_IDLE_TIME)) {
		if (old_wr == 1 && interactive && (q->bic || p->stably_merged)) {
			q->wr_coeff = BFQ_WR_COEFF;
			q->wr_max = BFQ_WR_DURATION;
			q->service_from_wr = 0;
		} else if (old_wr > 1 && interactive) {
			q->wr_max = BFQ_WR_DURATION;
		} else if (old_wr > 1 && q->in_large_burst) {
			q->wr_coeff = 1;
		}
	}
	if (old_wr == 1 || q->wr_coeff == 1 || interactive)
		q->wr_start = sim_now;
	q->service_from_backlogged = 0;
	q->busy = true;
	bd->busy_queues++;
	if (q->wr_coeff > 1)
		bd->wr_busy_queues++;
	if (&q->pq != bd->sv.active)
		pq_rr_add(&bd->sv.pqs, &q->pq, false);
	/*
	 * Preemption: a queue taking up its budget again (if raised at
	 * least as much), a queue of higher weight (raised, against one
	 * not), or any queue when idling does not pay for the one in
	 * service.
	 */
	if (act && act != q &&
	    ((wants && q->wr_coeff >= act->wr_coeff) ||
	     q->wr_coeff > act->wr_coeff || !bfq_better_to_idle(d, act)))
		bfq_expire(d, bd, BFQ_PREEMPTED);
}

static bool bfq_allow_merge(struct disk *d, struct blk_request *rq, int pid,
			    bool front)
{
	struct bfq_data *bd = d->elv_data;
	struct bfq_proc *p = bfq_proc_find(bd, pid);
	struct bfq_queue *q, *new;

	/* bfq_bio_merge(): a process with no queue here merges nothing. */
	if (!p || !p->bfqq)
		return false;
	/*
	 * bfq_allow_bio_merge() looks for a cooperator first, at the bio's
	 * sector (at a front merge the request's: the bio ends there).
	 */
	q = p->bfqq;
	new = bfq_cooperator(d, bd, p, q,
			     front ? rq->sector : rq->sector + rq->nsect);
	if (new)
		while (q != new)
			q = bfq_merge_bfqqs(d, bd, p, q);
	return rq->elv_priv == &q->pq;
}

static void bfq_add(struct disk *d, struct blk_request *rq)
{
	struct bfq_data *bd = d->elv_data;
	struct bfq_proc *p = bfq_proc_get(bd, rq->pid);
	struct bfq_queue *q = bfq_rq_queue(d, bd, p), *new;
	uint64_t dist;

	/* __bfq_insert_request(): a cooperator takes the request. */
	new = bfq_cooperator(d, bd, p, q, rq->sector);
	if (new) {
		struct bfq_queue *old = q;

		if (p->bfqq == q)
			while (q != new)
				q = bfq_merge_bfqqs(d, bd, p, q);
		old->just_created = false;
		q = new;
	}
	rq->elv_priv = &q->pq;
	bfq_update_ttime(d, q);
	/* bfq_update_io_seektime(): seeky if 800 sectors from the last. */
	dist = q->pq.last_pos ? bfq_dist(rq->sector, q->pq.last_pos) : 0;
	q->pq.seek_history = q->pq.seek_history << 1 | (dist > BFQ_SEEK_THR);
	bfq_update_io_intensity(q);
	q->pq.queued++;
	bd->queued++;
	if (!q->busy)
		bfq_busy_switch(d, bd, p, q);
	q->pq.last_pos = rq->sector + rq->nsect;
}

/*
 * bfq_update_hw_tag(), at each completion: once 33 samples with more
 * than 3 requests queued or in the driver have been seen, the disk
 * queues (hw_tag 1) if more than 3 were ever in the driver at once.
 */
static void bfq_update_hw_tag(struct bfq_data *bd)
{
	const struct bfq_queue *act = (struct bfq_queue *)bd->sv.active;

	if (bd->rq_in_driver > bd->max_rq_in_driver)
		bd->max_rq_in_driver = bd->rq_in_driver;
	if (bd->hw_tag == 1)
		return;
	if (bd->rq_in_driver + bd->queued <= BFQ_HW_QUEUE_THRESHOLD)
		return;
	if (act && act->short_ttime &&
	    act->pq.dispatched + act->pq.queued < BFQ_HW_QUEUE_THRESHOLD &&
	    bd->rq_in_driver < BFQ_HW_QUEUE_THRESHOLD)
		return;
	if (bd->hw_tag_samples++ < BFQ_HW_QUEUE_SAMPLES)
		return;
	bd->hw_tag = bd->max_rq_in_driver > BFQ_HW_QUEUE_THRESHOLD;
	bd->max_rq_in_driver = 0;
	bd->hw_tag_samples = 0;
}

static void bfq_completed(struct disk *d, struct blk_request *rq)
{
	struct bfq_data *bd = d->elv_data;
	struct bfq_queue *q = rq->elv_priv;

	bfq_update_hw_tag(bd);
	bd->rq_in_driver--;
	pq_completed(d, rq);
	if (!q->pq.dispatched && !q->busy) {
		q->budget_timeout = sim_now;
		q->emptied_ever = true;
	}
}

static struct blk_request *bfq_dispatch(struct disk *d, struct bfq_data *bd,
					struct bfq_queue *q)
{
	struct blk_request *rq;

	pq_idle_stop(d, &bd->sv);
	rq = pq_choose(d, &bd->sv, &q->pq, elv_ms(d, BFQ_FIFO_EXPIRE_SYNC),
		       (uint64_t)elv_tun(d, BFQ_BACK_SEEK_MAX) * 2,
		       (uint64_t)elv_tun(d, BFQ_BACK_SEEK_PENALTY));
	q->pq.queued--;
	q->pq.dispatched++;
	q->pq.served += rq->nsect;
	bd->queued--;
	bd->rq_in_driver++;
	/* bfq_bfqq_served(): the merge window starts at the first. */
	if (!q->service_from_backlogged)
		q->first_io = sim_now;
	q->service_from_backlogged += rq->nsect;
	bd->sv.last_position = rq->sector + rq->nsect;
	bd->in_serv_last_pos = bd->sv.last_position;
	/*
	 * bfq_update_wr_data(): the raising ends in a large burst, when its
	 * time is up, or after 120000 sectors.
	 */
	if (q->wr_coeff > 1) {
		q->service_from_wr += rq->nsect;
		if (q->in_large_burst || sim_now > q->wr_start + q->wr_max ||
		    q->service_from_wr > BFQ_WR_MAX_SERVICE)
			bfq_end_wr(bd, q);
	}
	return rq;
}

/* bfq_select_queue() and bfq_completed_request()'s expirations. */
static struct blk_request *bfq_next(struct disk *d)
{
	struct bfq_data *bd = d->elv_data;
	simtime_t idle = elv_ms(d, BFQ_SLICE_IDLE);
	struct bfq_queue *q;

	for (;;) {
		q = (struct bfq_queue *)bd->sv.active;
		if (!q) {
			q = bfq_rr_pop(bd);
			if (!q)
				return NULL;
			bfq_set_active(d, bd, q);
		}
		if (q->pq.queued &&
		    q->pq.served >= elv_tun(d, BFQ_MAX_BUDGET)) {
			bfq_expire(d, bd, BFQ_BUDGET_EXHAUSTED);
			continue;
		}
		/* Not while it would be idled on (bfq_bfqq_must_idle()). */
		if (sim_now >= bd->service_start +
			       elv_ms(d, BFQ_TIMEOUT_SYNC) &&
		    (q->pq.queued || !bfq_better_to_idle(d, q))) {
			bfq_expire(d, bd, BFQ_BUDGET_TIMEOUT);
			continue;
		}
		if (q->pq.queued)
			return bfq_dispatch(d, bd, q);
		if (bd->sv.idle_until) {
			if (sim_now < bd->sv.idle_until)
				return NULL;
			bfq_expire(d, bd, sim_now >= bd->service_start +
					  elv_ms(d, BFQ_TIMEOUT_SYNC) ?
					  BFQ_BUDGET_TIMEOUT : BFQ_TOO_IDLE);
			continue;
		}
		if (!bfq_better_to_idle(d, q)) {
			bfq_expire(d, bd, BFQ_NO_MORE_REQUESTS);
			continue;
		}
		/*
		 * Kept while its requests are on the disk; the idle starts at
		 * its last completion, 2 ms for a seeky queue
		 * (bfq_arm_slice_timer()).
		 */
		if (q->pq.dispatched)
			return NULL;
		if (q->wr_coeff > 1)
			idle = max(idle, BFQ_WR_MIN_TIME);
		else if (bfq_seeky(q))
			idle = min(idle, BFQ_MIN_TT);
		pq_idle_start(d, &bd->sv, idle);
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
	.completed = bfq_completed,
};
