// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - printk, debugfs, seq_file and user copies for the harness.
 *
 * Owns the list of debugfs files the readahead code creates (by path,
 * with their file_operations), the open/read/write/release sequence the
 * VFS would run on them (h_debugfs_read/h_debugfs_write), the seq_file
 * buffer, the kernel's user-copy and kstrto helpers, vsnprintf with the
 * kernel's %pD, printk, whose lines go to shim_trace_sink, rate limits,
 * the tracepoints' probes (register_trace_*()) and their output, which
 * goes to shim_tracepoint_sink.
 */
#include "shim.h"
#include "lib.h"

#include <linux/tracepoint.h>

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

struct task_struct shim_init_task = {
	.pid = 4242, .comm = "harness", .cpu = -1
};
struct task_struct *shim_current = &shim_init_task;
void (*shim_trace_sink)(const char *line);
void (*shim_printk_hook)(void);
void (*shim_tracepoint_sink)(const char *line);
unsigned int shim_tracepoints_live;
unsigned long shim_jiffies = HZ;
bool shim_ratelimit;

/* ---- vsnprintf with the kernel's %pD ---- */

/* Append @piece to @buf of @size, counting what does not fit. */
static void put(char *buf, size_t size, size_t *len, const char *piece)
{
	size_t n = strlen(piece);

	if (*len < size)
		memcpy(buf + *len, piece, min(n, size - *len));
	*len += n;
}

int shim_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t len = 0;
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		char spec[48], piece[1024], length[3] = "";
		size_t n = 0;
		char conv;

		if (*fmt != '%') {
			while (*fmt && *fmt != '%' && n < sizeof(piece) - 1)
				piece[n++] = *fmt++;
			piece[n] = '\0';
			put(buf, size, &len, piece);
			continue;
		}
		/* Flags, width, precision (a '*' takes an int argument). */
		spec[n++] = *fmt++;
		while (*fmt && strchr("-+ #0", *fmt) && n < 8)
			spec[n++] = *fmt++;
		if (*fmt == '*') {
			n += snprintf(spec + n, 12, "%d", va_arg(args, int));
			fmt++;
		}
		while (isdigit((unsigned char)*fmt) && n < 24)
			spec[n++] = *fmt++;
		if (*fmt == '.') {
			spec[n++] = *fmt++;
			if (*fmt == '*') {
				n += snprintf(spec + n, 12, "%d",
					      va_arg(args, int));
				fmt++;
			}
			while (isdigit((unsigned char)*fmt) && n < 40)
				spec[n++] = *fmt++;
		}
		while (*fmt && strchr("hlztj", *fmt) && strlen(length) < 2) {
			length[strlen(length)] = *fmt;
			spec[n++] = *fmt++;
		}
		conv = *fmt ? *fmt++ : '%';
		spec[n++] = conv;
		spec[n] = '\0';

		if (conv == 'p' && isalnum((unsigned char)*fmt)) {
			struct file *file;
			const char *name;

			if (*fmt != 'D' || isalnum((unsigned char)fmt[1]))
				shim_bug(__FILE__, __LINE__, "%p extension");
			fmt++;
			/* A file's name: the last component of its path. */
			file = va_arg(args, struct file *);
			name = file ? (const char *)
				      file->f_path.dentry->d_name.name : "(null)";
			spec[n - 1] = 's';
			snprintf(piece, sizeof(piece), spec, name);
		} else if (conv == '%') {
			strcpy(piece, "%");
		} else if (conv == 's') {
			snprintf(piece, sizeof(piece), spec,
				 va_arg(args, const char *));
		} else if (conv == 'p') {
			snprintf(piece, sizeof(piece), spec,
				 va_arg(args, void *));
		} else if (conv == 'c' || (strchr("diouxX", conv) &&
					   (!*length || *length == 'h'))) {
			snprintf(piece, sizeof(piece), spec, va_arg(args, int));
		} else if (strchr("diouxX", conv) && !strcmp(length, "l")) {
			snprintf(piece, sizeof(piece), spec, va_arg(args, long));
		} else if (strchr("diouxX", conv) && !strcmp(length, "ll")) {
			snprintf(piece, sizeof(piece), spec,
				 va_arg(args, long long));
		} else if (strchr("diouxX", conv) && *length &&
			   strchr("ztj", *length) && !length[1]) {
			/* size_t, ptrdiff_t and intmax_t are 64 bits here. */
			snprintf(piece, sizeof(piece), spec,
				 va_arg(args, int64_t));
		} else {
			shim_bug(__FILE__, __LINE__, "unsupported conversion");
		}
		put(buf, size, &len, piece);
	}
	va_end(args);
	if (size)
		buf[min(len, size - 1)] = '\0';
	return len;
}

int shim_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = shim_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- printk, rate limits, the tracepoint ---- */

void shim_printk(const char *fmt, ...)
{
	char line[1024];
	size_t len;
	va_list ap;

	if (shim_printk_hook)
		shim_printk_hook();
	va_start(ap, fmt);
	shim_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	len = strlen(line);
	if (len && line[len - 1] == '\n')
		line[len - 1] = '\0';
	if (shim_trace_sink)
		shim_trace_sink(line);
}

