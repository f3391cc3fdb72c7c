// SPDX-License-Identifier: GPL-2.0
/*
 * elv_test.c - drives one I/O scheduler with a crafted request sequence.
 *
 * The simulator's block queue (blkq.c) and scheduler (elevator.c,
 * elv-*.c) run as they do in ra_sim, in front of a disk whose every
 * request takes SERVICE_US (this file's disk_service(), not disk.c's
 * mechanics), so that the dispatch order and the idling are the
 * scheduler's alone.  Input, one request a line on stdin:
 *
 *   AT_US PID SECTOR NSECT      submitted at AT_US by task PID
 *
 * Output, one line per dispatch and completion, in time order:
 *
 *   T_US dispatch pid=PID sector=SECTOR nsect=NSECT
 *   T_US complete pid=PID sector=SECTOR
 *
 * then "idles=N idle_us=N preempts=N qmerges=N".  Usage:
 *
 *   elv_test ELEVATOR [TUNABLE=VALUE]... < requests
 */
#include "../elevator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SERVICE_US	1000

static struct disk disk;
/* blkq.c names the task it works for (blktrace, never on here). */
struct task_struct *shim_current;

simtime_t disk_service(struct disk *d, uint64_t sector, uint64_t nsect,
		       bool *seek)
{
	*seek = false;
	d->mech.head = sector + nsect;
	printf("%llu dispatch pid=%d sector=%llu nsect=%llu\n",
	       (unsigned long long)(sim_now / NS_PER_US), d->active->pid,
	       (unsigned long long)sector, (unsigned long long)nsect);
	return SERVICE_US * NS_PER_US;
}

bool disk_read_fails(const struct disk *d, uint64_t sector, uint64_t nsect)
{
	(void)d;
	(void)sector;
	(void)nsect;
	return false;
}

static void end_io(struct bio *b, int err)
{
	(void)err;
	printf("%llu complete pid=%d sector=%llu\n",
	       (unsigned long long)(sim_now / NS_PER_US), b->pid,
	       (unsigned long long)b->sector);
}

static void submit(void *obj, uint64_t arg)
{
	struct bio *b = obj;

	(void)arg;
	submit_bio(b);
}

int main(int argc, char **argv)
{
	const struct elevator_type *e;
	unsigned long long at, sector, nsect;
	int i, pid;

	e = argc < 2 ? NULL : elevator_find(argv[1]);
	if (!e) {
		fprintf(stderr, "usage: elv_test ELEVATOR [TUNABLE=VALUE]... < requests (elevators: %s)\n",
			elevator_names());
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	ev_init();
	strcpy(disk.name, "sda");
	disk.p.max_sectors_kb = 512;
	disk.p.elv = e;
	for (i = 0; i < (int)e->nr_tunables; i++)
		disk.p.elv_tun[i] = e->tunables[i].def;
	for (i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		int k;

		if (!eq)
			return 2;
		*eq = '\0';
		k = elevator_tunable(e, argv[i]);
		if (k < 0) {
			fprintf(stderr, "elv_test: %s has no tunable %s\n",
				e->name, argv[i]);
			return 2;
		}
		disk.p.elv_tun[k] = atof(eq + 1);
	}
	blk_init_queue(&disk);
	while (scanf("%llu %d %llu %llu", &at, &pid, &sector, &nsect) == 4) {
		struct bio *b = bio_alloc();

		b->disk = &disk;
		b->pid = pid;
		b->sector = sector;
		b->nr = nsect / PAGE_SECTORS;
		b->end_io = end_io;
		ev_at(at * NS_PER_US, submit, b, 0);
	}
	while (ev_step())
		;
	printf("idles=%llu idle_us=%llu preempts=%llu qmerges=%llu\n",
	       (unsigned long long)disk.st.idles,
	       (unsigned long long)(disk.st.idle_ns / NS_PER_US),
	       (unsigned long long)disk.st.preempts,
	       (unsigned long long)disk.st.merges_queues);
	blk_exit_queue(&disk);
	return 0;
}
