// SPDX-License-Identifier: GPL-2.0-only
/*
 * The readahead decisions, in debugfs.
 *
 * Owns /sys/kernel/debug/readahead/ (CONFIG_READAHEAD_DEBUGFS): writing
 * 1 to trace_enable logs one kernel message per readahead decision, in
 * the text of READAHEAD_TRACE_FMT (<trace/events/readahead.h>), rate
 * limited; stats is a table of per-CPU counters per pattern, with the
 * number of log lines the limit dropped, and writing 0 to it resets them.
 *
 * All of it is built on the readahead_decision tracepoint, whose probe
 * this file registers at boot: mm/readahead.c only fires the event.  The
 * probe runs in the reading task, so the log line names that task and
 * the file it reads.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include <trace/events/readahead.h>

enum ra_stat {
	RA_STAT_CALLS,		/* readahead decisions */
	RA_STAT_EOF_HIT,	/* windows reaching the end of file */
	RA_STAT_CACHE_HIT,	/* windows that found pages cached */
	RA_STAT_IO,		/* decisions that submitted I/O */
	RA_STAT_SYNC_IO,	/* ...for a synchronous request */
	RA_STAT_MMAP_IO,	/* ...for a page fault */
	RA_STAT_SIZE,		/* sum of window sizes */
	RA_STAT_ASYNC_SIZE,	/* sum of their async parts */
	RA_STAT_IO_SIZE,	/* sum of pages submitted */
	RA_STAT_NR,
};

struct ra_stats {
	unsigned long count[RA_NR_PATTERNS][RA_STAT_NR];
	unsigned long dropped;	/* trace lines the rate limit dropped */
};

static DEFINE_PER_CPU(struct ra_stats, ra_stats);
static DEFINE_STATIC_KEY_FALSE(ra_trace_key);

/* At most RA_TRACE_BURST trace lines per RA_TRACE_INTERVAL reach the log. */
#define RA_TRACE_INTERVAL	(5 * HZ)
#define RA_TRACE_BURST		500
static DEFINE_RATELIMIT_STATE(ra_trace_rs, RA_TRACE_INTERVAL, RA_TRACE_BURST);

static void ra_stats_add(enum ra_pattern pattern, enum ra_stat stat,
			 unsigned long n)
{
	this_cpu_add(ra_stats.count[pattern][stat], n);
}

/* The decision as a kernel log line, in READAHEAD_TRACE_FMT. */
static void ra_trace_line(struct readahead_control *ractl,
			  const struct ra_decision *d)
{
	struct inode *inode = ractl->mapping->host;
	struct super_block *sb = inode->i_sb;
	const char *pattern = ra_pattern_name(d->pattern);
	char miss[READAHEAD_TRACE_MISS_LEN] = "";

	if (!__ratelimit(&ra_trace_rs)) {
		this_cpu_inc(ra_stats.dropped);
		return;
	}
	if (d->fault && ractl->ra)
		snprintf(miss, sizeof(miss), ", miss=%u", ractl->ra->mmap_miss);
	/* %pD, not d_name: a concurrent rename may free the name. */
	if (ractl->file)
		pr_info(READAHEAD_TRACE_FMT_NAME("%pD") "\n", pattern,
			task_pid_nr(current), current->comm, MAJOR(sb->s_dev),
			MINOR(sb->s_dev), sb->s_id, inode->i_ino, ractl->file,
			d->index, d->req, d->start, d->size, d->async_size,
			d->start > d->index, miss, d->actual);
	else
		pr_info(READAHEAD_TRACE_FMT "\n", pattern,
			task_pid_nr(current), current->comm, MAJOR(sb->s_dev),
			MINOR(sb->s_dev), sb->s_id, inode->i_ino, "",
			d->index, d->req, d->start, d->size, d->async_size,
			d->start > d->index, miss, d->actual);
}

/*
 * The probe of readahead_decision, in the reader's context: count the
 * decision, and log it while trace_enable is on.
 */
static void ra_decision_probe(void *unused, struct readahead_control *ractl,
			      const struct ra_decision *d)
{
	struct inode *inode = ractl->mapping->host;
	/* The index after the page holding the file's last byte. */
	pgoff_t eof = ((u64)i_size_read(inode) + PAGE_SIZE - 1) >> PAGE_SHIFT;
	unsigned long in_file = 0;

	/* A pattern this file does not know has no row to count in. */
	if (WARN_ON_ONCE(d->pattern >= RA_NR_PATTERNS))
		return;
	if (d->start < eof)
		in_file = min_t(unsigned long, d->size, eof - d->start);

	ra_stats_add(d->pattern, RA_STAT_CALLS, 1);
	if (d->start + d->size >= eof)
		ra_stats_add(d->pattern, RA_STAT_EOF_HIT, 1);
	if (d->actual < in_file)
		ra_stats_add(d->pattern, RA_STAT_CACHE_HIT, 1);
	if (d->actual) {
		ra_stats_add(d->pattern, RA_STAT_IO, 1);
		if (d->start <= d->index)
			ra_stats_add(d->pattern, RA_STAT_SYNC_IO, 1);
		if (d->fault)
			ra_stats_add(d->pattern, RA_STAT_MMAP_IO, 1);
	}
	ra_stats_add(d->pattern, RA_STAT_SIZE, d->size);
	ra_stats_add(d->pattern, RA_STAT_ASYNC_SIZE, d->async_size);
	ra_stats_add(d->pattern, RA_STAT_IO_SIZE, d->actual);

	if (static_branch_unlikely(&ra_trace_key))
		ra_trace_line(ractl, d);
}

