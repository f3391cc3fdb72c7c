// SPDX-License-Identifier: GPL-2.0
/*
 * blkq.c - the block layer: bios, the per-task plug, request queues.
 *
 * Owns what happens between the filesystem's ->readahead and the disk:
 * blk_start_plug()/blk_finish_plug() (the readahead code brackets
 * read_pages() with them) hold the bios of one submission on the plug
 * list; at the end of the submission they go to the disk's queue, where
 * a bio merges into a waiting request it extends at the back or the
 * front, up to max_sectors_kb, if the disk's I/O scheduler allows it.
 * The scheduler (elevator.h, one elv-*.c each) picks the next request
 * when the disk is free, and may keep the disk idle until a time it
 * names (blk_kick_at()).  With plug_ms > 0 the queue itself plugs as in
 * 2.6.30: a request arriving at an idle, empty queue is held until
 * plug_ms passes, four requests wait, or a reader sleeps on a page of the
 * disk.  Completion calls each bio's end_io, set by its submitter (the
 * filesystem), with 0 or -EIO: a bio that touches a failing range of the
 * disk (fail_sectors) fails whole, as mpage's end_io fails every page of
 * a failed bio.  Other bios merged into the same request complete: the
 * model fails no page outside the range (a virtio disk
 * under blkdebug fails the whole request; a SCSI disk what follows the
 * bad sector), so a page read alone outside the range always succeeds.
 * The counters are those of /sys/block/DEV/stat.
 *
 * The disk takes queue_depth requests at once (a spindle 1 unless the
 * machine file says more, a throttled virtual disk VIRTIO_DEPTH) and
 * serves them one after the other in the order sent, each starting when
 * the one before is done: the QEMU bench's nbdkit filter behind a virtio
 * disk whose hardware queues each take virtio_blk.queue_depth.
 * nr_requests > 0 caps the requests allocated at once, waiting in the
 * scheduler plus on the disk, as 6.1's scheduler tags do.  A bio that
 * merges into no waiting request and finds none free waits, in FIFO
 * order and out of reach of merges, until a completion frees one; its
 * submitter sleeps meanwhile (blk_mq_get_tag()), so the bios after it
 * in its submission wait behind it, and when it wakes they go on as
 * submitted then: merging into the request it got (contiguous ones
 * join it), else waiting again.  The submitter itself is not held up:
 * the reader goes on after its submission (a reader that the kernel
 * would block in submit_bio() here goes on to its page and sleeps there).
 * blktrace's G is when the bio gets its request, so Q2G is the wait.
 * hw_queues = N: the disk is reached through N hardware queues, as a
 * virtio disk through one per vCPU: each takes queue_depth requests
 * (its driver tags), so the disk up to N x queue_depth, and allocates
 * nr_requests (its scheduler tags).  A request belongs to the queue of
 * the CPU its bio was submitted on, CPU mod N (reader.c numbers the CPUs
 * with cpus=; with cpus=0, one CPU per task and none numbered, task pid
 * mod N stands for it); its bio waits for that queue's tags.  The
 * scheduler is shared: a queue with an empty dispatch list takes the
 * scheduler's next requests, whichever queue they belong to, until one's
 * queue has no free tag: then that request goes on its queue's dispatch
 * list, out of merge reach, and
 * reaches the disk first once a tag is free (6.1's
 * __blk_mq_do_dispatch_sched() takes a request, then finds no driver
 * tag for it; a queue with a request on its list takes no more).  So a
 * queue's tags may be taken while another's are free, and its requests
 * wait.  blktrace's D is when one reaches the disk.  hw_queues = 0 is
 * one queue without a dispatch list: the disk takes queue_depth.
 */
#include "elevator.h"
#include "blktrace.h"

#define UNPLUG_THRESH	4
/* A throttled virtual disk takes this many requests (a virtqueue's worth). */
#define VIRTIO_DEPTH	128

uint64_t blk_pages_read;

static struct blk_plug *cur_plug;
static struct bio *plug_head, *plug_tail;
static struct bio *bio_free;
static struct blk_request *req_free;
/* Whom the queue works for (blktrace): the submitter, 0 in interrupts. */
static int ctx_pid;
/*
 * The submission in progress (a plug flushed, or a bio submitted
 * unplugged): once one of its bios waits for a request on a disk
 * (its hardware queue's tag_wait_sub == sub_gen), its later bios for that
 * queue wait behind.
 */
