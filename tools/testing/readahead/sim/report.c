// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - what a run prints.
 *
 * Owns the output: a fio-like summary per job clone, or per group with
 * group_reporting (bandwidth, runtime, completion latency, faults), the
 * per-disk counters in the fields of /sys/block/DEV/stat plus mean
 * request size, seeks and utilisation, the readahead calls as observed,
 * the page cache and the pages read ahead (evicted unread: their
 * fraction), throughput against the physical limit (the streaming rate
 * of the disks the jobs read; distinct data read faster than that is
 * flagged: the file was partly cached), I/O errors per job (fio's err=, the
 * pages, the retries, ra_pages before and after) and per disk, the
 * folios added by order (when a file has large folios), the
 * conservation checks (delivered + failed = requested), a one-line
 * machine-readable summary, and last the engine's own rate in host CPU
 * time (the only line that differs between two identical runs).  Also
 * the optional timeline: disk throughput per 100 ms of simulated time.
 */
#include "jobs.h"
#include "elevator.h"
#include "ra_observe.h"

#include <string.h>

FILE *timeline_file;
#define TIMELINE_NS	(100 * NS_PER_MS)

static uint64_t tl_last_sectors;

static uint64_t all_sectors(void)
{
	uint64_t s = 0;
	unsigned int i;

	for (i = 0; i < nr_disks; i++)
		s += disks[i].st.sectors;
	return s;
}

void report_timeline_sample(void *obj, uint64_t arg)
{
	uint64_t s = all_sectors();

	(void)obj;
	(void)arg;
	fprintf(timeline_file, "%.1f %.2f\n", sim_now / 1e9,
		(double)((s - tl_last_sectors) << SECTOR_SHIFT) / 1e6 /
		(TIMELINE_NS / 1e9));
	tl_last_sectors = s;
	if (!readers_all_done())
		ev_at(sim_now + TIMELINE_NS, report_timeline_sample, NULL, 0);
}

struct agg {
	uint64_t requested, delivered, ops, major, minor;
	simtime_t start, finish, lat_min, lat_max, lat_sum;
	unsigned int n;
	int pid, err;
	uint64_t errors, failed, first_err, last_err, not_uptodate;
	uint64_t read_folio, read_folio_eio;
	unsigned int ra_start, ra_end;
};

static void agg_add(struct agg *a, const struct reader_stat *st)
{
	if (!a->n || st->start < a->start)
		a->start = st->start;
	if (st->finish > a->finish)
		a->finish = st->finish;
	if (!a->n || st->lat_min < a->lat_min)
		a->lat_min = st->lat_min;
	if (st->lat_max > a->lat_max)
		a->lat_max = st->lat_max;
	if (!a->n)
		a->pid = st->pid;
	a->lat_sum += st->lat_sum;
	a->requested += st->requested;
	a->delivered += st->delivered;
	a->ops += st->ops;
	a->major += st->major_faults;
	a->minor += st->minor_faults;
	if (st->errors) {
		if (!a->errors || st->first_err < a->first_err)
			a->first_err = st->first_err;
		if (!a->errors || st->last_err > a->last_err)
			a->last_err = st->last_err;
		if (!a->err)
			a->err = st->err;
	}
	a->errors += st->errors;
	a->failed += st->failed;
	a->not_uptodate += st->not_uptodate;
	a->read_folio += st->read_folio;
	a->read_folio_eio += st->read_folio_eio;
	/* ra_pages: the largest at open, the smallest at the end */
	if (!a->n || st->ra_pages_start > a->ra_start)
		a->ra_start = st->ra_pages_start;
	if (!a->n || st->ra_pages_end < a->ra_end)
		a->ra_end = st->ra_pages_end;
	a->n++;
}

