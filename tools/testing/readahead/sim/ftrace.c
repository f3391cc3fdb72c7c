// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace.c - the page cache events of 6.12's stock tracepoints
 * (include/trace/events/filemap.h): fired for their probes (ours' window
 * outcomes, mm/readahead_outcome.c), and with --ftrace FILE written as
 * `trace-cmd report` prints them, with ours' readahead_outcome events.
 *
 * Owns the writer and the folios' page frame numbers.  pagecache.c calls it
 * when a folio enters the page cache (mm_filemap_add_to_page_cache) or
 * leaves it, whatever removes it: reclaim, fadvise DONTNEED
 * (mm_filemap_delete_from_page_cache); reader.c where 6.12 fires the
 * others: at the end of a successful filemap_get_pages()
 * (mm_filemap_get_pages), at the entry of filemap_fault()
 * (mm_filemap_fault) and after fault-around's filemap_map_pages()
 * (mm_filemap_map_pages); blkq.c when a task inserts a request in its
 * disk's queue (block_rq_insert: the end of its plug, so the end of the
 * window it read).  Every line is the task that runs the step
 * (current: its comm and pid), the CPU it runs on (0 without numbered
 * CPUs), the simulated time in seconds with microseconds, the event and
 * its fields in the tracepoint's own format.  The first line is
 * trace-cmd's `cpus=N` (the machine's cpus=, 1 when they are not
 * numbered: every event is then CPU 0's).
 *
 * A page frame number is handed out when a folio is added, from a
 * counter that only grows, aligned to the folio's size (as the buddy
 * allocator aligns a compound page): unique for the run, the same on the
 * folio's delete line, the same on every run.  A folio cached before the
 * trace began (pre_cached=) gets one when it leaves, as a trace started
 * after the file was written shows it: a delete with no add before it.
 * The numbers live in a table by folio (open addressing), not in the
 * folio: struct sim_page keeps its 64 bytes, and without --ftrace
 * nothing here runs.
 */
#include "sim.h"

#include <string.h>

#include <trace/events/filemap.h>

#define PFN_BASE	0x100000UL	/* the first: 4 GB into the memory map */

FILE *ftrace_file;

struct pfn_slot {
	const struct folio *folio;	/* NULL: free */
	unsigned long pfn;
};

static struct pfn_slot *slots;
static unsigned long slot_mask;		/* size - 1, a power of two */
static unsigned long nr_used;
static unsigned long next_pfn;

static unsigned long slot_of(const struct folio *f)
{
	uint64_t h = (uint64_t)(uintptr_t)f * 0x9E3779B97F4A7C15ULL;

	return (unsigned long)(h >> 32) & slot_mask;
}

static void table_put(const struct folio *f, unsigned long pfn);

static void table_grow(void)
{
	struct pfn_slot *old = slots;
	unsigned long i, old_size = slots ? slot_mask + 1 : 0;
	unsigned long size = old_size ? old_size * 2 : 4096;

	slots = calloc(size, sizeof(*slots));
	if (!slots)
		sim_die("sim: out of host memory");
	slot_mask = size - 1;
	nr_used = 0;
	for (i = 0; i < old_size; i++)
		if (old[i].folio)
			table_put(old[i].folio, old[i].pfn);
	free(old);
}

static void table_put(const struct folio *f, unsigned long pfn)
{
	unsigned long i;

	if (!slots || (nr_used + 1) * 2 > slot_mask + 1)
		table_grow();
	for (i = slot_of(f); slots[i].folio; i = (i + 1) & slot_mask)
		if (slots[i].folio == f)
			sim_die("sim: ftrace: a folio added twice");
	slots[i].folio = f;
	slots[i].pfn = pfn;
	nr_used++;
}

/* The pfn of @f, taken out of the table; 0 if it has none. */
static unsigned long table_take(const struct folio *f)
{
	unsigned long i, j, pfn;

	if (!slots)
		return 0;
	for (i = slot_of(f); slots[i].folio != f; i = (i + 1) & slot_mask)
		if (!slots[i].folio)
			return 0;
	pfn = slots[i].pfn;
	/* Linear probing: shift back the entries the hole would hide. */
	for (j = (i + 1) & slot_mask; slots[j].folio; j = (j + 1) & slot_mask) {
		unsigned long home = slot_of(slots[j].folio);

		if (((j - home) & slot_mask) >= ((j - i) & slot_mask)) {
			slots[i] = slots[j];
			i = j;
		}
	}
	slots[i].folio = NULL;
	nr_used--;
	return pfn;
}

static unsigned long pfn_new(unsigned int order)
{
	unsigned long nr = 1UL << order;
	unsigned long pfn = (next_pfn + nr - 1) & ~(nr - 1);

	next_pfn = pfn + nr;
	return pfn;
}

void ftrace_start(FILE *f, unsigned int cpus)
{
	ftrace_file = f;
	next_pfn = PFN_BASE;
	fprintf(f, "cpus=%u\n", cpus ? cpus : 1);
}

