// SPDX-License-Identifier: GPL-2.0
/*
 * stock.c - readahead as a stock kernel's tracepoints show it: parses the
 * filemap events (a folio's arrival in and departure from the page cache,
 * read(2)'s and the page fault's accesses), mainline's page_cache_sync_ra
 * and page_cache_async_ra, and the block layer's insert and issue, as
 * trace-cmd report, trace_pipe or perf script print them; infers the
 * windows (runs of folios one task adds to one file, ahead of or for its
 * access) and what became of every page of them.
 *
 * A window is a run of contiguous folios a task adds to one file with no
 * other event of that task between them but departures (reclaim may run
 * inside an allocation).  Its trigger is told, in this order, by:
 * mainline's page_cache_sync_ra ("sync": a miss) or page_cache_async_ra
 * ("async": a marker) of that task just before it; the read(2) access that
 * follows (mm_filemap_get_pages fires after the pages are in: "sync" if
 * the read needed the window's first page, "async" if the window lies past
 * the read); the fault before it (mm_filemap_fault fires before any
 * readahead: "sync" if the window holds the faulting page, "async" if it
 * lies past it).  Otherwise it is "unknown" (readahead(2), fadvise, a 6.1
 * trace, which has no access events): no decision's name and no marker are
 * in a stock trace, and the tables do not guess them.
 *
 * A trace that also has a patched kernel's decisions keeps them as its
 * windows, the stock_agreement table checks the inference against them,
 * and the decisions' streams get the outcome of their inferred windows.
 * Each record's outcome (an inferred window's, or the sum of a
 * decision's windows') is what outcome.c checks the kernel's own
 * readahead_outcome events against; ra_outcome_print prints the outcome
 * row of every table, outcome.c's too.
 *
 * The outcome of every page read: used (an access covered it while it was
 * cached: a read(2) range, a fault, a page fault-around mapped), evicted
 * unused, or still cached and unused at the end; a page added again after
 * it left is read twice.  The lead time is from the page's arrival to its
 * first use (the stock events carry no per-page I/O completion); a sync
 * window is a stall: its reader waited for it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

#define STOCK_PAGE_SHIFT	12

/* The event names, each also with its system's "SYS:" before it. */
static const struct {
	const char *sys, *name;
	enum stock_type type;
} stock_events[] = {
	{ "filemap", "mm_filemap_add_to_page_cache", ST_ADD },
	{ "filemap", "mm_filemap_delete_from_page_cache", ST_DELETE },
	{ "filemap", "mm_filemap_get_pages", ST_GET_PAGES },
	{ "filemap", "mm_filemap_map_pages", ST_MAP_PAGES },
	{ "filemap", "mm_filemap_fault", ST_FAULT },
	{ "readahead", "page_cache_sync_ra", ST_SYNC_RA },
	{ "readahead", "page_cache_async_ra", ST_ASYNC_RA },
	{ "block", "block_rq_insert", ST_BLOCK },
	{ "block", "block_rq_issue", ST_BLOCK },
};

enum stock_trigger { TRIG_UNKNOWN, TRIG_SYNC, TRIG_ASYNC };
static const char *const trigger_names[] = { "unknown", "sync", "async" };

/* An inferred window and what became of its pages. */
struct stock_win {
	unsigned long long start, end;	/* pages [start, end) */
	unsigned long long req_off, req_size;
	unsigned long long pages, used, evicted, twice;
	unsigned long long lead_ns;	/* sum over the used pages */
	unsigned long lineno;
	unsigned int src, file, proc;
	unsigned long long cached;	/* unused, still cached at the end */
	unsigned int next;		/* next window awaiting its trigger */
	unsigned char trigger;
	unsigned char decided;		/* the trigger is final */
};

/* A page of a file: where it came from, whether it is used or gone. */
struct stock_page {
	unsigned long long added_ns;
	unsigned int win;
	unsigned char used, gone;
};

/* What the inference keeps of a task between its events. */
struct stock_task {
	unsigned int open;		/* its window being added, or ~0u */
	unsigned int wait, wait_tail;	/* its windows awaiting a trigger */
	const struct stock_ev *before;	/* its last access */
	const struct stock_ev *ra;	/* mainline's ra event since then */
	const struct stock_ev *read;	/* its last mm_filemap_get_pages */
	unsigned long long read_done;	/* pages of @read marked up to */
};

struct stock {
	struct stock_ev *ev;
	size_t nr_ev, alloc_ev;
	struct stock_win *win;
	size_t nr_win, alloc_win;
	struct stock_page *page;
	size_t nr_page, alloc_page;
	struct hmap page_map;		/* (file, index) -> page */
	struct stock_task *task;
	unsigned long accesses;		/* access events in the trace */
	int inferred;			/* the tables' records are these */
	int agreement;			/* decisions too: check against them */
};