/* lib/ratelimit.c's rules, against shim_jiffies (see shim_debugfs.h). */
int shim_ratelimit_check(struct ratelimit_state *rs, const char *func)
{
	if (!shim_ratelimit || !rs->interval)
		return 1;
	if (!rs->begin)
		rs->begin = shim_jiffies;
	if ((long)(rs->begin + rs->interval - shim_jiffies) < 0) {
		if (rs->missed)
			shim_printk("%s: %d callbacks suppressed\n", func,
				    rs->missed);
		rs->missed = 0;
		rs->begin = shim_jiffies;
		rs->printed = 0;
	}
	if (rs->burst && rs->burst > rs->printed) {
		rs->printed++;
		return 1;
	}
	rs->missed++;
	return 0;
}

/* An event as trace_pipe prints it: task, CPU, flags, time, name, text. */
void shim_tracepoint_print(const char *event, const char *fmt, ...)
{
	char text[1024], line[1200];
	va_list ap;

	if (!shim_tracepoint_sink)
		return;
	va_start(ap, fmt);
	shim_vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "%16s-%-7d [000] ..... %5lu.%06lu: %s: %s",
		 current->comm, task_pid_nr(current), shim_jiffies / HZ,
		 shim_jiffies % HZ * (1000000 / HZ), event, text);
	shim_tracepoint_sink(line);
}

void shim_tracepoint_set_sink(void (*sink)(const char *line))
{
	shim_tracepoints_live += !!sink - !!shim_tracepoint_sink;
	shim_tracepoint_sink = sink;
}

/* The tracepoints' probes, in the first free slot, as registered. */
int shim_tracepoint_register(struct shim_tracepoint *tp, shim_tp_fn fn,
			     void *data)
{
	unsigned int i, slot = SHIM_TP_MAX_PROBES;

	for (i = 0; i < SHIM_TP_MAX_PROBES; i++) {
		if (tp->probes[i].fn == fn && tp->probes[i].data == data)
			return -EEXIST;
		if (!tp->probes[i].fn && slot == SHIM_TP_MAX_PROBES)
			slot = i;
	}
	if (slot == SHIM_TP_MAX_PROBES)
		return -ENOMEM;
	tp->probes[slot].fn = fn;
	tp->probes[slot].data = data;
	tp->nr_probes++;
	shim_tracepoints_live++;
	return 0;
}

int shim_tracepoint_unregister(struct shim_tracepoint *tp, shim_tp_fn fn,
			       void *data)
{
	unsigned int i;

	for (i = 0; i < SHIM_TP_MAX_PROBES; i++) {
		if (tp->probes[i].fn == fn && tp->probes[i].data == data) {
			tp->probes[i].fn = NULL;
			tp->probes[i].data = NULL;
			tp->nr_probes--;
			shim_tracepoints_live--;
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * __print_symbolic(): the name, or the value in hex as ftrace prints an
 * unknown one.  The text lives until the next unknown value is printed.
 */
const char *shim_print_symbolic(unsigned long value,
				const struct shim_trace_sym *syms)
{
	static char unknown[24];

	for (; syms->name; syms++)
		if (syms->value == value)
			return syms->name;
	snprintf(unknown, sizeof(unknown), "0x%lx", value);
	return unknown;
}

/* ---- debugfs ---- */

static struct dentry *debugfs_files;

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent)
{
	struct dentry *d = calloc(1, sizeof(*d));

	if (!d)
		shim_bug(__FILE__, __LINE__, "out of host memory");
	if ((size_t)snprintf(d->path, sizeof(d->path), "%.31s%s%.31s",
			     parent ? parent->path : "", parent ? "/" : "",
			     name) >= sizeof(d->path))
		shim_bug(__FILE__, __LINE__, "debugfs path too long");
	d->next = debugfs_files;
	debugfs_files = d;
	return d;
}

/* The directory or file @name under @parent, created before; or NULL. */
struct dentry *debugfs_lookup(const char *name, struct dentry *parent)
{
	char path[sizeof(debugfs_files->path)];
	struct dentry *d;

	snprintf(path, sizeof(path), "%.31s%s%.31s", parent ? parent->path : "",
		 parent ? "/" : "", name);
	for (d = debugfs_files; d; d = d->next)
		if (!strcmp(d->path, path))
			return d;
	return NULL;
}

/* The harness's dentries live as long as the program: nothing to put. */
void dput(struct dentry *dentry)
{
	(void)dentry;
}

struct dentry *debugfs_create_file(const char *name, umode_t mode,
				   struct dentry *parent, void *data,
				   const struct file_operations *fops)
{
	struct dentry *d = debugfs_create_dir(name, parent);

	(void)mode;
	(void)data;
	d->fops = fops;
	return d;
}

static const struct file_operations *debugfs_fops_of(const char *path)
{
	struct dentry *d;

	for (d = debugfs_files; d; d = d->next)
		if (d->fops && !strcmp(d->path, path))
			return d->fops;
	return NULL;
}

/* Open, do @io, release: as one read(2) or write(2) on a fresh fd. */
static ssize_t debugfs_io(const char *path, char *rbuf, const char *wbuf,
			  size_t count)
{
	const struct file_operations *fops = debugfs_fops_of(path);
	struct inode inode = { .i_mode = S_IFREG | 0644 };
	struct file file = { .f_inode = &inode };
	loff_t pos = 0;
	ssize_t ret;

	if (!fops)
		return -ENOENT;
	if (fops->open) {
		int err = fops->open(&inode, &file);

		if (err)
			return err;
	}
	if (wbuf)
		ret = fops->write ? fops->write(&file, wbuf, count, &pos) :
				    -EINVAL;
	else
		ret = fops->read ? fops->read(&file, rbuf, count, &pos) :
				   -EINVAL;
	if (fops->release)
		fops->release(&inode, &file);
	return ret;
}

ssize_t h_debugfs_write(const char *path, const char *text)
{
	return debugfs_io(path, NULL, text, strlen(text));
}

ssize_t h_debugfs_read(const char *path, char *buf, size_t size)
{
	ssize_t n = debugfs_io(path, buf, NULL, size - 1);

	buf[n > 0 ? n : 0] = '\0';
	return n;
}

long h_stat(const char *pattern, unsigned int column)
{
	char table[4096], *row;
	size_t len = strlen(pattern);
	long v = -1;

	if (h_debugfs_read("readahead/stats", table, sizeof(table)) <= 0)
		return -1;
	for (row = table; row; row = strchr(row, '\n'), row = row ? row + 1 : NULL) {
		char *p = row + len;
		unsigned int i;

		if (strncmp(row, pattern, len) || *p != ' ')
			continue;
		for (i = 0; i <= column; i++)
			v = strtol(p, &p, 10);
		return v;
	}
	return -1;
}

/* ---- seq_file ---- */

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(m->buf + m->count, m->size - m->count, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < m->size - m->count)
			break;
		m->size = m->size * 2 + 256;
		m->buf = realloc(m->buf, m->size);
		if (!m->buf)
			shim_bug(__FILE__, __LINE__, "out of host memory");
	}
	m->count += n;
}

