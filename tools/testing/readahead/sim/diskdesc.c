// SPDX-License-Identifier: GPL-2.0
/*
 * diskdesc.c - the machine description parser (".disks" files).
 *
 * Owns the simulator's own small format for what fio job files cannot
 * say: the machine and its disks.  Same line syntax as a job file.
 *
 *   [system]                  memory=4g memcg=(none) seed=1 syscall_us=1
 *                             copy_mbps=2000
 *                             fault_us=1 wakeup_us=0 jitter_us=0 cpus=0
 *                             sched_slice_us=3000
 *                             fio_main_ms=(none) fio_fork_us=0
 *   [disk sda]  or  [disk sda..sdm]   one disk, or a run of them
 *     capacity=300g rpm=10000 seek_ms=4.5 track_ms=0.5 rate_mbps=100
 *     overhead_us=20 cache_kb=0 cache_segments=8 iface_mbps=300
 *     max_sectors_kb=512 read_ahead_kb=128 elevator=sort plug_ms=0
 *     partitions=1 mount=/mnt/%p fail_sectors=START-END[,START-END]...
 *     iops=0 (>0: a throttled virtual disk, rate_mbps its bps limit)
 *     queue_depth=1 (requests on the disk at once, served in the order
 *     sent; a throttled disk's default is VIRTIO_DEPTH, blkq.c)
 *     nr_requests=0 (requests allocated at once, waiting in the
 *     scheduler plus on the disk; 0: no cap)
 *     hw_queues=0 (N: hardware queues, each taking queue_depth
 *     requests and allocating nr_requests, blkq.c)
 *     and, after elevator=NAME, that scheduler's tunables by their sysfs
 *     names (elevator=cfq slice_idle=8 ...; see elv-*.c)
 *
 * Every disk key is optional (the values above are the defaults: a 2009
 * 10k rpm SAS spindle).  partitions=N splits the disk into N equal
 * regions named DEV1..DEVN (0: the whole disk is one device named DEV);
 * each is mounted at "mount" with %p replaced by the partition name and
 * %d by the disk's.  A job's filename lives on the partition whose mount
 * point is its directory prefix; files are laid out in the order jobs
 * name them.  fail_sectors (default: none) makes every read touching one
 * of up to 8 inclusive ranges of absolute sectors fail.  Errors name the
 * file and line.  cpus=N (default 0: as many as there are readers)
 * makes readers wait for one of N CPUs; sched_slice_us is how long one
 * runs on while others wait (CFS's minimum granularity on 8 CPUs).
 * memcg=SIZE puts every reader in one memory cgroup of that memory.max:
 * the page cache holds no more, and readahead sees the limit.
 * fio_main_ms=T models fio's main process (fiomain.c): it reads each
 * file system's metadata first, and the jobs start T ms after it began
 * (or when those reads are done), one fio_fork_us after another; without
 * it the jobs start at once and no other process touches the disks.
 */
#include "jobs.h"
#include "elevator.h"

#include <stdarg.h>
#include <string.h>

struct system_params sys;
struct disk disks[MAX_DISKS];
unsigned int nr_disks;
struct partition parts[MAX_PARTS];
unsigned int nr_parts;

static const char *cur_path;
static int cur_line;

#define err(...) file_err(cur_path, cur_line, __VA_ARGS__)

static void disk_defaults(struct disk_params *p)
{
	memset(p, 0, sizeof(*p));
	spindle_defaults(&p->mech);
	p->max_sectors_kb = 512;
	p->read_ahead_kb = 128;
	p->elv = &elv_sort;
	p->plug_ms = 0;
	p->partitions = 1;
	strcpy(p->mount, "/mnt/%p");
}

static void system_defaults(void)
{
	sys.memory = 4ULL << 30;
	sys.seed = 1;
	sys.syscall_us = 1;
	sys.copy_mbps = 2000;
	sys.fault_us = 1;
	sys.wakeup_us = 0;
	sys.jitter_us = 0;
	sys.cpus = 0;
	sys.sched_slice_us = 3000;
	sys.fio_main_ms = -1;
	sys.fio_fork_us = 0;
}

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define PARAM(f)	offsetof(struct disk_params, f)