/* ---- parsing ---- */

/* Blanks, then the literal @lit. */
static void lit(struct ra_cursor *c, const char *lit, const char *why)
{
	while (*c->p == ' ')
		c->p++;
	ra_expect(c, lit, why);
}

/* "MAJOR:MINOR" in decimal, and "ino" @sep HEX. */
static void dev_ino(struct ra_cursor *c, struct ra_rec *r, const char *dev,
		    const char *ino)
{
	unsigned long long v;

	lit(c, dev, "expected the device");
	v = ra_number(c, 10, "bad device major");
	r->major = v;
	if (!c->why && r->major != v)
		c->why = "device major out of range";
	lit(c, ":", "expected ':' in the device");
	v = ra_number(c, 10, "bad device minor");
	r->minor = v;
	if (!c->why && r->minor != v)
		c->why = "device minor out of range";
	lit(c, ino, "expected the inode");
	r->ino = ra_number(c, 16, "bad inode number (hex)");
}

/* A byte offset that must start a page. */
static unsigned long long page_of(struct ra_cursor *c, const char *why)
{
	unsigned long long ofs = ra_number(c, 10, why);

	if (!c->why && (ofs & ((1ULL << STOCK_PAGE_SHIFT) - 1)))
		c->why = "offset is not a multiple of 4096 (4 KiB pages only)";
	return ofs >> STOCK_PAGE_SHIFT;
}

/* The fields of each event, as its TP_printk prints them. */
static void parse_fields(struct ra_cursor *c, struct ra_rec *r,
			 struct stock_ev *ev)
{
	unsigned long long v;

	switch (ev->type) {
	case ST_ADD:
	case ST_DELETE:
		dev_ino(c, r, "dev ", "ino ");
		lit(c, "pfn=", "expected 'pfn='");
		ra_number(c, 16, "bad pfn");
		lit(c, "ofs=", "expected 'ofs='");
		ev->first = page_of(c, "bad offset");
		lit(c, "order=", "expected 'order='");
		v = ra_number(c, 10, "bad order");
		if (!c->why && v > 30)
			c->why = "order out of range (0 to 30)";
		ev->last = ev->first + (1ULL << (v & 31)) - 1;
		break;
	case ST_GET_PAGES:
	case ST_MAP_PAGES:
		dev_ino(c, r, "dev=", "ino=");
		lit(c, "ofs=", "expected 'ofs='");
		ev->first = page_of(c, "bad first offset");
		lit(c, "-", "expected '-' in the range");
		v = ra_number(c, 10, "bad last offset");
		ev->last = v >> STOCK_PAGE_SHIFT;
		if (!c->why && ev->last < ev->first)
			c->why = "range ends before it starts";
		break;
	case ST_FAULT:
		dev_ino(c, r, "dev=", "ino=");
		lit(c, "ofs=", "expected 'ofs='");
		ev->first = ev->last = page_of(c, "bad offset");
		break;
	case ST_SYNC_RA:
	case ST_ASYNC_RA:
		dev_ino(c, r, "dev=", "ino=");
		lit(c, "index=", "expected 'index='");
		ev->first = ra_number(c, 10, "bad index");
		lit(c, "req_count=", "expected 'req_count='");
		v = ra_number(c, 10, "bad req_count");
		ev->last = ev->first + (v ? v - 1 : 0);
		/* The state before the decision follows: not needed. */
		c->p += strlen(c->p);
		break;
	case ST_BLOCK:
		/* Only that the task unplugged: its window is over. */
		c->p += strlen(c->p);
		break;
	}
	if (c->why)
		return;
	while (isspace((unsigned char)*c->p))
		c->p++;
	if (*c->p)
		c->why = "trailing text after the event's fields";
}

/*
 * The time before the event's name: "... SECONDS.FRACTION: NAME:", in
 * nanoseconds.
 */
static unsigned long long event_time(const char *line, const char *name,
				     const char **why)
{
	const char *end = name, *s, *dot = NULL;
	unsigned long long ns = 0, scale = 1000000000ULL;

	if (end - line < 3 || strncmp(end - 2, ": ", 2)) {
		*why = "expected 'TIME: ' before the event";
		return 0;
	}
	end -= 2;
	for (s = end; s > line && (isdigit((unsigned char)s[-1]) ||
				   s[-1] == '.'); s--)
		;
	if (s == end || (s > line && s[-1] != ' ')) {
		*why = "expected 'TIME: ' before the event";
		return 0;
	}
	for (; s < end; s++) {
		if (*s == '.') {
			if (dot) {
				*why = "bad time";
				return 0;
			}
			dot = s;
		} else if (!dot) {
			ns = ns * 10 + (unsigned long long)(*s - '0') *
				       1000000000ULL;
		} else if (scale > 1) {
			scale /= 10;
			ns += (unsigned long long)(*s - '0') * scale;
		}
	}
	return ns;
}

