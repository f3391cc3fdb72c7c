/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobs.h - jobs (from fio job files), the machine description, readers.
 */
#ifndef RA_SIM_JOBS_H
#define RA_SIM_JOBS_H

#include "sim.h"

enum rw_mode { RW_READ, RW_RANDREAD };
enum io_engine { ENG_SYNC, ENG_PSYNC, ENG_MMAP };

/* One job section, [global] applied. */
struct job {
	char name[64];
	enum rw_mode rw;
	enum io_engine engine;
	uint64_t bs, size, offset, thinktime_us;
	uint64_t io_size;		/* bytes each process reads, 0: size */
	unsigned int numjobs;
	char filename[128];
	bool fadvise_hint, invalidate, group_reporting;
	bool continue_on_error;		/* on read errors: none | read */
	uint64_t pre_cached;		/* bytes of the file's tail cached */
	bool large_folios;		/* the file's mapping takes them */
	bool thp;			/* mmap: MADV_HUGEPAGE (VM_HUGEPAGE) */
	int thp_line;
	int large_folios_line;		/* where it was set, 0: default */
	const char *path;		/* job file, for messages */
	int line;			/* of the section header */
	int filename_line;
	struct sim_inode *si;
};

#define MAX_JOBS	1024
extern struct job jobs[MAX_JOBS];
extern unsigned int nr_jobs;

/* Parse @path; on error print "path:line: message" and return -1. */
int jobfile_parse(const char *path);
/* ${NAME} in job files: --define NAME=VALUE, else the environment. */
void jobfile_define(const char *name, const char *value);

/* The machine: [system] and [disk ...] sections of a .disks file. */
struct system_params {
	uint64_t memory;
	/* the readers' memory cgroup limit (memory.max); 0: none */
	uint64_t memcg;
	uint64_t seed;
	double syscall_us, copy_mbps, fault_us, wakeup_us;
	/* scheduling noise: up to this much more per wake-up and start */
	double jitter_us;
	uint64_t cpus;			/* 0: one per reader */
	double sched_slice_us;		/* run on this long while others wait */
	/* fio's main process (fiomain.c): the jobs start then; < 0: none */
	double fio_main_ms;
	double fio_fork_us;		/* and one this long after another */
};

#define MAX_DISKS	64
#define MAX_PARTS	(MAX_DISKS * 4)
extern struct system_params sys;
extern struct disk disks[MAX_DISKS];
extern unsigned int nr_disks;
extern struct partition parts[MAX_PARTS];
extern unsigned int nr_parts;

int diskdesc_parse(const char *path);
struct partition *part_for_path(const char *path);

/* A reading process: one clone of a job. */
struct reader;
extern struct reader *readers;
extern unsigned int nr_readers;
extern uint64_t page_reads;

void readers_create(void);
void readers_start(void);
/* The readers start running: the first at @at, each next @step later. */
void readers_launch(simtime_t at, simtime_t step);

/* fiomain.c: fio's main process stats the files, then starts the jobs. */
#define FIO_MAIN_PID	999
void fio_main_run(void);
bool readers_all_done(void);

struct reader_stat {
	uint64_t requested, delivered, ops, major_faults, minor_faults;
	simtime_t start, finish, lat_min, lat_max, lat_sum;
	int pid;
	/* I/O errors: failed operations, their bytes not delivered */
	uint64_t errors, failed;
	uint64_t first_err, last_err;	/* page of the first, last error */
	int err;			/* the job's error: EIO, or SIGBUS */
	/* ->read_folio retries after a failed read, and how many failed */
	uint64_t read_folio, read_folio_eio;
	unsigned int ra_pages_start, ra_pages_end;
	uint64_t not_uptodate;		/* pages copied while not uptodate */
	simtime_t runq_wait;		/* waiting for a CPU (cpus=N) */
};
const struct reader_stat *reader_stat(unsigned int i);
const struct job *reader_job(unsigned int i);

/* report.c */
void report(FILE *out, double host_seconds);
void report_timeline_sample(void *obj, uint64_t arg);
extern FILE *timeline_file;
/* --json: the run's summary as a JSON object (report.c), NULL: none. */
extern FILE *report_json;

/* Small parsing helpers shared by the two parsers (jobfile.c). */
int file_err(const char *path, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int parse_size(const char *s, uint64_t *out);
int parse_uint(const char *s, uint64_t *out);
int parse_double(const char *s, double *out);
/*
 * Option values with an allowed range: parsed into *out only if they lie
 * in [lo, hi]; otherwise "PATH:LINE: bad value 'VAL' for option 'KEY'",
 * followed by " (allowed: LO to HI)" for a number out of range, and -1.
 */
int opt_size(const char *path, int line, const char *key, const char *val,
	     uint64_t lo, uint64_t hi, uint64_t *out);
int opt_uint(const char *path, int line, const char *key, const char *val,
	     uint64_t lo, uint64_t hi, uint64_t *out);
int opt_double(const char *path, int line, const char *key, const char *val,
	       double lo, double hi, double *out);

/*
 * The ranges: bytes of a file, offset, cached tail or disk (64 TiB:
 * sector and page counts, offset+size and the disk model's arithmetic
 * stay far from overflowing), a block, a think time.
 */
#define SIM_MAX_BYTES		(64ULL << 40)
#define SIM_MAX_BS		(1ULL << 30)
#define SIM_MAX_THINK_US	3600000000ULL	/* an hour */
#define SIM_MAX_MEMORY		(256ULL << 30)
#define SIM_MAX_US		1e6		/* per-operation costs: 1 s */
#define SIM_MAX_MS		1e3		/* seek, track, plug: 1 s */
#define SIM_MAX_START_MS	6e4		/* fio's jobs start: a minute */
#define SIM_MAX_MBPS		1e6		/* rates: 1 TB/s */
char *trim(char *s);

#endif
