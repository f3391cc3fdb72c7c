// SPDX-License-Identifier: GPL-2.0
/*
 * elevator.c - the list of I/O schedulers and what they share.
 *
 * Owns the lookup of a scheduler and its tunables by name, the scans of
 * the waiting requests that several schedulers make (next in one-way
 * order, oldest), and the per-process queues of CFQ and BFQ with the
 * think-time and seek-distance means they keep (as 2.6.30's CFQ keeps
 * them in its cfq_io_context: samples and totals decaying by 7/8, a
 * mean trusted after 80 samples' worth).
 */
#include "elevator.h"

#include <string.h>

static const struct elevator_type *const elevators[] = {
	&elv_noop, &elv_sort, &elv_cfq, &elv_mq_deadline, &elv_bfq, NULL,
};

const struct elevator_type *elevator_find(const char *name)
{
	unsigned int i;

	for (i = 0; elevators[i]; i++)
		if (!strcmp(elevators[i]->name, name))
			return elevators[i];
	return NULL;
}

const char *elevator_names(void)
{
	static char buf[128];
	unsigned int i;

	if (buf[0])
		return buf;
	for (i = 0; elevators[i]; i++) {
		if (i)
			strcat(buf, ", ");
		strcat(buf, elevators[i]->name);
	}
	return buf;
}

int elevator_tunable(const struct elevator_type *elv, const char *name)
{
	unsigned int i;

	for (i = 0; i < elv->nr_tunables; i++)
		if (!strcmp(elv->tunables[i].name, name))
			return (int)i;
	return -1;
}

bool elevator_tunable_anywhere(const char *name)
{
	unsigned int i;

	for (i = 0; elevators[i]; i++)
		if (elevator_tunable(elevators[i], name) >= 0)
			return true;
	return false;
}

struct blk_request *elv_next_in_order(struct disk *d, uint64_t pos,
				      const void *owner)
{
	struct blk_request *r, *best = NULL, *low = NULL;

	for (r = d->queue; r; r = r->next) {
		if (owner && r->elv_priv != owner)
			continue;
		if (r->sector >= pos && (!best || r->sector < best->sector))
			best = r;
		if (!low || r->sector < low->sector)
			low = r;
	}
	return best ? best : low;
}

struct blk_request *elv_oldest(struct disk *d, const void *owner)
{
	struct blk_request *r;

	/* d->queue is in arrival order. */
	for (r = d->queue; r; r = r->next)
		if (!owner || r->elv_priv == owner)
			return r;
	return NULL;
}

/* ---- per-process queues ---- */

struct proc_queue *pq_get(struct proc_queues *t, int pid)
{
	struct proc_queue *pq;
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		if (t->q[i]->pid == pid)
			break;
	if (i < t->nr) {
		pq = t->q[i];
		while (pq->merged_into)
			pq = pq->merged_into;
		return pq;
	}
	if (t->nr == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->q = realloc(t->q, t->cap * sizeof(*t->q));
		if (!t->q)
			sim_die("sim: out of host memory");
	}
	pq = sim_alloc(sizeof(*pq));
	memset(pq, 0, sizeof(*pq));
	pq->pid = pid;
	pq->idle_window = true;
	pq->last_end = sim_now;
	t->q[t->nr++] = pq;
	return pq;
}

void pq_free_all(struct proc_queues *t)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		free(t->q[i]);
	free(t->q);
	memset(t, 0, sizeof(*t));
}

void pq_rr_add(struct proc_queues *t, struct proc_queue *pq, bool front)
{
	if (pq->on_rr)
		return;
	pq->on_rr = true;
	pq->rr_next = NULL;
	if (!t->rr_head) {
		t->rr_head = t->rr_tail = pq;
	} else if (front) {
		pq->rr_next = t->rr_head;
		t->rr_head = pq;
	} else {
		t->rr_tail->rr_next = pq;
		t->rr_tail = pq;
	}
}

struct proc_queue *pq_rr_pop(struct proc_queues *t)
{
	struct proc_queue *pq = t->rr_head;