/*
 * Find one of stock_events in @line: "NAME: " after a blank, or
 * "SYS:NAME: " (perf script).  Sets *@task_end to where the task and time
 * end (the blank before the name) and returns the index, or -1.
 */
static int find_event(const char *line, const char **task_end,
		      const char **fields)
{
	unsigned int i;

	for (i = 0; i < sizeof(stock_events) / sizeof(stock_events[0]); i++) {
		const char *name = stock_events[i].name;
		size_t n = strlen(name), ns = strlen(stock_events[i].sys);
		const char *p;

		for (p = strstr(line, name); p; p = strstr(p + 1, name)) {
			const char *b = p;

			if (strncmp(p + n, ": ", 2) && p[n] != ':')
				continue;
			if ((size_t)(p - line) > ns && p[-1] == ':' &&
			    !strncmp(p - 1 - ns, stock_events[i].sys, ns))
				b = p - 1 - ns;
			if (b > line && b[-1] != ' ')
				continue;
			*task_end = b;
			*fields = p + n + 1;
			return i;
		}
	}
	return -1;
}


enum ra_parse_result stock_parse_line(const char *line, struct ra_rec *rec,
				      struct stock_ev *ev, const char **why)
{
	struct ra_cursor c = { line, NULL };
	const char *task_end, *fields;
	int i;

	memset(rec, 0, sizeof(*rec));
	memset(ev, 0, sizeof(*ev));
	i = find_event(line, &task_end, &fields);
	if (i < 0)
		return RA_PARSE_OTHER;
	ev->type = stock_events[i].type;
	ra_parse_task(&c, rec, task_end);
	if (!c.why)
		ev->ns = event_time(line, task_end, &c.why);
	if (!c.why) {
		c.p = fields;
		parse_fields(&c, rec, ev);
	}
	return ra_parse_event_end(&c, rec, why);
}

void stock_add(struct trace *t, const struct stock_ev *ev)
{
	struct stock *s = t->stock;

	if (!s) {
		s = t->stock = xcalloc(1, sizeof(*s));
		hmap_init(&s->page_map, 2);
	}
	s->ev = grow(s->ev, &s->alloc_ev, s->nr_ev, sizeof(*s->ev));
	s->ev[s->nr_ev++] = *ev;
}

/* ---- inference ---- */

static struct stock_page *page_get(struct stock *s, unsigned int file,
				   unsigned long long index)
{
	unsigned long long key[2] = { file, index };
	unsigned int i = hmap_get(&s->page_map, key);

	return i == ~0u ? NULL : &s->page[i];
}

static struct stock_page *page_new(struct stock *s, unsigned int file,
				   unsigned long long index)
{
	unsigned long long key[2] = { file, index };
	unsigned int *slot = hmap_slot(&s->page_map, key);

	if (*slot == ~0u) {
		s->page = grow(s->page, &s->alloc_page, s->nr_page,
			       sizeof(*s->page));
		*slot = s->nr_page++;
		s->page[*slot].gone = 1;
		s->page[*slot].win = ~0u;
	}
	return &s->page[*slot];
}

/* Count page @p used at @ns, once. */
static void page_use(struct stock *s, struct stock_page *p,
		     unsigned long long ns)
{
	struct stock_win *w;

	if (!p || p->gone || p->used)
		return;
	p->used = 1;
	w = &s->win[p->win];
	w->used++;
	w->lead_ns += ns > p->added_ns ? ns - p->added_ns : 0;
}

static void decide(struct stock_win *w, unsigned char trigger,
		   unsigned long long req_off, unsigned long long req_size)
{
	w->trigger = trigger;
	w->req_off = req_off;
	w->req_size = req_size;
	w->decided = 1;
}

/*
 * Decide @w by the fault before it (@before: its task's last access), if
 * there is one on its file: the faulting page is in the window (a miss;
 * the fault then maps that page) or before it (a marker).
 */
static void decide_by_fault(struct stock *s, struct stock_win *w,
			    const struct stock_ev *before)
{
	unsigned long long x;

	if (w->decided)
		return;
	w->decided = 1;
	if (!before || before->type != ST_FAULT || before->file != w->file)
		return;
	x = before->first;
	if (x >= w->start && x < w->end) {
		decide(w, TRIG_SYNC, x, 1);
		page_use(s, page_get(s, w->file, x), before->ns);
	} else if (x < w->start) {
		decide(w, TRIG_ASYNC, x, 1);
	}
}