static void print_job(FILE *out, const char *name, const struct agg *a,
		      bool mmap)
{
	double secs = (a->finish - a->start) / 1e9;
	double bw = secs > 0 ? a->delivered / secs : 0;

	if (!a->err)
		fprintf(out, "%s: (groupid=0, jobs=%u): err= 0: pid=%d\n",
			name, a->n, a->pid);
	else
		fprintf(out, "%s: (groupid=0, jobs=%u): err= %d (%s): pid=%d\n",
			name, a->n, a->err, a->err == EIO ?
			"func=io_u error, error=Input/output error" :
			"signal, error=Bus error", a->pid);
	fprintf(out, "  read: IOPS=%.0f, BW=%.1fMiB/s (%.1fMB/s)(%.1fMiB/%llumsec)\n",
		secs > 0 ? a->ops / secs : 0, bw / (1 << 20), bw / 1e6,
		a->delivered / (double)(1 << 20),
		(unsigned long long)((a->finish - a->start) / NS_PER_MS));
	fprintf(out, "    clat (usec): min=%llu, max=%llu, avg=%.2f\n",
		(unsigned long long)(a->lat_min / NS_PER_US),
		(unsigned long long)(a->lat_max / NS_PER_US),
		a->ops ? a->lat_sum / 1e3 / a->ops : 0);
	if (mmap)
		fprintf(out, "    faults: major=%llu, minor=%llu\n",
			(unsigned long long)a->major,
			(unsigned long long)a->minor);
	if (a->errors || a->read_folio)
		fprintf(out, "    errors: %llu (pages %llu..%llu), failed=%llu bytes, read_folio=%llu (%llu failed), ra_pages=%u->%u\n",
			(unsigned long long)a->errors,
			(unsigned long long)a->first_err,
			(unsigned long long)a->last_err,
			(unsigned long long)a->failed,
			(unsigned long long)a->read_folio,
			(unsigned long long)a->read_folio_eio,
			a->ra_start, a->ra_end);
}

static void report_jobs(FILE *out, struct agg *all)
{
	bool group = false;
	unsigned int i, j;
	char name[96];

	for (i = 0; i < nr_jobs; i++)
		group |= jobs[i].group_reporting;
	for (i = 0; i < nr_readers; i++)
		agg_add(all, reader_stat(i));
	if (group) {
		bool mmap = false;

		for (i = 0; i < nr_jobs; i++)
			mmap |= jobs[i].engine == ENG_MMAP;
		print_job(out, jobs[0].name, all, mmap);
	} else {
		for (i = 0, j = 0; i < nr_readers; i++) {
			struct agg a = { 0 };
			const struct job *jb = reader_job(i);

			j = (i && reader_job(i - 1) == jb) ? j + 1 : 0;
			agg_add(&a, reader_stat(i));
			if (jb->numjobs > 1)
				snprintf(name, sizeof(name), "%s.%u",
					 jb->name, j);
			else
				snprintf(name, sizeof(name), "%s", jb->name);
			print_job(out, name, &a, jb->engine == ENG_MMAP);
		}
	}
	fprintf(out, "\nRun status group 0 (all jobs):\n");
	fprintf(out, "   READ: bw=%.1fMiB/s (%.1fMB/s), io=%.1fMiB, run=%llu-%llumsec\n",
		all->delivered / ((all->finish - all->start) / 1e9) / (1 << 20),
		all->delivered / ((all->finish - all->start) / 1e9) / 1e6,
		all->delivered / (double)(1 << 20),
		(unsigned long long)(all->start / NS_PER_MS),
		(unsigned long long)(all->finish / NS_PER_MS));
}

/* The I/O schedulers' idling and merging, and the CPUs' run queue. */
static struct disk_stat sched;
static simtime_t sched_runq_ns;

static void report_sched(FILE *out)
{
	unsigned int i;

	memset(&sched, 0, sizeof(sched));
	sched_runq_ns = 0;
	for (i = 0; i < nr_disks; i++) {
		sched.idles += disks[i].st.idles;
		sched.idle_ns += disks[i].st.idle_ns;
		sched.preempts += disks[i].st.preempts;
		sched.merges_queues += disks[i].st.merges_queues;
	}
	for (i = 0; i < nr_readers; i++)
		sched_runq_ns += reader_stat(i)->runq_wait;
	fprintf(out, "  I/O scheduler %s: %llu idle periods, %llu ms idle, %llu preemptions, %llu queue merges (all disks)\n",
		nr_disks ? disks[0].p.elv->name : "-",
		(unsigned long long)sched.idles,
		(unsigned long long)(sched.idle_ns / NS_PER_MS),
		(unsigned long long)sched.preempts,
		(unsigned long long)sched.merges_queues);
	if (sys.cpus)
		fprintf(out, "  CPUs: %llu, readers waited %llu ms for one in all\n",
			(unsigned long long)sys.cpus,
			(unsigned long long)(sched_runq_ns / NS_PER_MS));
}