static const struct uint_key {
	const char *name;
	size_t off;
	uint64_t lo, hi;
} uint_keys[] = {
	{ "rpm", PARAM(mech.rpm), 1000, 30000 },
	{ "cache_kb", PARAM(mech.cache_kb), 0, 1 << 20 },
	{ "cache_segments", PARAM(mech.cache_segments), 0, 256 },
	{ "max_sectors_kb", PARAM(max_sectors_kb), 4, 1 << 16 },
	{ "read_ahead_kb", PARAM(read_ahead_kb), 0, 1 << 20 },
	{ "partitions", PARAM(partitions), 0, 4 },
	{ "queue_depth", PARAM(queue_depth), 1, 4096 },
	{ "nr_requests", PARAM(nr_requests), 0, 65536 },
	{ "hw_queues", PARAM(hw_queues), 0, DISK_MAX_HWQ },
};

static const struct dbl_key {
	const char *name;
	size_t off;
	double lo, hi;
} dbl_keys[] = {
	{ "seek_ms", PARAM(mech.seek_ms), 0, SIM_MAX_MS },
	{ "track_ms", PARAM(mech.track_ms), 0, SIM_MAX_MS },
	{ "rate_mbps", PARAM(mech.rate_mbps), 0.001, SIM_MAX_MBPS },
	{ "overhead_us", PARAM(mech.overhead_us), 0, SIM_MAX_US },
	{ "iface_mbps", PARAM(mech.iface_mbps), 0.001, SIM_MAX_MBPS },
	{ "plug_ms", PARAM(plug_ms), 0, SIM_MAX_MS },
	{ "iops", PARAM(mech.iops), 0, 1000000 },
};

#define SYS(f)	offsetof(struct system_params, f)

static const struct dbl_key sys_dbl_keys[] = {
	{ "syscall_us", SYS(syscall_us), 0, SIM_MAX_US },
	{ "copy_mbps", SYS(copy_mbps), 0, SIM_MAX_MBPS },
	{ "fault_us", SYS(fault_us), 0, SIM_MAX_US },
	{ "wakeup_us", SYS(wakeup_us), 0, SIM_MAX_US },
	{ "jitter_us", SYS(jitter_us), 0, SIM_MAX_US },
	{ "sched_slice_us", SYS(sched_slice_us), 1, SIM_MAX_US },
	{ "fio_main_ms", SYS(fio_main_ms), 0, SIM_MAX_START_MS },
	{ "fio_fork_us", SYS(fio_fork_us), 0, SIM_MAX_US },
};

/*
 * @key among @nr @keys: set the double at its offset in @base from @val.
 * 1 when @key is none of them, else 0 or -1 (an error, reported).
 */
static int set_dbl(const struct dbl_key *keys, size_t nr, void *base,
		   const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(key, keys[i].name))
			return opt_double(cur_path, cur_line, key, val,
					  keys[i].lo, keys[i].hi,
					  (double *)((char *)base + keys[i].off));
	return 1;
}

static int set_system(const char *key, const char *val)
{
	int ret;

	if (!strcmp(key, "memory"))
		return opt_size(cur_path, cur_line, key, val, 1 << 20,
				SIM_MAX_MEMORY, &sys.memory);
	if (!strcmp(key, "memcg"))
		return opt_size(cur_path, cur_line, key, val, 1 << 20,
				SIM_MAX_MEMORY, &sys.memcg);
	if (!strcmp(key, "seed"))
		return opt_uint(cur_path, cur_line, key, val, 0, UINT64_MAX,
				&sys.seed);
	if (!strcmp(key, "cpus"))
		return opt_uint(cur_path, cur_line, key, val, 0, 4096,
				&sys.cpus);
	ret = set_dbl(sys_dbl_keys, ARRAY_LEN(sys_dbl_keys), &sys, key, val);
	if (ret <= 0)
		return ret;
	return err("unknown option '%s'", key);
}

/*
 * fail_sectors=START-END[,START-END]...: inclusive ranges of sectors,
 * absolute on the spindle (partition 1 starts at sector 2048), that fail
 * every read touching them, as QEMU's blkdebug fails reads of its rules.
 */
static int set_fail(struct disk_params *p, const char *key, const char *val)
{
	char buf[256], *tok, *save = NULL;

	if (strlen(val) >= sizeof(buf))
		goto bad;
	strcpy(buf, val);
	p->nr_fail = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		uint64_t lo, hi;

		if (!dash || p->nr_fail == DISK_MAX_FAIL)
			goto bad;
		*dash = '\0';
		if (parse_uint(tok, &lo) || parse_uint(dash + 1, &hi) ||
		    hi < lo)
			goto bad;
		if (hi >= SIM_MAX_BYTES >> SECTOR_SHIFT)
			return err("bad value '%s' for option '%s' (allowed: sectors 0 to %llu)",
				   val, key,
				   (SIM_MAX_BYTES >> SECTOR_SHIFT) - 1);
		p->fail[p->nr_fail].start = lo;
		p->fail[p->nr_fail].end = hi;
		p->nr_fail++;
	}
	if (!p->nr_fail)
		goto bad;
	return 0;