/* The task's window being added is over. */
static void close_window(struct stock *s, struct stock_task *k)
{
	if (k->open == ~0u)
		return;
	if (!s->win[k->open].decided) {
		if (k->wait_tail != ~0u)
			s->win[k->wait_tail].next = k->open;
		else
			k->wait = k->open;
		k->wait_tail = k->open;
	}
	k->open = ~0u;
}

/*
 * Decide the task's windows that wait for an access: by the read(2)
 * access @read if it is on their file, else by the fault before them.
 */
static void decide_waiting(struct stock *s, struct stock_task *k,
			   const struct stock_ev *read)
{
	unsigned int i;

	for (i = k->wait; i != ~0u; i = s->win[i].next) {
		struct stock_win *w = &s->win[i];

		if (read && read->file == w->file && w->start >= read->first) {
			decide(w, w->start <= read->last ? TRIG_SYNC :
			       TRIG_ASYNC, read->first,
			       read->last - read->first + 1);
			continue;
		}
		decide_by_fault(s, w, k->before);
	}
	k->wait = k->wait_tail = ~0u;
}

static void on_add(struct stock *s, struct stock_task *k,
		   const struct stock_ev *e)
{
	struct stock_win *w;
	unsigned long long i;

	if (k->open != ~0u && (s->win[k->open].file != e->file ||
			       s->win[k->open].end != e->first))
		close_window(s, k);
	if (k->open == ~0u) {
		s->win = grow(s->win, &s->alloc_win, s->nr_win,
			      sizeof(*s->win));
		w = &s->win[s->nr_win];
		memset(w, 0, sizeof(*w));
		w->start = w->end = e->first;
		w->file = e->file;
		w->proc = e->proc;
		w->src = e->src;
		w->lineno = e->lineno;
		w->next = ~0u;
		w->req_off = e->first;
		if (k->ra && k->ra->file == e->file)
			decide(w, k->ra->type == ST_SYNC_RA ? TRIG_SYNC :
			       TRIG_ASYNC, k->ra->first,
			       k->ra->last - k->ra->first + 1);
		k->open = s->nr_win++;
	}
	w = &s->win[k->open];
	w->end = e->last + 1;
	for (i = e->first; i <= e->last; i++) {
		struct stock_page *p = page_new(s, e->file, i);

		if (p->win != ~0u && p->gone)
			w->twice++;
		p->added_ns = e->ns;
		p->win = k->open;
		p->used = p->gone = 0;
		w->pages++;
	}
}

static void on_delete(struct stock *s, const struct stock_ev *e)
{
	unsigned long long i;

	for (i = e->first; i <= e->last; i++) {
		struct stock_page *p = page_get(s, e->file, i);

		if (!p || p->gone)
			continue;
		if (!p->used)
			s->win[p->win].evicted++;
		p->gone = 1;
	}
}

/*
 * A read(2) access: its range is what is left of the request, and it
 * fires again for each batch of folios; the pages before the first one
 * not cached are read now.  Each read marks from where the task's
 * previous batch of the same request stopped: a batch 6.12 copies
 * without the event (its last folio dropped when locked under another's
 * read, a page read alone) is one the next event has moved past.
 */
static void on_read(struct stock *s, struct stock_task *k,
		    const struct stock_ev *e)
{
	unsigned long long i = e->first;
	struct stock_page *p;

	if (k->read && k->read->file == e->file &&
	    k->read->last == e->last && e->first >= k->read->first) {
		/* From where it stopped: past e->first if it got further. */
		for (i = k->read_done; i < e->first; i++)
			page_use(s, page_get(s, e->file, i), e->ns);
	}
	for (; i <= e->last; i++) {
		p = page_get(s, e->file, i);
		if (!p || p->gone)
			break;
		page_use(s, p, e->ns);
	}
	k->read = e;
	k->read_done = i;
}

static void on_access(struct stock *s, struct stock_task *k,
		      const struct stock_ev *e)
{
	unsigned long long i;

	s->accesses++;
	close_window(s, k);
	decide_waiting(s, k, e->type == ST_GET_PAGES ? e : NULL);
	switch (e->type) {
	case ST_GET_PAGES:
		on_read(s, k, e);
		break;
	case ST_MAP_PAGES:
		for (i = e->first; i <= e->last; i++)
			page_use(s, page_get(s, e->file, i), e->ns);
		break;
	default:
		page_use(s, page_get(s, e->file, e->first), e->ns);
		break;
	}
	k->before = e;
	k->ra = NULL;
}

