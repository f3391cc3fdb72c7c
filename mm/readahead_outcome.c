// SPDX-License-Identifier: GPL-2.0-only
/*
 * What became of each readahead window.
 *
 * Owns /sys/kernel/debug/readahead/outcome_enable and outcomes
 * (CONFIG_READAHEAD_DEBUGFS).  While outcome_enable is 1, every page a
 * readahead decision reads is followed until it is used or leaves the
 * page cache, and the readahead:readahead_outcome tracepoint reports the
 * window once all its pages are settled; outcomes sums the windows
 * reported per pattern.  Writing 0 stops it and reports the windows
 * still followed, their unsettled pages as cached.
 *
 * It is built on tracepoints only, whose probes it registers while it is
 * on: the page cache's (a folio added, a folio deleted, the pages a
 * read(2) copies, a page fault, a fault-around) and readahead_decision.
 * The pages one task adds to one file wait, pending, for that task's
 * next decision on the file, which claims those inside its window;
 * pages no decision claims (a write's, a page read alone) are not
 * followed, and are counted as such.  A page is used when a read(2)
 * range, a fault or a fault-around covers it while it is cached, and
 * evicted when it leaves the cache (reclaim or truncation) before that.
 * The lead time of a used page runs from its window's first page
 * entering the cache to the page's first use.
 *
 * One spinlock guards it all, taken once per event: it is a diagnostic,
 * switched on for the time of a measurement.  The page deletions arrive
 * with the mapping's i_pages lock held, interrupts off.
 */

#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>

#include <trace/events/filemap.h>
#include <trace/events/readahead.h>

#define RA_OUTCOME_MAX_PAGES	4096UL	/* the first pages of a window */
#define RA_OUTCOME_MAX_WINDOWS	16384U	/* followed at once */
#define RA_OUTCOME_HASH_BITS	10	/* windows, hashed by mapping */
#define RA_OUTCOME_PENDING_BITS	8	/* tasks adding pages, by task */
#define RA_OUTCOME_PENDING_PROBE 4	/* slots a task may take */
#define RA_OUTCOME_PENDING	BIT(RA_OUTCOME_PENDING_BITS)

/* The pages one task added to one file since its last decision there. */
struct ra_pending {
	struct task_struct *task;	/* NULL: the slot is free */
	struct address_space *mapping;
	pgoff_t first;			/* pages [first, first + span) */
	unsigned long span;
	unsigned long nr;		/* bits set in @added */
	u64 added_ns;			/* when the first one was added */
	DECLARE_BITMAP(added, RA_OUTCOME_MAX_PAGES);
};

/* A window followed: its outcome so far, and its pages still open. */
struct ra_window {
	struct hlist_node hash;		/* in ra_windows, by mapping */
	struct list_head age;		/* in ra_window_age, oldest first */
	/*
	 * A key, never dereferenced: a mapping's pages all leave the cache,
	 * settling its windows, before the mapping is freed.
	 */
	struct address_space *mapping;
	pgoff_t first;			/* pages [first, first + span) */
	unsigned long span;
	u64 read_ns;
	struct ra_window_outcome o;
	unsigned long open[];		/* read, not yet used or gone */
};

enum ra_outcome_stat {
	RA_OUT_WINDOWS,
	RA_OUT_STALLS,
	RA_OUT_PAGES,
	RA_OUT_USED,
	RA_OUT_EVICTED,
	RA_OUT_CACHED,
	RA_OUT_LEAD_NS,
	RA_OUT_NR,
};

static DEFINE_MUTEX(ra_outcome_mutex);	/* serializes on and off */
static DEFINE_SPINLOCK(ra_outcome_lock);	/* guards all below */
static struct ra_pending *ra_pending;	/* NULL while off */
static DEFINE_HASHTABLE(ra_windows, RA_OUTCOME_HASH_BITS);
static LIST_HEAD(ra_window_age);
static unsigned int ra_nr_windows;
static u64 ra_outcome_stats[RA_NR_PATTERNS][RA_OUT_NR];
static u64 ra_outcome_untracked;	/* pages added that no window claimed */
static u64 ra_outcome_lost;		/* windows not followed: no memory */