static ssize_t ra_trace_enable_read(struct file *file, char __user *buf,
				    size_t count, loff_t *ppos)
{
	char val[3] = { '0', '\n', '\0' };

	if (static_branch_unlikely(&ra_trace_key))
		val[0] = '1';
	return simple_read_from_buffer(buf, count, ppos, val, 2);
}

/* Only "0" or "1" (with an optional newline); all else is -EINVAL. */
static ssize_t ra_trace_enable_write(struct file *file,
				     const char __user *buf, size_t count,
				     loff_t *ppos)
{
	unsigned int on;

	if (kstrtouint_from_user(buf, count, 10, &on) || on > 1)
		return -EINVAL;
	if (on)
		static_branch_enable(&ra_trace_key);
	else
		static_branch_disable(&ra_trace_key);
	return count;
}

static const struct file_operations ra_trace_enable_fops = {
	.owner	= THIS_MODULE,
	.read	= ra_trace_enable_read,
	.write	= ra_trace_enable_write,
	.llseek	= default_llseek,
};

/* The counters of patterns @first to @last - 1, summed over all CPUs. */
static void ra_stats_row(unsigned int first, unsigned int last,
			 unsigned long row[RA_STAT_NR])
{
	unsigned int p, i;
	int cpu;

	memset(row, 0, RA_STAT_NR * sizeof(row[0]));
	for_each_possible_cpu(cpu) {
		struct ra_stats *st = per_cpu_ptr(&ra_stats, cpu);

		for (p = first; p < last; p++)
			for (i = 0; i < RA_STAT_NR; i++)
				row[i] += st->count[p][i];
	}
}

static unsigned long ra_stats_dropped(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(&ra_stats, cpu)->dropped;
	return sum;
}

static void ra_stats_show_row(struct seq_file *m, const char *name,
			      const unsigned long row[RA_STAT_NR])
{
	unsigned long calls = row[RA_STAT_CALLS];
	unsigned long io = row[RA_STAT_IO];

	seq_printf(m, "%-10s %10lu %10lu %10lu %10lu %10lu %10lu %10lu %10lu %10lu\n",
		   name, calls, row[RA_STAT_EOF_HIT], row[RA_STAT_CACHE_HIT],
		   io, row[RA_STAT_SYNC_IO], row[RA_STAT_MMAP_IO],
		   calls ? row[RA_STAT_SIZE] / calls : 0,
		   calls ? row[RA_STAT_ASYNC_SIZE] / calls : 0,
		   io ? row[RA_STAT_IO_SIZE] / io : 0);
}

/* A row per pattern, their total as "all", then the dropped lines. */
static int ra_stats_show(struct seq_file *m, void *v)
{
	unsigned long row[RA_STAT_NR];
	unsigned int p;

	seq_printf(m, "%-10s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n",
		   "pattern", "readahead", "eof_hit", "cache_hit", "io",
		   "sync_io", "mmap_io", "size", "async_size", "io_size");
	for (p = 0; p < RA_NR_PATTERNS; p++) {
		ra_stats_row(p, p + 1, row);
		ra_stats_show_row(m, ra_pattern_name(p), row);
	}
	ra_stats_row(0, RA_NR_PATTERNS, row);
	ra_stats_show_row(m, "all", row);
	seq_printf(m, "%-10s %10lu\n", "dropped", ra_stats_dropped());
	return 0;
}

static int ra_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, ra_stats_show, NULL);
}

/* Writing "0" resets the table; all else is -EINVAL. */
static ssize_t ra_stats_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	unsigned int val;
	int cpu;

	if (kstrtouint_from_user(buf, count, 10, &val) || val)
		return -EINVAL;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&ra_stats, cpu), 0, sizeof(struct ra_stats));
	return count;
}

static const struct file_operations ra_stats_fops = {
	.owner		= THIS_MODULE,
	.open		= ra_stats_open,
	.read		= seq_read,
	.write		= ra_stats_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init ra_debugfs_init(void)
{
	struct dentry *dir;
	int err;

	err = register_trace_readahead_decision(ra_decision_probe, NULL);
	if (err) {
		pr_warn("readahead: no debugfs view: probe not registered (%d)\n",
			err);
		return err;
	}
	dir = debugfs_create_dir("readahead", NULL);
	debugfs_create_file("trace_enable", 0644, dir, NULL,
			    &ra_trace_enable_fops);
	debugfs_create_file("stats", 0644, dir, NULL, &ra_stats_fops);
	return 0;
}
late_initcall(ra_debugfs_init);