/* The inferred windows as the tables' records, in the order they began. */
static void add_records(struct trace *t)
{
	struct stock *s = t->stock;
	unsigned int name[3];
	size_t i;

	for (i = 0; i < 3; i++)
		name[i] = strtab_add(&t->strs,
				     xstrndup(trigger_names[i],
					      strlen(trigger_names[i])));
	for (i = 0; i < s->nr_win; i++) {
		const struct stock_win *w = &s->win[i];
		struct ra_win *r = trace_new_rec(t);

		r->lineno = w->lineno;
		r->src = w->src;
		r->file = w->file;
		r->proc = w->proc;
		r->pattern = name[w->trigger];
		r->req_off = w->req_off;
		r->req_size = w->req_size;
		r->start = w->start;
		r->size = w->end - w->start;
		r->async = w->trigger == TRIG_ASYNC;
		r->untold = w->trigger == TRIG_UNKNOWN;
		r->actual = w->pages;
	}
}

void stock_infer(struct trace *t)
{
	struct stock *s = t->stock;
	struct stock_task *k;
	size_t i;

	if (!s)
		return;
	s->task = xmalloc(t->nr_procs * sizeof(*s->task));
	for (i = 0; i < t->nr_procs; i++) {
		k = &s->task[i];
		memset(k, 0, sizeof(*k));
		k->open = k->wait = k->wait_tail = ~0u;
	}
	for (i = 0; i < s->nr_ev; i++) {
		const struct stock_ev *e = &s->ev[i];

		k = &s->task[e->proc];
		switch (e->type) {
		case ST_ADD:
			on_add(s, k, e);
			break;
		case ST_DELETE:
			on_delete(s, e);
			break;
		case ST_SYNC_RA:
		case ST_ASYNC_RA:
			close_window(s, k);
			k->ra = e;
			break;
		case ST_BLOCK:
			close_window(s, k);
			break;
		default:
			on_access(s, k, e);
			break;
		}
	}
	for (i = 0; i < t->nr_procs; i++) {
		close_window(s, &s->task[i]);
		decide_waiting(s, &s->task[i], NULL);
	}
	for (i = 0; i < s->nr_page; i++) {
		const struct stock_page *p = &s->page[i];

		if (!p->gone && !p->used)
			s->win[p->win].cached++;
	}
	/*
	 * Decisions name their windows: the inferred ones check them, if
	 * there are any; else the stock events served nothing.
	 */
	if (t->nr) {
		s->agreement = s->nr_win > 0;
		if (!s->agreement) {
			t->parsed -= s->nr_ev;
			t->other += s->nr_ev;
		}
		return;
	}
	add_records(t);
	s->inferred = 1;
}

/* ---- the inference checked against the decisions of the same run ---- */

struct agree {
	unsigned long decisions, agreed, explained, trig_known, trig_agreed;
};

/* What a decision's windows add up to, for stock_agreement. */
struct attributed {
	unsigned long long pages;
	unsigned char known, async;	/* the last told trigger */
};

/* Did window @w begin before decision @r in the input? */
static int began_before(const struct stock_win *w, const struct ra_win *r)
{
	return w->src < r->src || (w->src == r->src && w->lineno < r->lineno);
}

static const struct trace *sort_trace;