void ftrace_stop(void)
{
	if (!ftrace_file)
		return;
	fclose(ftrace_file);
	ftrace_file = NULL;
	free(slots);
	slots = NULL;
	nr_used = 0;
}

/* One event of the current task, now. */
static void emit(const char *event, const char *fields)
{
	int cpu = sim_task_cpu(current);
	uint64_t us = sim_now / NS_PER_US;

	fprintf(ftrace_file, "%16s-%-7d [%03d] %6llu.%06llu: %s: %s\n",
		current->comm, current->pid, cpu < 0 ? 0 : cpu,
		(unsigned long long)(us / 1000000),
		(unsigned long long)(us % 1000000), event, fields);
}

static void folio_event(const char *event, const struct folio *f,
			unsigned long pfn)
{
	const struct sim_inode *si = SI(f->mapping->host);
	char fields[160];

	snprintf(fields, sizeof(fields),
		 "dev %d:%d ino %lx pfn=0x%lx ofs=%lu order=%u",
		 si->part->major, si->part->minor,
		 (unsigned long)si->inode.i_ino, pfn,
		 (unsigned long)f->index << PAGE_SHIFT, f->order);
	emit(event, fields);
}

void ftrace_add(struct folio *f)
{
	unsigned long pfn;

	trace_mm_filemap_add_to_page_cache(f);
	if (!ftrace_file)
		return;
	pfn = pfn_new(f->order);

	table_put(f, pfn);
	folio_event("mm_filemap_add_to_page_cache", f, pfn);
}

void ftrace_delete(struct folio *f)
{
	unsigned long pfn;

	trace_mm_filemap_delete_from_page_cache(f);
	if (!ftrace_file)
		return;
	pfn = table_take(f);

	if (!pfn)
		pfn = pfn_new(f->order);
	folio_event("mm_filemap_delete_from_page_cache", f, pfn);
}

/* dev=, ino= and the byte range of pages [first, last]. */
static void range_event(const char *event, const struct sim_inode *si,
			pgoff_t first, pgoff_t last)
{
	char fields[160];

	snprintf(fields, sizeof(fields), "dev=%d:%d ino=%lx ofs=%lld-%lld",
		 si->part->major, si->part->minor,
		 (unsigned long)si->inode.i_ino,
		 (long long)first << PAGE_SHIFT,
		 (((long long)last + 1) << PAGE_SHIFT) - 1);
	emit(event, fields);
}

void ftrace_get_pages(struct sim_inode *si, uint64_t pos, uint64_t count)
{
	trace_mm_filemap_get_pages(&si->inode.i_data, pos >> PAGE_SHIFT,
				   DIV_ROUND_UP(pos + count, PAGE_SIZE) - 1);
	if (!ftrace_file)
		return;
	range_event("mm_filemap_get_pages", si, pos >> PAGE_SHIFT,
		    DIV_ROUND_UP(pos + count, PAGE_SIZE) - 1);
}

void ftrace_fault(struct sim_inode *si, pgoff_t pgoff)
{
	char fields[160];

	trace_mm_filemap_fault(&si->inode.i_data, pgoff);
	if (!ftrace_file)
		return;
	snprintf(fields, sizeof(fields), "dev=%d:%d ino=%lx ofs=%lld",
		 si->part->major, si->part->minor,
		 (unsigned long)si->inode.i_ino,
		 (long long)pgoff << PAGE_SHIFT);
	emit("mm_filemap_fault", fields);
}

void ftrace_map_pages(struct sim_inode *si, pgoff_t start, pgoff_t end)
{
	trace_mm_filemap_map_pages(&si->inode.i_data, start, end);
	if (!ftrace_file)
		return;
	range_event("mm_filemap_map_pages", si, start, end);
}

/*
 * Ours' readahead_outcome event, a tracepoint line as the harness's
 * <linux/tracepoint.h> prints it: written after the task's prefix, at
 * the simulated time; ours' other events are in the file already, as
 * the decisions' log lines.
 */
void ftrace_tracepoint(const char *line)
{
	static const char event[] = ": readahead_outcome: ";
	const char *text = strstr(line, event);

	if (ftrace_file && text)
		emit("readahead_outcome", text + sizeof(event) - 1);
}

/*
 * A read request inserted by the current task: 6.12's block_rq class
 * format, the whole disk's device, no command bytes, I/O priority class
 * none.
 */
void ftrace_rq_insert(uint32_t dev, uint64_t sector, uint64_t nsect)
{
	char fields[160];

	snprintf(fields, sizeof(fields), "%u,%u R %llu () %llu + %llu none,0,0 [%s]",
		 (unsigned int)MAJOR(dev), (unsigned int)MINOR(dev),
		 (unsigned long long)nsect * 512, (unsigned long long)sector,
		 (unsigned long long)nsect, current->comm);
	emit("block_rq_insert", fields);
}