static struct ra_pending *ra_pending_probe(struct task_struct *task,
					   unsigned int i)
{
	unsigned int h = hash_ptr(task, RA_OUTCOME_PENDING_BITS);

	return &ra_pending[(h + i) % RA_OUTCOME_PENDING];
}

/* @task's slot, or NULL. */
static struct ra_pending *ra_pending_find(struct task_struct *task)
{
	unsigned int i;

	for (i = 0; i < RA_OUTCOME_PENDING_PROBE; i++)
		if (ra_pending_probe(task, i)->task == task)
			return ra_pending_probe(task, i);
	return NULL;
}

/* Free @p: its pages are no window's. */
static void ra_pending_drop(struct ra_pending *p)
{
	if (p->task)
		ra_outcome_untracked += p->nr;
	p->task = NULL;
}

/* @task's slot, else a free one, else the oldest it may take. */
static struct ra_pending *ra_pending_slot(struct task_struct *task)
{
	struct ra_pending *p = ra_pending_find(task), *q;
	unsigned int i;

	for (i = 0; !p && i < RA_OUTCOME_PENDING_PROBE; i++) {
		q = ra_pending_probe(task, i);
		if (!q->task)
			return q;
	}
	for (i = 0; !p && i < RA_OUTCOME_PENDING_PROBE; i++) {
		q = ra_pending_probe(task, i);
		if (!p || q->added_ns < p->added_ns)
			p = q;
	}
	return p;
}

/* Give @p to @task's pages of @mapping from @index on. */
static void ra_pending_start(struct ra_pending *p, struct task_struct *task,
			     struct address_space *mapping, pgoff_t index)
{
	ra_pending_drop(p);
	p->task = task;
	p->mapping = mapping;
	p->first = index;
	p->span = 0;
	p->nr = 0;
	p->added_ns = ktime_get_ns();
	bitmap_zero(p->added, RA_OUTCOME_MAX_PAGES);
}

static void ra_outcome_count(const struct ra_window_outcome *o)
{
	u64 *row = ra_outcome_stats[o->pattern];

	row[RA_OUT_WINDOWS]++;
	row[RA_OUT_STALLS] += o->stall;
	row[RA_OUT_PAGES] += o->pages;
	row[RA_OUT_USED] += o->used;
	row[RA_OUT_EVICTED] += o->evicted;
	row[RA_OUT_CACHED] += o->cached;
	row[RA_OUT_LEAD_NS] += o->lead_ns;
}

/* Report @w with its open pages as cached, and forget it. */
static void ra_window_report(struct ra_window *w, enum ra_outcome_end end)
{
	w->o.cached = w->o.pages - w->o.used - w->o.evicted;
	w->o.end = end;
	trace_readahead_outcome(&w->o);
	ra_outcome_count(&w->o);
	hash_del(&w->hash);
	list_del(&w->age);
	ra_nr_windows--;
	kfree(w);
}

/* Settle @w's open pages in [@lo, @hi]: used at @now, or evicted. */
static void ra_window_settle(struct ra_window *w, pgoff_t lo, pgoff_t hi,
			     bool used, u64 now)
{
	pgoff_t i, end = min(hi + 1, w->first + w->span);

	for (i = max(lo, w->first); i < end; i++) {
		if (!__test_and_clear_bit(i - w->first, w->open))
			continue;
		if (used) {
			w->o.used++;
			w->o.lead_ns += now - w->read_ns;
		} else {
			w->o.evicted++;
		}
	}
	if (w->o.used + w->o.evicted == w->o.pages)
		ra_window_report(w, RA_OUTCOME_SETTLED);
}

/* Pages [@lo, @hi] of @mapping are used, or left the cache. */
static void ra_outcome_pages(struct address_space *mapping, pgoff_t lo,
			     pgoff_t hi, bool used)
{
	u64 now = used ? ktime_get_ns() : 0;
	struct ra_window *w;
	struct hlist_node *tmp;
	unsigned long flags;
	unsigned int i;
	pgoff_t j;

	spin_lock_irqsave(&ra_outcome_lock, flags);
	if (!ra_pending)
		goto out;
	hash_for_each_possible_safe(ra_windows, w, tmp, hash,
				    (unsigned long)mapping)
		if (w->mapping == mapping && lo < w->first + w->span &&
		    hi >= w->first)
			ra_window_settle(w, lo, hi, used, now);
	if (used)
		goto out;
	/* A pending page that leaves is no window's to claim. */
	for (i = 0; i < RA_OUTCOME_PENDING; i++) {
		struct ra_pending *p = &ra_pending[i];

		if (!p->task || p->mapping != mapping)
			continue;
		for (j = max(lo, p->first); j <= hi && j < p->first + p->span;
		     j++)
			if (__test_and_clear_bit(j - p->first, p->added))
				p->nr--;
	}
out:
	spin_unlock_irqrestore(&ra_outcome_lock, flags);
}

