/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elevator.h - the I/O schedulers' contract with the block queue.
 *
 * One file per scheduler (elv-*.c), each a struct elevator_type, as fio
 * keeps one engine per file behind a table of operations.  The block
 * queue (blkq.c) owns the waiting requests (d->queue, in arrival order)
 * and merging; the scheduler only says which waiting request goes to
 * the disk next, and when it would rather wait (idling), by asking the
 * block queue to call it again at a given time (blk_kick_at()).
 *
 * Tunables carry the scheduler's sysfs names and units
 * (/sys/block/DEV/queue/iosched/NAME) and are set per disk in the
 * machine file after elevator=NAME.
 */
#ifndef RA_SIM_ELEVATOR_H
#define RA_SIM_ELEVATOR_H

#include "sim.h"

#define ELV_NR(a)	(sizeof(a) / sizeof((a)[0]))

struct elv_tunable {
	const char *name;
	double def, lo, hi;		/* default and allowed range */
	const char *unit;		/* "ms", "requests", ... */
};

struct elevator_type {
	const char *name;
	const struct elv_tunable *tunables;	/* indexed as p->elv_tun[] */
	unsigned int nr_tunables;
	/* Set up d->elv_data from d->p.elv_tun[]. */
	void (*init)(struct disk *d);
	void (*exit)(struct disk *d);
	/*
	 * May a bio of task @pid join waiting request @rq, at its back or
	 * (@front) at its front?  NULL: always.
	 */
	bool (*allow_merge)(struct disk *d, struct blk_request *rq, int pid,
			    bool front);
	/* @rq was put on d->queue (not called for merges). */
	void (*add)(struct disk *d, struct blk_request *rq);
	/*
	 * The disk is free: the waiting request to start now, left on
	 * d->queue (the block queue unlinks it), or NULL to leave the disk
	 * idle (nothing waiting, or idling with a blk_kick_at() pending).
	 */
	struct blk_request *(*next)(struct disk *d);
	/* @rq finished on the disk. */
	void (*completed)(struct disk *d, struct blk_request *rq);
};

extern const struct elevator_type elv_noop, elv_sort, elv_cfq,
	elv_mq_deadline, elv_bfq;

/* By name; NULL if there is none. */
const struct elevator_type *elevator_find(const char *name);
/* "noop, sort, ..." for error messages. */
const char *elevator_names(void);
/* Is @name a tunable of any scheduler? */
bool elevator_tunable_anywhere(const char *name);
/* The index of @elv's tunable @name, or -1. */
int elevator_tunable(const struct elevator_type *elv, const char *name);

/* blkq.c: call @d's elevator again at @when (replaces an earlier kick). */
void blk_kick_at(struct disk *d, simtime_t when);

/* Helpers the schedulers share (elevator.c). */
static inline double elv_tun(const struct disk *d, unsigned int i)
{
	return d->p.elv_tun[i];
}

static inline simtime_t elv_ms(const struct disk *d, unsigned int i)
{
	return (simtime_t)(d->p.elv_tun[i] * NS_PER_MS);
}

/* The waiting request nearest after the head in one-way order. */
struct blk_request *elv_next_in_order(struct disk *d, uint64_t pos,
				      const void *owner);
/* The waiting request that arrived first (of @owner, or any: NULL). */
struct blk_request *elv_oldest(struct disk *d, const void *owner);

/*
 * Per-process queues (CFQ, BFQ): one per submitting task, found by pid;
 * a request carries its queue in rq->elv_priv.  Think time and seek
 * distance are the decaying means both schedulers keep.
 */
struct proc_queue {
	int pid;
	struct proc_queue *merged_into;	/* BFQ: shares that queue now */
	struct proc_queue *rr_next;	/* the scheduler's service list */
	bool on_rr;
	unsigned int queued;		/* its requests on d->queue */
	unsigned int dispatched;	/* on the disk */
	simtime_t last_end;		/* its last completion */
	uint64_t last_pos;		/* sector after its last request */
	uint64_t ttime_samples, ttime_total, ttime_mean;	/* ns */
	uint64_t seek_samples, seek_total, seek_mean;		/* sectors */
	uint32_t seek_history;		/* BFQ: 1 bit per seeky request */
	bool idle_window;
	uint64_t served;		/* BFQ: sectors in this budget */
	simtime_t first_service;	/* BFQ: first got the disk, +1 */
};

struct proc_queues {
	struct proc_queue **q;
	unsigned int nr, cap;
	struct proc_queue *rr_head, *rr_tail;
};

/*
 * What CFQ and BFQ keep about the queue in service, and the steps they
 * share: idling on it, and choosing its next request (once per service
 * the oldest if it has waited @fifo_expire, else the nearest to the last
 * position, forward or backward within @back_max sectors at @penalty
 * times the distance).
 */
struct pq_service {
	struct proc_queues pqs;
	struct proc_queue *active;
	simtime_t idle_since, idle_until;	/* idle_until 0: not idling */
	bool fifo_checked;
	uint64_t last_position;
};
void pq_idle_start(struct disk *d, struct pq_service *sv, simtime_t len);
void pq_idle_stop(struct disk *d, struct pq_service *sv);
/*
 * @pq's request nearest @pos: forward, or backward within @back_max
 * sectors at @penalty times the distance; else its lowest.
 */
struct blk_request *pq_nearest(struct disk *d, const struct proc_queue *pq,
			       uint64_t pos, uint64_t back_max,
			       uint64_t penalty);
struct blk_request *pq_choose(struct disk *d, struct pq_service *sv,
			      struct proc_queue *pq, simtime_t fifo_expire,
			      uint64_t back_max, uint64_t penalty);

/* A request of a per-process queue finished: its think time starts. */
void pq_completed(struct disk *d, struct blk_request *rq);

struct proc_queue *pq_get(struct proc_queues *t, int pid);
void pq_free_all(struct proc_queues *t);
/* Service list: FIFO of queues with requests waiting. */
void pq_rr_add(struct proc_queues *t, struct proc_queue *pq, bool front);
struct proc_queue *pq_rr_pop(struct proc_queues *t);
void pq_rr_del(struct proc_queues *t, struct proc_queue *pq);
/* 2.6.30's decaying means, updated on each request's arrival. */
void pq_update_ttime(struct proc_queue *pq, simtime_t cap);
void pq_update_seek(struct proc_queue *pq, uint64_t sector);
#define PQ_SAMPLE_VALID(s)	((s) > 80)

#endif /* RA_SIM_ELEVATOR_H */
