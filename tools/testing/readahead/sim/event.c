// SPDX-License-Identifier: GPL-2.0
/*
 * event.c - the simulator's clock, event queue and random numbers.
 *
 * Owns simulated time (nanoseconds), a binary heap of pending events
 * ordered by (time, sequence number) so that ties run in the order they
 * were scheduled, and the seeded generator every random choice comes
 * from (splitmix64, one independent stream per user).  Nothing here
 * reads the host clock: the same inputs replay the same run.
 */
#include "sim.h"

#include <stdarg.h>
#include <string.h>

struct event {
	simtime_t when;
	uint64_t seq;
	ev_fn fn;
	void *obj;
	uint64_t arg;
};

simtime_t sim_now;
static struct event *heap;
static size_t heap_len, heap_cap;
static uint64_t next_seq, nr_run;

void sim_die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

void *sim_alloc(size_t size)
{
	void *p = malloc(size);

	if (!p)
		sim_die("sim: out of host memory");
	return p;
}

void ev_init(void)
{
	free(heap);
	heap = NULL;
	heap_len = heap_cap = 0;
	next_seq = nr_run = 0;
	sim_now = 0;
}

static bool before(const struct event *a, const struct event *b)
{
	return a->when < b->when || (a->when == b->when && a->seq < b->seq);
}

void ev_at(simtime_t when, ev_fn fn, void *obj, uint64_t arg)
{
	struct event e = { when, next_seq++, fn, obj, arg };
	size_t i;

	if (when < sim_now)
		sim_die("sim: event scheduled in the past");
	if (heap_len == heap_cap) {
		heap_cap = heap_cap ? heap_cap * 2 : 256;
		heap = realloc(heap, heap_cap * sizeof(*heap));
		if (!heap)
			sim_die("sim: out of host memory");
	}
	i = heap_len++;
	while (i && before(&e, &heap[(i - 1) / 2])) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = e;
}

simtime_t ev_next_time(void)
{
	return heap_len ? heap[0].when : SIM_NEVER;
}

bool ev_step(void)
{
	struct event top, last;
	size_t i = 0;

	if (!heap_len)
		return false;
	top = heap[0];
	last = heap[--heap_len];
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= heap_len)
			break;
		if (c + 1 < heap_len && before(&heap[c + 1], &heap[c]))
			c++;
		if (!before(&heap[c], &last))
			break;
		heap[i] = heap[c];
		i = c;
	}
	if (heap_len)
		heap[i] = last;
	sim_now = top.when;
	nr_run++;
	top.fn(top.obj, top.arg);
	return true;
}

uint64_t ev_count(void)
{
	return nr_run;
}