static void ra_outcome_add_probe(void *unused, struct folio *folio)
{
	struct address_space *mapping = folio->mapping;
	pgoff_t index = folio->index, i;
	pgoff_t end = index + folio_nr_pages(folio);
	struct ra_pending *p;
	unsigned long flags;

	spin_lock_irqsave(&ra_outcome_lock, flags);
	if (!ra_pending)
		goto out;
	p = ra_pending_slot(current);
	if (p->task != current || p->mapping != mapping || index < p->first)
		ra_pending_start(p, current, mapping, index);
	for (i = index; i < end; i++) {
		if (i - p->first >= RA_OUTCOME_MAX_PAGES) {
			ra_outcome_untracked += end - i;
			break;
		}
		if (!__test_and_set_bit(i - p->first, p->added))
			p->nr++;
	}
	p->span = max(p->span, min(end - p->first, RA_OUTCOME_MAX_PAGES));
out:
	spin_unlock_irqrestore(&ra_outcome_lock, flags);
}

static void ra_outcome_delete_probe(void *unused, struct folio *folio)
{
	ra_outcome_pages(folio->mapping, folio->index,
			 folio->index + folio_nr_pages(folio) - 1, false);
}

static void ra_outcome_read_probe(void *unused, struct address_space *mapping,
				  pgoff_t index, pgoff_t last_index)
{
	ra_outcome_pages(mapping, index, last_index, true);
}

static void ra_outcome_fault_probe(void *unused,
				   struct address_space *mapping, pgoff_t index)
{
	ra_outcome_pages(mapping, index, index, true);
}

/* Claim @p's pages inside @w's window for @w; false if there are none. */
static bool ra_window_claim(struct ra_window *w, struct ra_pending *p)
{
	pgoff_t i, lo = max(w->first, p->first);
	pgoff_t hi = min(w->first + w->span, p->first + p->span);

	for (i = lo; i < hi; i++) {
		if (!test_bit(i - p->first, p->added))
			continue;
		__set_bit(i - w->first, w->open);
		w->o.pages++;
	}
	p->nr -= w->o.pages;
	ra_pending_drop(p);
	w->read_ns = p->added_ns;
	return w->o.pages;
}

/*
 * A decision read pages: the reading task's pending pages inside the
 * window become the window's.  The page a fault asked for is used now:
 * its fault event came before the pages were added.
 */
static void ra_outcome_decision_probe(void *unused,
				      struct readahead_control *ractl,
				      const struct ra_decision *d)
{
	struct address_space *mapping = ractl->mapping;
	unsigned long span = min(d->size, RA_OUTCOME_MAX_PAGES);
	struct ra_pending *p;
	struct ra_window *w;
	unsigned long flags;

	if (!d->actual || !span)
		return;
	w = kzalloc(struct_size(w, open, BITS_TO_LONGS(span)),
		    GFP_NOWAIT | __GFP_NOWARN);
	spin_lock_irqsave(&ra_outcome_lock, flags);
	if (!ra_pending)
		goto free;
	p = ra_pending_find(current);
	if (!p || p->mapping != mapping)
		goto free;
	if (!w) {
		ra_outcome_lost++;
		ra_pending_drop(p);
		goto out;
	}
	w->mapping = mapping;
	w->first = d->start;
	w->span = span;
	if (!ra_window_claim(w, p))
		goto free;
	w->o.dev = mapping->host->i_sb->s_dev;
	w->o.ino = mapping->host->i_ino;
	w->o.pattern = d->pattern;
	w->o.start = d->start;
	w->o.size = d->size;
	w->o.stall = d->start <= d->index;
	hash_add(ra_windows, &w->hash, (unsigned long)mapping);
	list_add_tail(&w->age, &ra_window_age);
	if (++ra_nr_windows > RA_OUTCOME_MAX_WINDOWS)
		ra_window_report(list_first_entry(&ra_window_age,
						  struct ra_window, age),
				 RA_OUTCOME_FULL);
	if (d->fault)
		ra_window_settle(w, d->index, d->index, true, ktime_get_ns());
	goto out;
free:
	kfree(w);
out:
	spin_unlock_irqrestore(&ra_outcome_lock, flags);
}