static uint64_t sub_gen;

struct bio *bio_alloc(void)
{
	struct bio *b = bio_free;

	if (b)
		bio_free = b->next;
	else
		b = sim_alloc(sizeof(*b));
	b->next = NULL;
	b->cpu = -1;
	b->ahead = false;
	b->part = NULL;
	b->tag_chain = false;
	return b;
}

static struct blk_request *req_alloc(void)
{
	struct blk_request *r = req_free;

	if (r)
		req_free = r->next;
	else
		r = sim_alloc(sizeof(*r));
	r->next = NULL;
	return r;
}

/* Time-weighted queue accounting, as the kernel keeps io_ticks. */
static void account(struct disk *d)
{
	simtime_t dt = sim_now - d->last_change;

	if (d->in_flight) {
		d->st.io_ticks_ns += dt;
		d->st.in_queue_ns += dt * d->in_flight;
	}
	d->last_change = sim_now;
}

static void complete(void *obj, uint64_t arg);
static void tag_wake(struct disk *d, unsigned int h);

/* Take @r off the waiting list. */
static void unlink_request(struct disk *d, struct blk_request *r)
{
	struct blk_request **pp = &d->queue, *prev = NULL;

	while (*pp != r) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	*pp = r->next;
	if (d->queue_tail == r)
		d->queue_tail = prev;
	r->next = NULL;
	d->queued--;
}

/* Requests @d takes at once: queue_depth, or its kind's own. */
unsigned int blk_queue_depth(const struct disk *d)
{
	if (d->p.queue_depth)
		return d->p.queue_depth;
	return d->p.mech.iops > 0 ? VIRTIO_DEPTH : 1;
}

/* @r goes to the disk (D), which starts it when those before are done. */
static void send(struct disk *d, struct blk_request *r)
{
	simtime_t t, start;
	bool seek;

	if (d->bt)
		blkt_rq(d, BLKT_ISSUE, r, ctx_pid, 0);
	d->active = r;
	r->issued_at = sim_now;
	d->hq[r->hq].busy++;
	d->nr_busy++;
	if (d->nr_busy > d->st.max_busy)
		d->st.max_busy = d->nr_busy;
	r->disk = d;
	start = max(sim_now, d->dev_free);
	t = disk_service(d, start, r->sector, r->nsect, &seek);
	d->dev_free = start + t;
	d->st.seeks += seek;
	d->st.busy_ns += t;
	ev_at(d->dev_free, complete, r, 0);
}

/* Hardware queues: at least the one. */
static unsigned int nr_hwq(const struct disk *d)
{
	return d->p.hw_queues ? d->p.hw_queues : 1;
}

/* The hardware queue of @b's request on @d: its CPU's, else its task's. */
static unsigned int hwq_of(const struct disk *d, const struct bio *b)
{
	if (!d->p.hw_queues)
		return 0;
	if (b->cpu >= 0)
		return (unsigned int)b->cpu % d->p.hw_queues;
	return (unsigned int)b->pid % d->p.hw_queues;
}

/*
 * Send the scheduler's choices to the disk while it takes more: each
 * hardware queue with nothing on its dispatch list takes the
 * scheduler's next requests; the first whose queue has no free tag
 * waits on that queue's dispatch list, and goes first when one is.
 * The disk serves what it got one after the other in the order sent.
 */
static void dispatch(struct disk *d)
{
	unsigned int depth = blk_queue_depth(d), nq = nr_hwq(d), h;
	struct blk_request *r;
	struct hw_queue *q;
	bool more = true;

	while (more && !d->plugged) {
		more = false;
		for (h = 0; h < nq; h++) {
			q = &d->hq[h];
			while (q->disp && q->busy < depth) {
				r = q->disp;
				q->disp = r->next;
				r->next = NULL;
				send(d, r);
				more = true;
			}
		}
		for (h = 0; h < nq; h++) {
			/*
			 * Asked even with nothing waiting: an idling
			 * scheduler ends its idle.  Without a dispatch list
			 * only while a tag is free (the request goes to the
			 * disk); with one, until a request finds none.
			 */
			while (!d->plugged && !d->hq[h].disp &&
			       (d->p.hw_queues || d->hq[h].busy < depth)) {
				r = d->p.elv->next(d);
				if (!r)
					return;
				unlink_request(d, r);
				q = &d->hq[r->hq];
				if (q->busy < depth) {
					send(d, r);
					continue;
				}
				if (q->disp)
					q->disp_tail->next = r;
				else
					q->disp = r;
				q->disp_tail = r;
				more = true;
				break;
			}
		}
	}
}