/*
 * With --blktrace, what btt should find: requests, their mean size in
 * sectors, mean D2C and Q2C in s (Q2C from the request's first bio,
 * its wait for a request included: btt's equals it where no bio merged
 * or split).
 */
static void report_blktrace(FILE *out, const struct disk *d)
{
	const struct disk_stat *st = &d->st;

	if (!d->bt || !st->ios)
		return;
	fprintf(out, "  blktrace %s: requests=%llu blk_avg=%llu d2c_avg=%.9f q2c_avg=%.9f merges=%llu\n",
		d->name, (unsigned long long)st->ios,
		(unsigned long long)(st->sectors / st->ios),
		st->d2c_ns / 1e9 / st->ios, st->q2c_ns / 1e9 / st->ios,
		(unsigned long long)st->merges);
}

/*
 * A disk given queue_depth, nr_requests or hw_queues: the most requests it had on
 * the disk and allocated at once, and the bios that waited for a request
 * (their mean wait, Q to G).
 */
static void report_queue(FILE *out, const struct disk *d)
{
	const struct disk_stat *st = &d->st;

	if (!d->p.queue_depth && !d->p.nr_requests && !d->p.hw_queues)
		return;
	fprintf(out, "  queue %s: queue_depth=%u nr_requests=%u hw_queues=%u max_on_disk=%llu max_allocated=%llu tag_waits=%llu tag_wait_avg_ms=%.3f\n",
		d->name, blk_queue_depth(d), d->p.nr_requests, d->p.hw_queues,
		(unsigned long long)st->max_busy,
		(unsigned long long)st->max_alloc,
		(unsigned long long)st->tag_waits,
		st->tag_waits ? st->tag_wait_ns / 1e6 / st->tag_waits : 0.0);
}

/* With a large-folio file: the folios put in the page cache, by order. */
static void report_folios(FILE *out)
{
	bool large = false;
	unsigned int i;

	for (i = 0; i < nr_jobs; i++)
		large |= jobs[i].large_folios;
	if (!large)
		return;
	fprintf(out, "Folios added by order:");
	for (i = 0; i <= MAX_PAGECACHE_ORDER; i++)
		if (cache_st.folios[i])
			fprintf(out, " %u:%llu", i,
				(unsigned long long)cache_st.folios[i]);
	fprintf(out, "\n");
}

/*
 * The summary line's fields, printed from one table: as the "summary:"
 * line (key=value, each with its precision) and, with --json, as one JSON
 * object a run (the same keys and values).
 */
struct summary_field {
	const char *key;
	int prec;		/* digits after the point; -1: a count */
	double real;
	uint64_t count;
};
#define F_REAL(k, p, v)	{ .key = (k), .prec = (p), .real = (v) }
#define F_COUNT(k, v)	{ .key = (k), .prec = -1, .count = (uint64_t)(v) }

FILE *report_json;

static void summary_field_print(FILE *f, const struct summary_field *sf)
{
	if (sf->prec < 0)
		fprintf(f, "%llu", (unsigned long long)sf->count);
	else
		fprintf(f, "%.*f", sf->prec, sf->real);
}

static void summary_print(FILE *out, const struct summary_field *f,
			  size_t n)
{
	size_t i;

	fprintf(out, "summary: impl=%s", ra_impl->name);
	for (i = 0; i < n; i++) {
		fprintf(out, " %s=", f[i].key);
		summary_field_print(out, &f[i]);
	}
	fprintf(out, "\n");
}