static void ra_outcome_unregister(void)
{
	unregister_trace_readahead_decision(ra_outcome_decision_probe, NULL);
	unregister_trace_mm_filemap_fault(ra_outcome_fault_probe, NULL);
	unregister_trace_mm_filemap_map_pages(ra_outcome_read_probe, NULL);
	unregister_trace_mm_filemap_get_pages(ra_outcome_read_probe, NULL);
	unregister_trace_mm_filemap_delete_from_page_cache(ra_outcome_delete_probe,
							   NULL);
	unregister_trace_mm_filemap_add_to_page_cache(ra_outcome_add_probe,
						      NULL);
	tracepoint_synchronize_unregister();
}

static int ra_outcome_register(void)
{
	int err;

	err = register_trace_mm_filemap_add_to_page_cache(ra_outcome_add_probe,
							  NULL);
	if (!err)
		err = register_trace_mm_filemap_delete_from_page_cache(ra_outcome_delete_probe,
								       NULL);
	if (!err)
		err = register_trace_mm_filemap_get_pages(ra_outcome_read_probe,
							  NULL);
	if (!err)
		err = register_trace_mm_filemap_map_pages(ra_outcome_read_probe,
							  NULL);
	if (!err)
		err = register_trace_mm_filemap_fault(ra_outcome_fault_probe,
						      NULL);
	if (!err)
		err = register_trace_readahead_decision(ra_outcome_decision_probe,
							NULL);
	/* Unregistering a probe that is not there only returns -ENOENT. */
	if (err)
		ra_outcome_unregister();
	return err;
}

static int ra_outcome_start(void)
{
	struct ra_pending *pending;
	unsigned long flags;
	int err;

	pending = kvcalloc(RA_OUTCOME_PENDING, sizeof(*pending), GFP_KERNEL);
	if (!pending)
		return -ENOMEM;
	spin_lock_irqsave(&ra_outcome_lock, flags);
	ra_pending = pending;
	spin_unlock_irqrestore(&ra_outcome_lock, flags);
	err = ra_outcome_register();
	if (err) {
		spin_lock_irqsave(&ra_outcome_lock, flags);
		ra_pending = NULL;
		spin_unlock_irqrestore(&ra_outcome_lock, flags);
		kvfree(pending);
	}
	return err;
}

/*
 * Stop following: every window left is reported as it stands.  No probe
 * runs once they are unregistered; the lock is for the table's readers,
 * taken a window at a time.
 */
static void ra_outcome_stop(void)
{
	struct ra_pending *pending;
	struct ra_window *w, *tmp;
	unsigned long flags;
	unsigned int i;

	ra_outcome_unregister();
	spin_lock_irqsave(&ra_outcome_lock, flags);
	pending = ra_pending;
	for (i = 0; i < RA_OUTCOME_PENDING; i++)
		ra_pending_drop(&pending[i]);
	ra_pending = NULL;
	spin_unlock_irqrestore(&ra_outcome_lock, flags);
	kvfree(pending);
	list_for_each_entry_safe(w, tmp, &ra_window_age, age) {
		spin_lock_irqsave(&ra_outcome_lock, flags);
		ra_window_report(w, RA_OUTCOME_STOPPED);
		spin_unlock_irqrestore(&ra_outcome_lock, flags);
		cond_resched();
	}
}

static ssize_t ra_outcome_enable_read(struct file *file, char __user *buf,
				      size_t count, loff_t *ppos)
{
	char val[2] = { READ_ONCE(ra_pending) ? '1' : '0', '\n' };

	return simple_read_from_buffer(buf, count, ppos, val, sizeof(val));
}