bad:
	return err("bad value '%s' for option '%s'", val, key);
}

/* elevator=NAME: the scheduler, with its tunables at their defaults. */
static int set_elevator(struct disk_params *p, const char *key,
			const char *val)
{
	const struct elevator_type *e = elevator_find(val);
	unsigned int i;

	if (!e)
		return err("bad value '%s' for option '%s' (allowed: %s)", val,
			   key, elevator_names());
	p->elv = e;
	for (i = 0; i < e->nr_tunables; i++)
		p->elv_tun[i] = e->tunables[i].def;
	return 0;
}

/* A tunable of the disk's scheduler, by its sysfs name. */
static int set_tunable(struct disk_params *p, const char *key,
		       const char *val)
{
	int i = elevator_tunable(p->elv, key);
	const struct elv_tunable *t;
	char names[256] = "none";
	unsigned int k;
	double d;

	if (i < 0) {
		for (k = 0; k < p->elv->nr_tunables; k++)
			snprintf(names + (k ? strlen(names) : 0),
				 sizeof(names) - (k ? strlen(names) : 0),
				 "%s%s", k ? " " : "",
				 p->elv->tunables[k].name);
		if (!elevator_tunable_anywhere(key))
			return err("unknown option '%s'", key);
		return err("unknown option '%s' for elevator=%s (set elevator= before its tunables; %s's: %s)",
			   key, p->elv->name, p->elv->name, names);
	}
	t = &p->elv->tunables[i];
	if (opt_double(cur_path, cur_line, key, val, t->lo, t->hi, &d))
		return -1;
	p->elv_tun[i] = d;
	return 0;
}

static int set_disk(struct disk_params *p, const char *key, const char *val)
{
	unsigned int i;
	uint64_t u;
	int ret;

	if (!strcmp(key, "capacity"))
		return opt_size(cur_path, cur_line, key, val, 1 << 20,
				SIM_MAX_BYTES, &p->mech.capacity);
	if (!strcmp(key, "elevator"))
		return set_elevator(p, key, val);
	if (!strcmp(key, "fail_sectors"))
		return set_fail(p, key, val);
	if (!strcmp(key, "mount")) {
		if (val[0] != '/' || strlen(val) >= sizeof(p->mount))
			goto bad;
		strcpy(p->mount, val);
		return 0;
	}
	for (i = 0; i < ARRAY_LEN(uint_keys); i++) {
		const struct uint_key *k = &uint_keys[i];

		if (strcmp(key, k->name))
			continue;
		if (opt_uint(cur_path, cur_line, key, val, k->lo, k->hi, &u))
			return -1;
		*(unsigned int *)((char *)p + k->off) = u;
		return 0;
	}
	ret = set_dbl(dbl_keys, ARRAY_LEN(dbl_keys), p, key, val);
	if (ret <= 0)
		return ret;
	return set_tunable(p, key, val);
bad:
	return err("bad value '%s' for option '%s'", val, key);
}

/* "sda" or "sda..sdm": the names share a prefix and differ in the last. */
static int disk_range(const char *spec, char first[16], char *lo, char *hi)
{
	const char *dots = strstr(spec, "..");
	size_t n = dots ? (size_t)(dots - spec) : strlen(spec);

	if (!n || n >= 16 || strspn(spec, "abcdefghijklmnopqrstuvwxyz"
				    "0123456789") < n)
		return -1;
	memcpy(first, spec, n);
	first[n] = '\0';
	*lo = *hi = first[n - 1];
	if (dots) {
		const char *last = dots + 2;

		if (strlen(last) != n || strncmp(last, spec, n - 1) ||
		    last[n - 1] < *lo)
			return -1;
		*hi = last[n - 1];
	}
	return 0;
}

static void subst(char *out, size_t size, const char *pat, const char *part,
		  const char *disk)
{
	size_t o = 0;

	for (; *pat && o + 1 < size; pat++) {
		const char *rep = NULL;

		if (pat[0] == '%' && pat[1] == 'p')
			rep = part;
		else if (pat[0] == '%' && pat[1] == 'd')
			rep = disk;
		if (rep) {
			o += snprintf(out + o, size - o, "%s", rep);
			if (o >= size)
				o = size - 1;
			pat++;
			continue;
		}
		out[o++] = *pat;
	}
	out[o] = '\0';
}