static void unplug(struct disk *d, bool timer)
{
	if (!d->plugged)
		return;
	if (d->bt)
		blkt_unplug(d, timer, d->queued, ctx_pid);
	d->plugged = false;
	d->plug_gen++;
	dispatch(d);
}

static void unplug_timer(void *obj, uint64_t gen)
{
	struct disk *d = obj;

	ctx_pid = 0;
	if (d->plug_gen == gen)
		unplug(d, true);
}

static void kick(void *obj, uint64_t gen)
{
	struct disk *d = obj;

	ctx_pid = 0;
	if (d->kick_gen == gen)
		dispatch(d);
}

void blk_kick_at(struct disk *d, simtime_t when)
{
	ev_at(when, kick, d, ++d->kick_gen);
}

void blk_init_queue(struct disk *d)
{
	if (!d->p.elv)
		d->p.elv = &elv_sort;
	if (d->p.elv->init)
		d->p.elv->init(d);
}

void blk_exit_queue(struct disk *d)
{
	if (d->p.elv->exit)
		d->p.elv->exit(d);
}

static void complete(void *obj, uint64_t arg)
{
	struct blk_request *r = obj;
	struct disk *d = r->disk;
	struct bio *b, *next;
	unsigned int err_bios = 0;

	(void)arg;
	ctx_pid = 0;
	account(d);
	d->in_flight--;
	d->nr_busy--;
	d->hq[r->hq].busy--;
	d->hq[r->hq].alloc--;
	if (d->active == r)
		d->active = NULL;
	d->st.ios++;
	d->st.sectors += r->nsect;
	d->st.ticks_ns += sim_now - r->queued_at;
	d->st.q2c_ns += sim_now - r->bio_at;
	d->st.d2c_ns += sim_now - r->issued_at;
	if (d->p.elv->completed)
		d->p.elv->completed(d, r);
	for (b = r->bios; b; b = b->next)
		err_bios += disk_read_fails(d, b->sector,
					    (uint64_t)b->nr * PAGE_SECTORS);
	if (err_bios)
		d->st.err_reqs++;
	if (d->bt)
		blkt_rq(d, BLKT_COMPLETE, r, 0, err_bios ? -EIO : 0);
	/* Its tag is free: the oldest waiter gets it. */
	tag_wake(d, r->hq);
	for (b = r->bios; b; b = next) {
		bool failed = err_bios &&
			disk_read_fails(d, b->sector,
					(uint64_t)b->nr * PAGE_SECTORS);

		next = b->next;
		if (failed)
			d->st.err_pages += b->nr;
		else
			blk_pages_read += b->nr;
		b->end_io(b, failed ? -EIO : 0);
		b->next = bio_free;
		bio_free = b;
	}
	r->next = req_free;
	req_free = r;
	ctx_pid = 0;
	dispatch(d);
}

static bool may_merge(struct disk *d, struct blk_request *r, struct bio *b,
		      bool front)
{
	const struct elevator_type *e = d->p.elv;

	return !e->allow_merge || e->allow_merge(d, r, b->pid, front);
}