/* Only "0" or "1" (with an optional newline); all else is -EINVAL. */
static ssize_t ra_outcome_enable_write(struct file *file,
				       const char __user *buf, size_t count,
				       loff_t *ppos)
{
	unsigned int on;
	int err = 0;

	if (kstrtouint_from_user(buf, count, 10, &on) || on > 1)
		return -EINVAL;
	mutex_lock(&ra_outcome_mutex);
	if (on && !ra_pending)
		err = ra_outcome_start();
	else if (!on && ra_pending)
		ra_outcome_stop();
	mutex_unlock(&ra_outcome_mutex);
	return err ?: count;
}

static const struct file_operations ra_outcome_enable_fops = {
	.owner	= THIS_MODULE,
	.read	= ra_outcome_enable_read,
	.write	= ra_outcome_enable_write,
	.llseek	= default_llseek,
};

static void ra_outcome_show_row(struct seq_file *m, const char *name,
				const u64 row[RA_OUT_NR])
{
	u64 used = row[RA_OUT_USED];

	seq_printf(m, "%-10s %10llu %10llu %10llu %10llu %10llu %10llu %10llu\n",
		   name, row[RA_OUT_WINDOWS], row[RA_OUT_STALLS],
		   row[RA_OUT_PAGES], used, row[RA_OUT_EVICTED],
		   row[RA_OUT_CACHED],
		   used ? div64_u64(row[RA_OUT_LEAD_NS], used * 1000) : 0);
}

/*
 * A row per pattern of the windows reported, their total as "all"
 * (lead_us: the mean over the used pages), then the pages no window
 * claimed, the windows not followed for want of memory and the windows
 * followed now.
 */
static int ra_outcome_show(struct seq_file *m, void *v)
{
	u64 stats[RA_NR_PATTERNS][RA_OUT_NR], all[RA_OUT_NR] = { 0 };
	u64 untracked, lost;
	unsigned int p, i, following;
	unsigned long flags;

	spin_lock_irqsave(&ra_outcome_lock, flags);
	memcpy(stats, ra_outcome_stats, sizeof(stats));
	untracked = ra_outcome_untracked;
	lost = ra_outcome_lost;
	following = ra_nr_windows;
	spin_unlock_irqrestore(&ra_outcome_lock, flags);

	seq_printf(m, "%-10s %10s %10s %10s %10s %10s %10s %10s\n",
		   "pattern", "windows", "stalls", "pages", "used", "evicted",
		   "cached", "lead_us");
	for (p = 0; p < RA_NR_PATTERNS; p++) {
		ra_outcome_show_row(m, ra_pattern_name(p), stats[p]);
		for (i = 0; i < RA_OUT_NR; i++)
			all[i] += stats[p][i];
	}
	ra_outcome_show_row(m, "all", all);
	seq_printf(m, "%-10s %10llu\n", "untracked", untracked);
	seq_printf(m, "%-10s %10llu\n", "lost", lost);
	seq_printf(m, "%-10s %10u\n", "following", following);
	return 0;
}

static int ra_outcome_open(struct inode *inode, struct file *file)
{
	return single_open(file, ra_outcome_show, NULL);
}

/* Writing "0" resets the table; all else is -EINVAL. */
static ssize_t ra_outcome_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	unsigned long flags;
	unsigned int val;

	if (kstrtouint_from_user(buf, count, 10, &val) || val)
		return -EINVAL;
	spin_lock_irqsave(&ra_outcome_lock, flags);
	memset(ra_outcome_stats, 0, sizeof(ra_outcome_stats));
	ra_outcome_untracked = 0;
	ra_outcome_lost = 0;
	spin_unlock_irqrestore(&ra_outcome_lock, flags);
	return count;
}

static const struct file_operations ra_outcome_fops = {
	.owner		= THIS_MODULE,
	.open		= ra_outcome_open,
	.read		= seq_read,
	.write		= ra_outcome_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/*
 * In readahead_debug.c's directory: its initcall runs first, as the
 * Makefile links it first.
 */
static int __init ra_outcome_init(void)
{
	struct dentry *dir = debugfs_lookup("readahead", NULL);

	if (!dir)
		dir = debugfs_create_dir("readahead", NULL);
	debugfs_create_file("outcome_enable", 0644, dir, NULL,
			    &ra_outcome_enable_fops);
	debugfs_create_file("outcomes", 0644, dir, NULL, &ra_outcome_fops);
	dput(dir);
	return 0;
}
late_initcall(ra_outcome_init);