static int add_disks(const char *first, char lo, char hi,
		     const struct disk_params *p)
{
	char c;
	unsigned int i;

	for (c = lo; c <= hi; c++) {
		struct disk *d;
		uint64_t total, each;

		if (nr_disks == MAX_DISKS)
			return err("too many disks");
		d = &disks[nr_disks];
		memset(d, 0, sizeof(*d));
		snprintf(d->name, sizeof(d->name), "%s", first);
		d->name[strlen(d->name) - 1] = c;
		for (i = 0; i < nr_disks; i++)
			if (!strcmp(disks[i].name, d->name))
				return err("disk %s defined twice", d->name);
		d->p = *p;
		d->dev = MKDEV(8 + (nr_disks / 16 ? 57 : 0),
			       (nr_disks % 16) * 16);
		total = p->mech.capacity >> SECTOR_SHIFT;
		/* Partitions start at 1 MB, as fdisk puts them. */
		each = (total - 2048) / (p->partitions ? p->partitions : 1);
		each &= ~2047ULL;
		for (i = 0; i < (p->partitions ? p->partitions : 1); i++) {
			struct partition *pt = &parts[nr_parts++];

			pt->disk = d;
			pt->major = MAJOR(d->dev);
			pt->minor = MINOR(d->dev) + (p->partitions ? i + 1 : 0);
			if (p->partitions)
				snprintf(pt->name, sizeof(pt->name), "%s%u",
					 d->name, i + 1);
			else
				snprintf(pt->name, sizeof(pt->name), "%s",
					 d->name);
			pt->start = p->partitions ? 2048 + i * each : 0;
			pt->nsect = p->partitions ? each : total;
			subst(pt->mount, sizeof(pt->mount), p->mount,
			      pt->name, d->name);
		}
		nr_disks++;
	}
	return 0;
}

int diskdesc_parse(const char *path)
{
	FILE *f = fopen(path, "r");
	char raw[1024];
	struct disk_params params;
	char first[16] = "", lo = 0, hi = 0;
	enum { NONE, SYSTEM, DISK } sect = NONE;
	int ret = 0;

	cur_path = path;
	cur_line = 0;
	system_defaults();
	if (!f) {
		fprintf(stderr, "%s: cannot open\n", path);
		return -1;
	}
	while (fgets(raw, sizeof(raw), f)) {
		char *s, *eq;

		cur_line++;
		s = trim(raw);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');

			if (!close || close[1]) {
				ret = err("malformed section header");
				break;
			}
			*close = '\0';
			if (sect == DISK)
				ret = add_disks(first, lo, hi, &params);
			if (ret)
				break;
			s = trim(s + 1);
			if (!strcmp(s, "system")) {
				sect = SYSTEM;
			} else if (!strncmp(s, "disk ", 5)) {
				sect = DISK;
				disk_defaults(&params);
				if (disk_range(trim(s + 5), first, &lo, &hi)) {
					ret = err("bad disk name '%s'",
						  trim(s + 5));
					break;
				}
			} else {
				ret = err("unknown section '%s'", s);
				break;
			}
			continue;
		}
		if (sect == NONE) {
			ret = err("option outside a section");
			break;
		}
		eq = strchr(s, '=');
		if (!eq) {
			ret = err("malformed line");
			break;
		}
		*eq = '\0';
		s = trim(s);
		eq = trim(eq + 1);
		if (!*s || !*eq) {
			ret = err("malformed line");
			break;
		}
		ret = sect == SYSTEM ? set_system(s, eq) :
				       set_disk(&params, s, eq);
		if (ret)
			break;
	}
	fclose(f);
	if (!ret && sect == DISK)
		ret = add_disks(first, lo, hi, &params);
	if (!ret && !nr_disks) {
		fprintf(stderr, "%s: no disks\n", path);
		ret = -1;
	}
	return ret;
}

struct partition *part_for_path(const char *path)
{
	unsigned int i;

	for (i = 0; i < nr_parts; i++) {
		size_t n = strlen(parts[i].mount);

		if (!strncmp(path, parts[i].mount, n) && path[n] == '/' &&
		    !strchr(path + n + 1, '/') && path[n + 1])
			return &parts[i];
	}
	return NULL;
}