static bool try_merge(struct disk *d, struct bio *b, uint64_t max_sect)
{
	uint64_t bsect = (uint64_t)b->nr * PAGE_SECTORS;
	struct blk_request *r;

	/* The newest request first: streams mostly extend it. */
	r = d->queue_tail;
	if (r && r->sector + r->nsect == b->sector &&
	    r->nsect + bsect <= max_sect && may_merge(d, r, b, false))
		goto back;
	for (r = d->queue; r; r = r->next) {
		if (r->nsect + bsect > max_sect)
			continue;
		if (r->sector + r->nsect == b->sector &&
		    may_merge(d, r, b, false))
			goto back;
		if (b->sector + bsect == r->sector &&
		    may_merge(d, r, b, true)) {
			if (d->bt)
				blkt_bio(d, BLKT_FRONTMERGE, b, bsect, b->pid);
			b->next = r->bios;
			r->bios = b;
			r->sector = b->sector;
			r->nsect += bsect;
			d->st.merges++;
			return true;
		}
	}
	return false;
back:
	if (d->bt)
		blkt_bio(d, BLKT_BACKMERGE, b, bsect, b->pid);
	r->bios_tail->next = b;
	r->bios_tail = b;
	r->nsect += bsect;
	d->st.merges++;
	return true;
}

/* @b becomes a request of its own, put on @d's queue. */
static void new_request(struct disk *d, struct bio *b)
{
	struct blk_request *r;

	r = req_alloc();
	r->bios = r->bios_tail = b;
	r->sector = b->sector;
	r->nsect = (uint64_t)b->nr * PAGE_SECTORS;
	r->queued_at = sim_now;
	r->bio_at = b->queued_at;
	r->pid = b->pid;
	r->hq = hwq_of(d, b);
	r->elv_priv = NULL;
	r->ahead = b->ahead;
	if (d->bt)
		blkt_bio(d, BLKT_GETRQ, b, r->nsect, b->pid);
	account(d);
	d->in_flight++;
	d->hq[r->hq].alloc++;
	if (d->in_flight > d->st.max_alloc)
		d->st.max_alloc = d->in_flight;
	if (d->p.plug_ms > 0 && !d->queue && !d->nr_busy && !d->plugged) {
		if (d->bt)
			blkt_plug(d, b->pid);
		d->plugged = true;
		ev_at(sim_now + (simtime_t)(d->p.plug_ms * NS_PER_MS),
		      unplug_timer, d, ++d->plug_gen);
	}
	if (d->queue_tail)
		d->queue_tail->next = r;
	else
		d->queue = r;
	d->queue_tail = r;
	d->queued++;
	if (d->queued > d->st.max_queue)
		d->st.max_queue = d->queued;
	if (d->bt)
		blkt_rq(d, BLKT_INSERT, r, b->pid, 0);
	/* The task's own insert, as its plug is flushed (not a tag wait's). */
	if (ftrace_file && current && current->pid == b->pid)
		ftrace_rq_insert(d->dev, r->sector, r->nsect);
	if (d->p.elv->add)
		d->p.elv->add(d, r);
	if (d->plugged && d->queued >= UNPLUG_THRESH)
		unplug(d, false);
}

/* @b waits for a request of queue @q, behind the bios waiting already. */
static void tag_wait_add(struct hw_queue *q, struct bio *b, bool chain)
{
	b->next = NULL;
	b->tag_chain = chain;
	if (q->tag_wait_tail)
		q->tag_wait_tail->next = b;
	else
		q->tag_wait = b;
	q->tag_wait_tail = b;
	q->tag_wait_sub = sub_gen;
}

/* Put @b on @d's queue, merging where it can, or make it wait. */
static void queue_bio(struct disk *d, struct bio *b)
{
	uint64_t max_sect = (uint64_t)d->p.max_sectors_kb * 2;
	struct hw_queue *q = &d->hq[hwq_of(d, b)];

	b->next = NULL;
	/* Its submitter sleeps for a request: it has not sent this one. */
	if (q->tag_wait && q->tag_wait_sub == sub_gen) {
		tag_wait_add(q, b, true);
		return;
	}
	if (try_merge(d, b, max_sect))
		return;
	if (d->p.nr_requests &&
	    (q->tag_wait || q->alloc >= d->p.nr_requests)) {
		tag_wait_add(q, b, false);
		return;
	}
	new_request(d, b);
}

/*
 * Requests of queue @h are free: its oldest waiting bio gets one (G
 * now), and its submitter, awake, goes on with the bios after it in its
 * submission.
 */