static void summary_print_json(FILE *out, const struct summary_field *f,
			       size_t n)
{
	size_t i;

	fprintf(out, "{\"impl\": \"%s\", \"seed\": %llu", ra_impl->name,
		(unsigned long long)sys.seed);
	for (i = 0; i < n; i++) {
		fprintf(out, ", \"%s\": ", f[i].key);
		summary_field_print(out, &f[i]);
	}
	fprintf(out, "}\n");
	fflush(out);
}

void report(FILE *out, double host_seconds)
{
	struct agg all = { 0 };
	double secs, disk_bytes = 0, limit = 0;
	uint64_t ios = 0, sectors = 0, past_eof = 0, reread = 0, err_reqs = 0;
	uint64_t read_twice = 0;
	unsigned int i, j, used_disks = 0;
	double unused, app, distinct;
	struct ra_obs tot = { 0 };
	double model = 0;
	uint64_t seeks;
	bool ok;

	fprintf(out, "ra_sim: impl=%s seed=%llu memory=%lluMiB disks=%u readers=%u\n\n",
		ra_impl->name, (unsigned long long)sys.seed,
		(unsigned long long)(sys.memory >> 20), nr_disks, nr_readers);
	report_jobs(out, &all);
	secs = (all.finish - all.start) / 1e9;

	fprintf(out, "\nDisk stats (/sys/block/DEV/stat fields; ticks in ms), then mean request, seeks, utilisation:\n");
	fprintf(out, "  %-5s %9s %9s %11s %9s %3s %3s %3s %3s %3s %9s %9s %8s %8s %6s\n",
		"dev", "rd_ios", "rd_merges", "rd_sectors", "rd_ticks",
		"wio", "wmg", "wsc", "wtk", "inf", "io_ticks", "in_queue",
		"req_kb", "seeks", "util");
	for (i = 0; i < nr_disks; i++) {
		struct disk *d = &disks[i];
		struct disk_stat *st = &d->st;
		bool used = false;
		unsigned int j;

		for (j = 0; j < nr_jobs; j++)
			used |= jobs[j].si->part->disk == d;
		if (used) {
			used_disks++;
			limit += disk_rate_bps(&d->p);
		}
		ios += st->ios;
		sectors += st->sectors;
		fprintf(out, "  %-5s %9llu %9llu %11llu %9llu %3d %3d %3d %3d %3u %9llu %9llu %8.1f %8llu %5.1f%%\n",
			d->name, (unsigned long long)st->ios,
			(unsigned long long)st->merges,
			(unsigned long long)st->sectors,
			(unsigned long long)(st->ticks_ns / NS_PER_MS),
			0, 0, 0, 0, d->in_flight,
			(unsigned long long)(st->io_ticks_ns / NS_PER_MS),
			(unsigned long long)(st->in_queue_ns / NS_PER_MS),
			st->ios ? st->sectors / 2.0 / st->ios : 0,
			(unsigned long long)st->seeks,
			secs > 0 ? 100.0 * st->busy_ns / 1e9 / secs : 0);
	}
	for (i = 0; i < nr_disks; i++)
		report_blktrace(out, &disks[i]);
	for (i = 0; i < nr_disks; i++)
		report_queue(out, &disks[i]);
	disk_bytes = (double)(sectors << SECTOR_SHIFT);
	report_sched(out);
	for (i = 0; i < nr_disks; i++) {
		struct disk *d = &disks[i];

		if (!d->p.nr_fail)
			continue;
		fprintf(out, "  %-5s I/O errors: %llu requests failed, %llu pages (fail_sectors",
			d->name, (unsigned long long)d->st.err_reqs,
			(unsigned long long)d->st.err_pages);
		for (j = 0; j < d->p.nr_fail; j++)
			fprintf(out, "%c%llu-%llu", j ? ',' : '=',
				(unsigned long long)d->p.fail[j].start,
				(unsigned long long)d->p.fail[j].end);
		fprintf(out, ")\n");
		err_reqs += d->st.err_reqs;
	}

	fprintf(out, "\nReadahead calls (observed by the simulator):\n");
	fprintf(out, "  %-10s %10s %10s %12s %10s %10s %12s\n", "call",
		"calls", "windows", "pages_io", "all_cached", "dup_calls",
		"dup_pages");
	for (i = 0; i <= RA_CALL_NR; i++) {
		const struct ra_obs *o = i < RA_CALL_NR ? &ra_obs[i] : &tot;

		if (i < RA_CALL_NR) {
			tot.calls += o->calls;
			tot.moved += o->moved;
			tot.pages += o->pages;
			tot.all_cached += o->all_cached;
			tot.dup_calls += o->dup_calls;
			tot.dup_pages += o->dup_pages;
		}
		fprintf(out, "  %-10s %10llu %10llu %12llu %10llu %10llu %12llu\n",
			i < RA_CALL_NR ? ra_call_names[i] : "all",
			(unsigned long long)o->calls,
			(unsigned long long)o->moved,
			(unsigned long long)o->pages,
			(unsigned long long)o->all_cached,
			(unsigned long long)o->dup_calls,
			(unsigned long long)o->dup_pages);
	}

	if (ra_impl == &ra_ours) {
		static char buf[8192];

		fprintf(out, "\nReadahead stats per pattern (debugfs readahead/stats):\n");
		if (h_debugfs_read("readahead/stats", buf, sizeof(buf)) > 0)
			fputs(buf, out);
	} else {
		fprintf(out, "\nReadahead decisions by pattern, inferred from the windows left (%s %s):\n",
			ra_impl->name,
			ra_impl->flags & RA_IMPL_OWN_TRACE ?
			"keeps no stats; its trace names the patterns" :
			"prints no trace");
		fprintf(out, "%-10s %10s %10s %10s %10s\n", "pattern",
			"readahead", "io", "size", "io_size");
		for (i = 0; i < nr_inferred; i++) {
			const struct ra_inferred *p = &ra_inferred[i];

			fprintf(out, "%-10s %10llu %10llu %10llu %10llu\n",
				p->pattern, (unsigned long long)p->calls,
				(unsigned long long)p->io,
				(unsigned long long)(p->calls ?
						     p->size / p->calls : 0),
				(unsigned long long)(p->io ?
						     p->io_size / p->io : 0));
		}
	}

	fprintf(out, "\nPage cache: memory=%lu pages, peak=%llu, added=%llu, evicted=%llu, read_ahead_evicted_unused=%llu, overcommit=%llu\n",
		cache_mem_pages, (unsigned long long)cache_st.peak_live,
		(unsigned long long)cache_st.added,
		(unsigned long long)cache_st.evicted,
		(unsigned long long)cache_st.evicted_unused,
		(unsigned long long)cache_st.overcommit);
	unused = cache_st.read_ahead ?
		 (double)cache_st.evicted_unused / cache_st.read_ahead : 0;
	fprintf(out, "Read ahead: pages=%llu, evicted_unused=%llu (fraction %.4f), alloc_failed=%llu, prefilled=%llu\n",
		(unsigned long long)cache_st.read_ahead,
		(unsigned long long)cache_st.evicted_unused, unused,
		(unsigned long long)cache_st.alloc_failed,
		(unsigned long long)cache_st.prefilled);
	report_folios(out);

	fprintf(out, "\nThroughput (MB = 10^6 bytes):\n");
	fprintf(out, "  application %10.1f MB/s  (fio aggregate, %u readers)\n",
		secs > 0 ? all.delivered / secs / 1e6 : 0, nr_readers);
	fprintf(out, "  from disks  %10.1f MB/s  (%.1f MB in %.3f s)\n",
		secs > 0 ? disk_bytes / secs / 1e6 : 0, disk_bytes / 1e6,
		secs);
	fprintf(out, "  limit       %10.1f MB/s  (streaming rate of the %u disks read)\n",
		limit / 1e6, used_disks);
	fprintf(out, "  fraction    %10.3f       of the limit\n",
		secs > 0 && limit > 0 ? disk_bytes / secs / limit : 0);
	app = secs > 0 && limit > 0 ? all.delivered / secs / limit : 0;
	distinct = secs > 0 && limit > 0 ?
		   (double)cache_st.unique_pages * PAGE_SIZE / secs / limit : 0;
	fprintf(out, "  app fraction %9.3f       of the limit\n", app);
	/* Readers sharing a file may add up to more; each page once may not. */
	fprintf(out, "  distinct     %9.3f       of the limit (each page read counted once)\n",
		distinct);
	if (distinct > 1.0)
		fprintf(out, "  WARNING: the readers got more distinct data than the disks can stream (%.3f of the limit): %llu pages were cached before the run; not a cold read\n",
			distinct, (unsigned long long)cache_st.prefilled);
	if (used_disks == 1 && nr_readers == 1) {
		const struct disk_params *p = &jobs[0].si->part->disk->p;

		model = disk_bytes / disk_stream_seconds(p, disk_bytes,
				(uint64_t)p->max_sectors_kb << 10);
		fprintf(out, "  model       %10.1f MB/s  (the disk model's formula for one stream of %u KB requests)\n",
			model / 1e6, p->max_sectors_kb);
	}

	for (i = 0; i < nr_jobs; i++) {
		past_eof += jobs[i].si->past_eof;
		reread += jobs[i].si->reread;
		for (j = 0; j < i && jobs[j].si != jobs[i].si; j++)
			;
		if (j == i)
			read_twice += jobs[i].si->read_twice;
	}
	ok = all.requested == all.delivered + all.failed && !past_eof &&
	     !reread && !all.not_uptodate;
	fprintf(out, "\nChecks: requested=%llu delivered=%llu failed=%llu past_eof=%llu reread_cached=%llu copied_not_uptodate=%llu: %s\n",
		(unsigned long long)all.requested,
		(unsigned long long)all.delivered,
		(unsigned long long)all.failed,
		(unsigned long long)past_eof, (unsigned long long)reread,
		(unsigned long long)all.not_uptodate, ok ? "ok" : "FAILED");

	seeks = 0;
	for (i = 0; i < nr_disks; i++)
		seeks += disks[i].st.seeks;
	{
		const struct summary_field f[] = {
			F_REAL("app_mbps", 1, secs > 0 ? all.delivered / secs / 1e6 : 0),
			F_REAL("disk_mbps", 1, secs > 0 ? disk_bytes / secs / 1e6 : 0),
			F_REAL("limit_mbps", 1, limit / 1e6),
			F_REAL("fraction", 3, secs > 0 && limit > 0 ?
			       disk_bytes / secs / limit : 0),
			F_REAL("reqs_per_disk", 0, used_disks ?
			       (double)ios / used_disks : 0),
			F_REAL("req_kb", 1, ios ? sectors / 2.0 / ios : 0),
			F_COUNT("seeks", seeks),
			F_COUNT("dup_calls", tot.dup_calls),
			F_COUNT("all_cached", tot.all_cached),
			F_COUNT("evicted_unused", cache_st.evicted_unused),
			F_COUNT("major_faults", all.major),
			F_COUNT("elapsed_ms", (all.finish - all.start) / NS_PER_MS),
			F_REAL("model_mbps", 1, model / 1e6),
			F_COUNT("errors", all.errors),
			F_COUNT("failed_bytes", all.failed),
			F_COUNT("err_reqs", err_reqs),
			F_COUNT("read_ahead", cache_st.read_ahead),
			F_REAL("unused_fraction", 4, unused),
			F_REAL("app_fraction", 3, app),
			F_REAL("distinct_fraction", 3, distinct),
			F_COUNT("idles", sched.idles),
			F_COUNT("idle_ms", sched.idle_ns / NS_PER_MS),
			F_COUNT("preempts", sched.preempts),
			F_COUNT("qmerges", sched.merges_queues),
			F_COUNT("runq_ms", sched_runq_ns / NS_PER_MS),
			F_COUNT("read_twice", read_twice),
		};

		summary_print(out, f, ARRAY_SIZE(f));
		if (report_json)
			summary_print_json(report_json, f, ARRAY_SIZE(f));
	}
	fprintf(out, "engine: %llu page reads, %llu events in %.2f s host CPU: %.0f page reads/s\n",
		(unsigned long long)page_reads,
		(unsigned long long)ev_count(), host_seconds,
		host_seconds > 0 ? page_reads / host_seconds : 0);
}