	if (!pq)
		return NULL;
	t->rr_head = pq->rr_next;
	if (!t->rr_head)
		t->rr_tail = NULL;
	pq->on_rr = false;
	pq->rr_next = NULL;
	return pq;
}

void pq_rr_del(struct proc_queues *t, struct proc_queue *pq)
{
	struct proc_queue **pp = &t->rr_head, *prev = NULL;

	if (!pq->on_rr)
		return;
	while (*pp != pq) {
		prev = *pp;
		pp = &(*pp)->rr_next;
	}
	*pp = pq->rr_next;
	if (t->rr_tail == pq)
		t->rr_tail = prev;
	pq->on_rr = false;
	pq->rr_next = NULL;
}

void pq_idle_start(struct disk *d, struct pq_service *sv, simtime_t len)
{
	sv->idle_since = sim_now;
	sv->idle_until = sim_now + len;
	d->st.idles++;
	blk_kick_at(d, sv->idle_until);
}

void pq_idle_stop(struct disk *d, struct pq_service *sv)
{
	if (!sv->idle_until)
		return;
	d->st.idle_ns += min(sim_now, sv->idle_until) - sv->idle_since;
	sv->idle_until = 0;
}

struct blk_request *pq_nearest(struct disk *d, const struct proc_queue *pq,
			       uint64_t pos, uint64_t back_max,
			       uint64_t penalty)
{
	uint64_t best_dist = UINT64_MAX;
	struct blk_request *r, *best = NULL, *low = NULL;

	for (r = d->queue; r; r = r->next) {
		uint64_t dist;

		if (r->elv_priv != pq)
			continue;
		if (!low || r->sector < low->sector)
			low = r;
		if (r->sector >= pos)
			dist = r->sector - pos;
		else if (pos - r->sector <= back_max)
			dist = (pos - r->sector) * penalty;
		else
			continue;
		if (dist < best_dist) {
			best_dist = dist;
			best = r;
		}
	}
	return best ? best : low;
}

struct blk_request *pq_choose(struct disk *d, struct pq_service *sv,
			      struct proc_queue *pq, simtime_t fifo_expire,
			      uint64_t back_max, uint64_t penalty)
{
	struct blk_request *r;

	if (!sv->fifo_checked) {
		sv->fifo_checked = true;
		r = elv_oldest(d, pq);
		if (r->queued_at + fifo_expire <= sim_now)
			return r;
	}
	return pq_nearest(d, pq, sv->last_position, back_max, penalty);
}

void pq_completed(struct disk *d, struct blk_request *rq)
{
	struct proc_queue *pq = rq->elv_priv;

	(void)d;
	pq->dispatched--;
	pq->last_end = sim_now;
}

void pq_update_ttime(struct proc_queue *pq, simtime_t cap)
{
	uint64_t elapsed = sim_now - pq->last_end;

	if (elapsed > cap)
		elapsed = cap;
	pq->ttime_samples = (7 * pq->ttime_samples + 256) / 8;
	pq->ttime_total = (7 * pq->ttime_total + 256 * elapsed) / 8;
	pq->ttime_mean = (pq->ttime_total + 128) / pq->ttime_samples;
}

void pq_update_seek(struct proc_queue *pq, uint64_t sector)
{
	uint64_t sdist = 0, cap;

	if (pq->last_pos)
		sdist = sector > pq->last_pos ? sector - pq->last_pos :
						pq->last_pos - sector;
	/* Do not let one far seek swamp the mean at once. */
	cap = pq->seek_mean * 4 +
	      (pq->seek_samples <= 60 ? 2 * 1024 * 1024 : 2 * 1024 * 64);
	if (sdist > cap)
		sdist = cap;
	pq->seek_samples = (7 * pq->seek_samples + 256) / 8;
	pq->seek_total = (7 * pq->seek_total + 256 * sdist) / 8;
	pq->seek_mean = (pq->seek_total + pq->seek_samples / 2) /
			pq->seek_samples;
}