/* Windows by task (pid), each task's in the order they began. */
static int cmp_by_pid(const void *a, const void *b)
{
	const struct stock *s = sort_trace->stock;
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	unsigned long px = sort_trace->procs[s->win[x].proc].pid;
	unsigned long py = sort_trace->procs[s->win[y].proc].pid;

	if (px != py)
		return px < py ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Each task's windows: order[cur[k]] to order[end[k] - 1], k by pid. */
struct task_runs {
	unsigned int *order;
	size_t *cur, *end;
	struct hmap map;		/* pid -> k */
};

static void task_runs_build(const struct trace *t, struct task_runs *tr)
{
	const struct stock *s = t->stock;
	unsigned long long key[1];
	unsigned int *slot, nr = 0;
	size_t i;

	tr->order = xmalloc((s->nr_win + 1) * sizeof(*tr->order));
	for (i = 0; i < s->nr_win; i++)
		tr->order[i] = i;
	sort_trace = t;
	qsort(tr->order, s->nr_win, sizeof(*tr->order), cmp_by_pid);
	tr->cur = xmalloc((s->nr_win + 1) * sizeof(*tr->cur));
	tr->end = xmalloc((s->nr_win + 1) * sizeof(*tr->end));
	hmap_init(&tr->map, 1);
	for (i = 0; i < s->nr_win; i++) {
		key[0] = t->procs[s->win[tr->order[i]].proc].pid;
		slot = hmap_slot(&tr->map, key);
		if (*slot == ~0u) {
			*slot = nr++;
			tr->cur[*slot] = i;
		}
		tr->end[*slot] = i + 1;
	}
}

static void task_runs_free(struct task_runs *tr)
{
	hmap_free(&tr->map);
	free(tr->order);
	free(tr->cur);
	free(tr->end);
}

/* Is window @w on decision @r's file, starting inside its window? */
static int in_decision(const struct trace *t, const struct stock_win *w,
		       const struct ra_win *r)
{
	const struct ra_file *wf = &t->files[w->file], *rf = rec_file(t, r);

	return wf->major == rf->major && wf->minor == rf->minor &&
	       wf->ino == rf->ino && w->start >= r->start &&
	       w->start - r->start < r->size;
}

/*
 * A trace with decisions and stock events (a patched kernel recording
 * both): the decision each inferred window is attributed to, or ~0u.  A
 * decision's windows are those its task began between its previous
 * decision and this one, on the decision's file and starting inside its
 * window.
 */
static unsigned int *attribute_windows(const struct trace *t)
{
	const struct stock *s = t->stock;
	unsigned long long key[1];
	struct task_runs tr;
	unsigned int *dec, k;
	size_t i;

	task_runs_build(t, &tr);
	dec = xmalloc((s->nr_win + 1) * sizeof(*dec));
	memset(dec, 0xff, (s->nr_win + 1) * sizeof(*dec));
	for (i = 0; i < t->nr; i++) {
		const struct ra_win *r = &t->recs[i];

		key[0] = rec_proc(t, r)->pid;
		k = hmap_get(&tr.map, key);
		for (; k != ~0u && tr.cur[k] < tr.end[k]; tr.cur[k]++) {
			unsigned int w = tr.order[tr.cur[k]];

			if (!began_before(&s->win[w], r))
				break;
			if (in_decision(t, &s->win[w], r))
				dec[w] = i;
		}
	}
	task_runs_free(&tr);
	return dec;
}

/* Each decision's windows: their pages and the last trigger told. */
static struct attributed *attribute(const struct trace *t,
				    unsigned long *explained)
{
	const struct stock *s = t->stock;
	unsigned int *dec = attribute_windows(t);
	struct attributed *per = xcalloc(t->nr + 1, sizeof(*per));
	size_t i;

	for (i = 0; i < s->nr_win; i++) {
		const struct stock_win *w = &s->win[i];
		struct attributed *a;

		if (dec[i] == ~0u)
			continue;
		a = &per[dec[i]];
		(*explained)++;
		a->pages += w->pages;
		if (w->trigger != TRIG_UNKNOWN) {
			a->known = 1;
			a->async = w->trigger == TRIG_ASYNC;
		}
	}
	free(dec);
	return per;
}

static void print_agree_row(FILE *out, const char *name, const struct agree *a)
{
	fprintf(out, "%-12s %9lu %7lu %7.2f %9lu %9lu\n", name, a->decisions,
		a->agreed,
		a->decisions ? 100.0 * a->agreed / a->decisions : 100.0,
		a->trig_known, a->trig_agreed);
}

/*
 * The decisions against the windows attributed to them, by pattern: they
 * agree when the windows' pages are the decision's nr_read within one
 * page, and their trigger agrees when sync/async is the decision's.
 */
static void print_agreement(FILE *out, const struct trace *t)
{
	unsigned int *slot, nr_pat = 0, *pat_row;
	unsigned long long key[1];
	struct agree *rows, all = { 0 };
	struct attributed *per;
	struct hmap pats;
	size_t i;

	per = attribute(t, &all.explained);
	rows = xcalloc(t->nr + 1, sizeof(*rows));
	pat_row = xmalloc((t->nr + 1) * sizeof(*pat_row));
	hmap_init(&pats, 1);
	for (i = 0; i < t->nr; i++) {
		const struct ra_win *r = &t->recs[i];
		const struct attributed *a = &per[i];
		struct agree *row;

		if (r->defer || (!r->actual && !a->pages))
			continue;
		key[0] = r->pattern;
		slot = hmap_slot(&pats, key);
		if (*slot == ~0u) {
			pat_row[nr_pat] = r->pattern;
			*slot = nr_pat++;
		}
		row = &rows[*slot];
		row->decisions++;
		row->agreed += a->pages + 1 >= r->actual &&
			       a->pages <= r->actual + 1;
		row->trig_known += a->known;
		row->trig_agreed += a->known && a->async == !!r->async;
	}
	fprintf(out, "# stock_agreement\n%-12s %9s %7s %7s %9s %9s\n",
		"pattern", "decisions", "agreed", "pct", "triggers",
		"agreed");
	for (i = 0; i < nr_pat; i++) {
		print_agree_row(out, rec_str(t, pat_row[i]), &rows[i]);
		all.decisions += rows[i].decisions;
		all.agreed += rows[i].agreed;
		all.trig_known += rows[i].trig_known;
		all.trig_agreed += rows[i].trig_agreed;
	}
	print_agree_row(out, "all", &all);
	fprintf(out, "%-12s %9zu %7lu\n", "windows", t->stock->nr_win,
		all.explained);
	hmap_free(&pats);
	free(per);
	free(rows);
	free(pat_row);
}

/* ---- tables ---- */

void ra_outcome_sum(struct ra_outcome *sum, const struct ra_outcome *o)
{
	sum->windows += o->windows;
	sum->stalls += o->stalls;
	sum->pages += o->pages;
	sum->used += o->used;
	sum->evicted += o->evicted;
	sum->cached += o->cached;
	sum->twice += o->twice;
	sum->lead_ns += o->lead_ns;
}

static void outcome_add(struct ra_outcome *o, const struct stock_win *w)
{
	const struct ra_outcome one = {
		.windows = 1,
		.stalls = w->trigger == TRIG_SYNC,
		.pages = w->pages,
		.used = w->used,
		.evicted = w->evicted,
		.cached = w->cached,
		.twice = w->twice,
		.lead_ns = w->lead_ns,
	};

	ra_outcome_sum(o, &one);
}

/*
 * windows, stalls, pages read, used, evicted unused, cached unused at the
 * end, read twice, used/read, mean lead (ms), and the flag: "thrashing"
 * when a tenth or more of what was read left the cache unused.  What
 * @told (RA_TOLD_*) does not say prints as "-".
 */
void ra_outcome_print(FILE *out, const struct ra_outcome *o,
		      unsigned int told)
{
	int uses = told & RA_TOLD_USES;

	fprintf(out, " %7lu %6lu %8llu", o->windows, o->stalls, o->pages);
	if (uses)
		fprintf(out, " %8llu", o->used);
	else
		fprintf(out, " %8s", "-");
	fprintf(out, " %8llu", o->evicted);
	if (uses && o->pages)
		fprintf(out, " %8llu", o->cached);
	else
		fprintf(out, " %8s", "-");
	if (told & RA_TOLD_TWICE)
		fprintf(out, " %6llu", o->twice);
	else
		fprintf(out, " %6s", "-");
	if (uses && o->pages)
		fprintf(out, " %9.3f", (double)o->used / o->pages);
	else
		fprintf(out, " %9s", "-");
	if (uses && o->used)
		fprintf(out, " %8.3f", o->lead_ns / 1e6 / o->used);
	else
		fprintf(out, " %8s", "-");
	fprintf(out, " %s\n", ra_outcome_thrashing(o) ? "thrashing" : "-");
}

/* The columns ra_outcome_print prints, after a table's key columns. */
void ra_outcome_header(FILE *out)
{
	fprintf(out, " %7s %6s %8s %8s %8s %8s %6s %9s %8s %s\n", "windows",
		"stalls", "pages", "used", "evicted", "cached", "twice",
		"used/read", "lead_ms", "flag");
}

int ra_outcome_thrashing(const struct ra_outcome *o)
{
	return o->evicted && o->evicted * 10 >= o->pages;
}

int stock_has_uses(const struct trace *t)
{
	return t->stock && t->stock->accesses > 0;
}

/* A stream is (pid, dev, ino), as streams.c numbers them. */
static void stream_key(const struct trace *t, unsigned int proc,
		       unsigned int file, unsigned long long key[3])
{
	const struct ra_file *f = &t->files[file];

	key[0] = t->procs[proc].pid;
	key[1] = (unsigned long long)f->major << 32 | f->minor;
	key[2] = f->ino;
}

struct ra_outcome *stock_outcomes(const struct trace *t)
{
	const struct stock *s = t->stock;
	unsigned long long key[3];
	struct ra_outcome *o;
	struct hmap map;
	size_t i;

	if (!s || (!s->inferred && !s->agreement))
		return NULL;
	o = xcalloc(t->nr_streams, sizeof(*o));
	if (s->inferred) {
		for (i = 0; i < s->nr_win; i++)
			outcome_add(&o[t->recs[i].stream], &s->win[i]);
		return o;
	}
	/*
	 * The decisions' streams: a window counts in the stream of its task
	 * and file, if the task made decisions on that file.
	 */
	hmap_init(&map, 3);
	for (i = 0; i < t->nr_streams; i++) {
		const struct ra_win *r = &t->recs[t->streams[i].recs[0]];

		stream_key(t, r->proc, r->file, key);
		*hmap_slot(&map, key) = i;
	}
	for (i = 0; i < s->nr_win; i++) {
		unsigned int k;

		stream_key(t, s->win[i].proc, s->win[i].file, key);
		k = hmap_get(&map, key);
		if (k != ~0u)
			outcome_add(&o[k], &s->win[i]);
	}
	hmap_free(&map);
	return o;
}

/*
 * What became of each record's pages (t->nr of them): an inferred
 * window's own, or, when the records are decisions (*@decisions set),
 * the sum over the windows attributed to each.  NULL when no window was
 * inferred.
 */
struct ra_outcome *stock_rec_outcomes(const struct trace *t, int *decisions)
{
	const struct stock *s = t->stock;
	struct ra_outcome *o;
	unsigned int *dec;
	size_t i;

	if (!s || (!s->inferred && !s->agreement))
		return NULL;
	o = xcalloc(t->nr, sizeof(*o));
	*decisions = !s->inferred;
	if (s->inferred) {
		for (i = 0; i < s->nr_win; i++)
			outcome_add(&o[i], &s->win[i]);
		return o;
	}
	dec = attribute_windows(t);
	for (i = 0; i < s->nr_win; i++)
		if (dec[i] != ~0u)
			outcome_add(&o[dec[i]], &s->win[i]);
	free(dec);
	return o;
}

void stock_print(FILE *out, const struct trace *t)
{
	const struct stock *s = t->stock;
	struct ra_outcome *o, all = { 0 };
	unsigned long long key[2];
	const struct ra_file *f;
	const struct ra_proc *p;
	unsigned int *slot, nr_files = 0, *order, told;
	struct hmap map;
	size_t i;

	if (!s || (!s->inferred && !s->agreement))
		return;
	if (s->agreement)
		print_agreement(out, t);
	told = RA_TOLD_TWICE | (s->accesses > 0 ? RA_TOLD_USES : 0);
	fprintf(out, "# stock_trace\n%-18s %s\n", "what", "value");
	fprintf(out, "%-18s %zu\n", "events", s->nr_ev);
	fprintf(out, "%-18s %lu\n", "access_events", s->accesses);
	fprintf(out, "%-18s %zu\n", "windows_inferred", s->nr_win);
	fprintf(out, "%-18s %s\n", "trigger",
		"sync/async from the access beside the window or mainline's ra event; no decision names, no markers");
	if (!(told & RA_TOLD_USES))
		fprintf(out, "%-18s %s\n", "use",
			"no access events (6.1 has none): which pages were used cannot be told");

	o = stock_outcomes(t);
	for (i = 0; i < s->nr_win; i++)
		outcome_add(&all, &s->win[i]);
	fprintf(out, "# outcomes\n%-6s %-8s %-16s %-6s %-10s", "stream", "pid",
		"comm", "dev", "ino");
	ra_outcome_header(out);
	for (i = 0; i < t->nr_streams; i++) {
		const struct ra_win *r = &t->recs[t->streams[i].recs[0]];

		f = rec_file(t, r);
		p = rec_proc(t, r);
		fprintf(out, "%-6zu %-8lu ", i + 1, p->pid);
		print_field(out, rec_str(t, p->comm), 16);
		fprintf(out, " %02x:%02x  %-10llu", f->major, f->minor, f->ino);
		ra_outcome_print(out, &o[i], told);
	}
	free(o);

	/* Per file, in order of first appearance. */
	o = xcalloc(t->nr_files, sizeof(*o));
	order = xmalloc(t->nr_files * sizeof(*order));
	hmap_init(&map, 2);
	for (i = 0; i < s->nr_win; i++) {
		f = &t->files[s->win[i].file];
		key[0] = (unsigned long long)f->major << 32 | f->minor;
		key[1] = f->ino;
		slot = hmap_slot(&map, key);
		if (*slot == ~0u) {
			order[nr_files] = s->win[i].file;
			*slot = nr_files++;
		}
		outcome_add(&o[*slot], &s->win[i]);
	}
	hmap_free(&map);
	fprintf(out, "# outcomes_per_file\n%-6s %-10s", "dev", "ino");
	ra_outcome_header(out);
	for (i = 0; i < nr_files; i++) {
		f = &t->files[order[i]];
		fprintf(out, "%02x:%02x  %-10llu", f->major, f->minor, f->ino);
		ra_outcome_print(out, &o[i], told);
	}
	fprintf(out, "%-17s", "all");
	ra_outcome_print(out, &all, told);
	free(o);
	free(order);
}

void stock_free(struct stock *s)
{
	if (!s)
		return;
	free(s->ev);
	free(s->win);
	free(s->page);
	hmap_free(&s->page_map);
	free(s->task);
	free(s);
}
