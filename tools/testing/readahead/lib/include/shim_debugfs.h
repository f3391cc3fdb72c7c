/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim_debugfs.h - the kernel API behind the readahead tracepoints and
 * their debugfs view.
 *
 * What mm/readahead_debug.c (CONFIG_READAHEAD_DEBUGFS) and the
 * tracepoints of mm/readahead.c use: the current task (and whether it is
 * being killed), super blocks and dentries for naming, printk, static
 * keys, per-CPU counters (one CPU here), debugfs files with their
 * file_operations, seq_file, the user-copy helpers, rate limits and the
 * tracepoints' output.  debugfs.c implements it; the harness reads and
 * writes the files through h_debugfs_read() and h_debugfs_write() and
 * receives printk lines in shim_trace_sink, tracepoint lines in
 * shim_tracepoint_sink.  A harness without mm/readahead_debug.c (bench/)
 * has no debugfs files, as a kernel without the option.
 */
#ifndef RA_SHIM_DEBUGFS_H
#define RA_SHIM_DEBUGFS_H

#include <stdarg.h>

struct inode;
struct file;
struct file_operations;

#define __user
#define __init
#define THIS_MODULE	NULL

/* ---- who is running, and what the file is called ---- */

#define TASK_COMM_LEN	16

struct task_struct {
	int pid;
	char comm[TASK_COMM_LEN];
	bool fatal_signal;	/* a SIGKILL is pending: tests set it */
	int cpu;		/* the simulator's CPU model: -1 none */
};

/* The harness's own task, current when no file's reader is. */
extern struct task_struct shim_init_task;
extern struct task_struct *shim_current;
#define current shim_current

static inline int task_pid_nr(struct task_struct *t)
{
	return t->pid;
}

static inline bool fatal_signal_pending(struct task_struct *t)
{
	return t->fatal_signal;
}

#define MINORBITS	20
#define MAJOR(dev)	((unsigned int)((dev) >> MINORBITS))
#define MINOR(dev)	((unsigned int)((dev) & ((1U << MINORBITS) - 1)))
#define MKDEV(ma, mi)	(((dev_t)(ma) << MINORBITS) | (mi))

struct super_block {
	dev_t s_dev;
	char s_id[32];
};

struct qstr {
	const unsigned char *name;
};

struct dentry {
	struct qstr d_name;
	char path[64];		/* debugfs: the file's path */
	const struct file_operations *fops;
	struct dentry *next;
};

struct path {
	struct dentry *dentry;
};

/* ---- printk: every line goes to the harness's sink ---- */

/*
 * The kernel's vsnprintf() for what readahead prints: the C conversions,
 * and %pD, a struct file's name (its last path component), which the C
 * library does not know.  Any other %p extension is a harness bug.
 */
int shim_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int shim_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

extern void (*shim_trace_sink)(const char *line);
/*
 * Called as printk starts formatting, after its arguments were taken:
 * a test does there what another CPU could do meanwhile (a rename).
 */
extern void (*shim_printk_hook)(void);
void shim_printk(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
#define pr_info(fmt, ...) shim_printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) shim_printk(fmt, ##__VA_ARGS__)

/*
 * Rate limits, as lib/ratelimit.c has them: at most @burst true answers
 * per @interval jiffies; the first call after a window with refusals
 * prints "FUNC: N callbacks suppressed".  The clock is shim_jiffies,
 * which only tests move.  They apply only while shim_ratelimit is true:
 * harness tests turn it on; the simulator, the replay and the fuzzer
 * leave it off, as their printk lines stand for the lossless trace.
 */
#define HZ 250
extern unsigned long shim_jiffies;
extern bool shim_ratelimit;

struct ratelimit_state {
	int interval;
	int burst;
	int printed;
	int missed;
	unsigned long begin;
};

#define DEFINE_RATELIMIT_STATE(name, interval_init, burst_init)	\
	struct ratelimit_state name = {					\
		.interval = (interval_init),				\
		.burst = (burst_init),					\
	}

int shim_ratelimit_check(struct ratelimit_state *rs, const char *func);
#define __ratelimit(rs) shim_ratelimit_check(rs, __func__)

/*
 * The tracepoints: <linux/tracepoint.h> turns each of the project's
 * events into a function that calls the registered probes and, while
 * shim_tracepoint_sink is set, fills the event's fields and prints its
 * TP_printk line, as trace_pipe shows it, to the sink.  Every event
 * tests shim_tracepoints_live first, as a kernel without jump labels
 * tests its static key: the number of probes registered, plus one while
 * a sink is set (shim_tracepoint_set_sink()).
 */
extern void (*shim_tracepoint_sink)(const char *line);
extern unsigned int shim_tracepoints_live;
void shim_tracepoint_set_sink(void (*sink)(const char *line));
void shim_tracepoint_print(const char *event, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- static keys and per-CPU data, for one CPU ---- */

struct static_key_false {
	bool enabled;
};

#define DEFINE_STATIC_KEY_FALSE(name) struct static_key_false name = { false }
#define static_branch_unlikely(key)	((key)->enabled)
#define static_branch_enable(key)	((key)->enabled = true)
#define static_branch_disable(key)	((key)->enabled = false)

/* A per-CPU variable is the variable itself: there is one CPU. */
#define struct_percpu(type)		type
#define DEFINE_PER_CPU(type, name)	struct_percpu(type) name
#define this_cpu_add(var, n)		((var) += (n))
#define this_cpu_inc(var)		((var)++)
#define per_cpu_ptr(ptr, cpu)		((void)(cpu), (ptr))
#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < 1; (cpu)++)

/* ---- debugfs, seq_file, user copies ---- */

struct file_operations {
	void *owner;
	int (*open)(struct inode *inode, struct file *file);
	ssize_t (*read)(struct file *file, char *buf, size_t count,
			loff_t *ppos);
	ssize_t (*write)(struct file *file, const char *buf, size_t count,
			 loff_t *ppos);
	loff_t (*llseek)(struct file *file, loff_t offset, int whence);
	int (*release)(struct inode *inode, struct file *file);
};

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent);
struct dentry *debugfs_lookup(const char *name, struct dentry *parent);
void dput(struct dentry *dentry);
struct dentry *debugfs_create_file(const char *name, umode_t mode,
				   struct dentry *parent, void *data,
				   const struct file_operations *fops);

struct seq_file {
	char *buf;
	size_t size;
	size_t count;
};

void seq_printf(struct seq_file *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int single_open(struct file *file, int (*show)(struct seq_file *, void *),
		void *data);
int single_release(struct inode *inode, struct file *file);
ssize_t seq_read(struct file *file, char *buf, size_t count, loff_t *ppos);
loff_t seq_lseek(struct file *file, loff_t offset, int whence);
loff_t default_llseek(struct file *file, loff_t offset, int whence);

ssize_t simple_read_from_buffer(void *to, size_t count, loff_t *ppos,
				const void *from, size_t available);
int kstrtouint_from_user(const char *s, size_t count, unsigned int base,
			 unsigned int *res);

/* Each initcall runs when the program starts, as at boot. */
#define late_initcall(fn)						\
	static void __attribute__((constructor)) fn##_at_boot(void)	\
	{								\
		fn();							\
	}

#endif /* RA_SHIM_DEBUGFS_H */