static void tag_wake(struct disk *d, unsigned int h)
{
	struct hw_queue *q = &d->hq[h];

	while (q->tag_wait && q->alloc < d->p.nr_requests) {
		struct bio *b = q->tag_wait, *rest, *next;

		q->tag_wait = b->next;
		/* The rest of its submission, up to the next submitter's. */
		rest = NULL;
		if (q->tag_wait && q->tag_wait->tag_chain) {
			rest = q->tag_wait;
			for (next = rest; next->next && next->next->tag_chain;)
				next = next->next;
			q->tag_wait = next->next;
			next->next = NULL;
		}
		if (!q->tag_wait)
			q->tag_wait_tail = NULL;
		b->next = NULL;
		sub_gen++;
		ctx_pid = b->pid;
		d->st.tag_waits++;
		d->st.tag_wait_ns += sim_now - b->queued_at;
		new_request(d, b);
		for (; rest; rest = next) {
			next = rest->next;
			rest->tag_chain = false;
			queue_bio(d, rest);
		}
		ctx_pid = 0;
	}
}

/* Does the task's plug hold a bio for @d? */
static bool plug_holds(struct disk *d)
{
	struct bio *b;

	for (b = plug_head; b; b = b->next)
		if (b->disk == d)
			return true;
	return false;
}

/* U for each traced disk the plug list @head holds bios for, in order. */
static void trace_unplug(struct bio *head)
{
	struct bio *b, *o;

	for (b = head; b; b = b->next) {
		unsigned int depth = 0;

		if (!b->disk->bt)
			continue;
		for (o = head; o != b && o->disk != b->disk; o = o->next)
			;
		if (o != b)
			continue;	/* counted at its first bio */
		for (o = b; o; o = o->next)
			depth += o->disk == b->disk;
		blkt_unplug(b->disk, false, depth, b->pid);
	}
}

void submit_bio(struct bio *b)
{
	struct disk *d = b->disk;
	unsigned int max_pages = d->p.max_sectors_kb / (PAGE_SIZE >> 10);

	ctx_pid = b->pid;
	b->queued_at = sim_now;
	if (!cur_plug)
		sub_gen++;
	if (d->bt) {
		blkt_remap(d, b);
		blkt_bio(d, BLKT_QUEUE, b, (uint64_t)b->nr * PAGE_SECTORS,
			 b->pid);
	}
	/* Split at max_sectors_kb, as bio splitting would. */
	while (b) {
		struct bio *rest = NULL;

		if (b->nr > max_pages) {
			rest = bio_alloc();
			*rest = *b;
			rest->nr = b->nr - max_pages;
			rest->index = b->index + max_pages;
			rest->sector = b->sector +
				       (uint64_t)max_pages * PAGE_SECTORS;
			b->nr = max_pages;
			if (d->bt)
				blkt_split(d, b, rest->sector);
		}
		b->next = NULL;
		if (cur_plug) {
			if (d->bt && !plug_holds(d))
				blkt_plug(d, b->pid);
			if (plug_tail)
				plug_tail->next = b;
			else
				plug_head = b;
			plug_tail = b;
		} else {
			queue_bio(d, b);
			dispatch(d);
		}
		b = rest;
	}
}

void blk_waiting_on(struct disk *d)
{
	ctx_pid = current ? current->pid : 0;
	unplug(d, false);
}

void blk_start_plug(struct blk_plug *plug)
{
	/* Only the outermost plug counts, as in the kernel. */
	plug->depth = 1;
	if (!cur_plug)
		cur_plug = plug;
}

void blk_finish_plug(struct blk_plug *plug)
{
	struct disk *touched[8];
	unsigned int nt = 0, i;
	struct bio *b, *next;

	plug->depth = 0;
	if (plug != cur_plug)
		return;
	cur_plug = NULL;
	b = plug_head;
	if (b) {
		ctx_pid = b->pid;
		trace_unplug(b);
	}
	plug_head = plug_tail = NULL;
	sub_gen++;
	for (; b; b = next) {
		struct disk *d = b->disk;

		next = b->next;
		queue_bio(d, b);
		for (i = 0; i < nt && touched[i] != d; i++)
			;
		if (i == nt && nt < 8)
			touched[nt++] = d;
		else if (i == nt)
			dispatch(d);
	}
	/* Dispatch after the whole batch is queued and merged. */
	for (i = 0; i < nt; i++)
		dispatch(touched[i]);
}