int single_open(struct file *file, int (*show)(struct seq_file *, void *),
		void *data)
{
	struct seq_file *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->size = 256;
	m->buf = calloc(1, m->size);
	file->private_data = m;
	return show(m, data);
}

int single_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	(void)inode;
	free(m->buf);
	free(m);
	return 0;
}

ssize_t seq_read(struct file *file, char *buf, size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;

	return simple_read_from_buffer(buf, count, ppos, m->buf, m->count);
}

loff_t seq_lseek(struct file *file, loff_t offset, int whence)
{
	(void)file;
	(void)whence;
	return offset;
}

loff_t default_llseek(struct file *file, loff_t offset, int whence)
{
	(void)file;
	(void)whence;
	return offset;
}

/* ---- user copies ---- */

ssize_t simple_read_from_buffer(void *to, size_t count, loff_t *ppos,
				const void *from, size_t available)
{
	size_t n;

	if (*ppos < 0)
		return -EINVAL;
	if ((size_t)*ppos >= available || !count)
		return 0;
	n = min(count, available - (size_t)*ppos);
	memcpy(to, (const char *)from + *ppos, n);
	*ppos += n;
	return n;
}

/*
 * As 6.1's lib/kstrtox.c behaves: the user buffer is cut to 34 bytes (a
 * sign, 32 binary digits, a newline and the terminator fit), a leading
 * '+' is accepted, base 0 picks 16 for "0x" followed by a hex digit, 8
 * for a leading 0, else 10, and base 16 skips a "0x"; then at least one
 * digit of the base, one optional newline, and nothing more.  Overflowing
 * 64 bits is -ERANGE even with garbage after the digits, a value over
 * UINT_MAX is -ERANGE, anything else wrong -EINVAL.
 */
int kstrtouint_from_user(const char *s, size_t count, unsigned int base,
			 unsigned int *res)
{
	char buf[1 + sizeof(unsigned int) * 8 + 1 + 1];
	unsigned long long v = 0;
	bool overflow = false;
	const char *p = buf;
	size_t digits = 0;

	count = min(count, sizeof(buf) - 1);
	memcpy(buf, s, count);
	buf[count] = '\0';
	if (*p == '+')
		p++;
	if (!base)
		base = p[0] != '0' ? 10 :
		       (p[1] | 0x20) == 'x' && isxdigit((unsigned char)p[2]) ?
		       16 : 8;
	if (base == 16 && p[0] == '0' && (p[1] | 0x20) == 'x')
		p += 2;
	for (;; p++, digits++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
			d = (*p | 0x20) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (ULLONG_MAX - d) / base)
			overflow = true;
		v = v * base + d;
	}
	if (overflow)
		return -ERANGE;
	if (!digits)
		return -EINVAL;
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	if (v > UINT_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}
