/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim_debugfs.h - the kernel API behind the readahead trace and stats.
 *
 * What mm/readahead.c's CONFIG_READAHEAD_TRACE code uses: the current
 * task (and whether it is being killed), super blocks and dentries for naming, printk, static keys,
 * per-CPU counters (one CPU here), debugfs files with their
 * file_operations, seq_file, and the user-copy helpers.  debugfs.c
 * implements it; the harness reads and writes the files through
 * h_debugfs_read() and h_debugfs_write() and receives printk lines in
 * shim_trace_sink.
 */
#ifndef RA_SHIM_DEBUGFS_H
#define RA_SHIM_DEBUGFS_H

#define CONFIG_READAHEAD_TRACE 1

struct inode;
struct file;
struct file_operations;

#define __user
#define __init
#define THIS_MODULE	NULL

/* ---- who is running, and what the file is called ---- */

struct task_struct {
	int pid;
	char comm[16];
	bool fatal_signal;	/* a SIGKILL is pending: tests set it */
};

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

extern void (*shim_trace_sink)(const char *line);
void shim_printk(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
#define pr_info(fmt, ...) shim_printk(fmt, ##__VA_ARGS__)

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
