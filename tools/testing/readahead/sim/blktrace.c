// SPDX-License-Identifier: GPL-2.0
/*
 * blktrace.c - the disks' block layer events in blktrace's binary format.
 *
 * Owns ra_sim --blktrace DIR: for each disk, DIR/IMPL/DEV.blktrace.0,
 * the file the blktrace tool writes for DEV's events on CPU 0, so that
 * blkparse and btt read a simulated run as they read a real one
 * (blkparse -i DEV -D DIR/IMPL; btt on blkparse's -d dump).  Records are
 * blktrace.h's, in the host's byte order (blkparse finds it from the
 * magic), timed in simulated ns, sectors on the whole disk, device
 * numbers as the machine file gives them (8,0 sda; 8,16 sdb; ...).
 * blkq.c calls in where its model does what the event says: Q, A (a
 * partition's bio remapped to the disk) and X (split at max_sectors_kb)
 * at submit_bio(); P at the first bio a task's plug holds for a disk, or
 * when a legacy queue plugs; U when the plug is released (depth: the
 * bios it held, or the requests a legacy queue held), UT by the plug
 * timer; M/F when a bio merges into a waiting request, G and I when it
 * becomes a request of its own (the simulator queues a request when the
 * plug is flushed, so G comes after U); D when the disk takes the
 * request, C when it is done (error -EIO if any of its bios failed).
 * Bio events carry READ and, for ->readahead's bios, AHEAD; request
 * events also FS; P and U are READ with no data, as the kernel's are.
 * The first event of a process on a disk is preceded by a notification
 * naming it (its comm; pid 0, where the disk's interrupt and timers run,
 * is "swapper/0").  The simulator does not say which CPU ran what, so
 * every event is CPU 0's.
 */
#include "sim.h"
#include "blktrace.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

struct blkt {
	FILE *f;
	uint32_t seq;
	uint8_t *named;			/* a bit per pid already named */
	unsigned int named_len;		/* bytes */
};

static void mkdir_or_die(const char *path)
{
	if (mkdir(path, 0777) && errno != EEXIST)
		sim_die("sim: cannot create %s: %s", path, strerror(errno));
}

void blkt_start(struct disk *d, unsigned int n, const char *dir,
		const char *impl)
{
	char path[512];
	unsigned int i;

	mkdir_or_die(dir);
	snprintf(path, sizeof(path), "%s/%s", dir, impl);
	mkdir_or_die(path);
	for (i = 0; i < n; i++) {
		struct blkt *bt = sim_alloc(sizeof(*bt));

		memset(bt, 0, sizeof(*bt));
		snprintf(path, sizeof(path), "%s/%s/%s.blktrace.0", dir, impl,
			 d[i].name);
		bt->f = fopen(path, "wb");
		if (!bt->f)
			sim_die("sim: cannot write %s: %s", path,
				strerror(errno));
		d[i].bt = bt;
	}
}

void blkt_stop(struct disk *d, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct blkt *bt = d[i].bt;

		if (!bt)
			continue;
		if (fclose(bt->f))
			sim_die("sim: cannot write the blktrace of %s",
				d[i].name);
		free(bt->named);
		free(bt);
		d[i].bt = NULL;
	}
}

static void put(struct disk *d, const struct blkt_record *t,
		const void *pdu)
{
	if (fwrite(t, sizeof(*t), 1, d->bt->f) != 1 ||
	    (t->pdu_len && fwrite(pdu, t->pdu_len, 1, d->bt->f) != 1))
		sim_die("sim: cannot write the blktrace of %s", d->name);
}

static void fill(struct blkt_record *t, const struct disk *d, uint32_t action,
		 int pid)
{
	memset(t, 0, sizeof(*t));
	t->magic = BLKT_MAGIC | BLKT_VERSION;
	t->time = sim_now;
	t->action = action;
	t->pid = pid;
	t->device = d->dev;
}

/* The process notification before @pid's first event on @d. */
static void name_pid(struct disk *d, int pid)
{
	struct blkt *bt = d->bt;
	char comm[TASK_COMM_LEN] = "swapper/0";
	struct blkt_record t;
	unsigned int byte = (unsigned int)pid >> 3;

	if (byte >= bt->named_len) {
		unsigned int len = max(byte + 1, 2 * bt->named_len);

		bt->named = realloc(bt->named, len);
		if (!bt->named)
			sim_die("sim: out of host memory");
		memset(bt->named + bt->named_len, 0, len - bt->named_len);
		bt->named_len = len;
	}
	if (bt->named[byte] & (1u << (pid & 7)))
		return;
	bt->named[byte] |= 1u << (pid & 7);
	if (pid) {
		memset(comm, 0, sizeof(comm));
		if (current && current->pid == pid)
			memcpy(comm, current->comm, sizeof(comm) - 1);
	}
	fill(&t, d, BLKT_NOTE_PROCESS | BLKT_CAT(BLKT_C_NOTIFY), pid);
	t.pdu_len = sizeof(comm);
	put(d, &t, comm);
}

static void event(struct disk *d, uint32_t action, uint64_t sector,
		  uint64_t nsect, int pid, int err, const void *pdu,
		  uint16_t pdu_len)
{
	struct blkt_record t;

	name_pid(d, pid);
	fill(&t, d, action, pid);
	t.sequence = ++d->bt->seq;
	t.sector = sector;
	t.bytes = nsect << SECTOR_SHIFT;
	t.error = (uint16_t)err;
	t.pdu_len = pdu_len;
	put(d, &t, pdu);
}

static uint32_t bio_cat(bool ahead)
{
	return BLKT_CAT(BLKT_C_READ | (ahead ? BLKT_C_AHEAD : 0));
}

static void be64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = v & 0xff;
}

static void be32(uint8_t *p, uint32_t v)
{
	int i;

	for (i = 3; i >= 0; i--, v >>= 8)
		p[i] = v & 0xff;
}

void blkt_bio(struct disk *d, unsigned int code, const struct bio *b,
	      uint64_t nsect, int pid)
{
	event(d, code | BLKT_CAT(BLKT_C_QUEUE) | bio_cat(b->ahead), b->sector,
	      nsect, pid, 0, NULL, 0);
}

void blkt_remap(struct disk *d, const struct bio *b)
{
	const struct partition *pt = b->part;
	uint8_t pdu[sizeof(struct blkt_remap)];

	if (!pt || MKDEV(pt->major, pt->minor) == d->dev)
		return;
	be32(pdu, MKDEV(pt->major, pt->minor));
	be32(pdu + 4, d->dev);
	be64(pdu + 8, b->sector - pt->start);
	event(d, BLKT_REMAP | BLKT_CAT(BLKT_C_QUEUE) | bio_cat(b->ahead),
	      b->sector, (uint64_t)b->nr * PAGE_SECTORS, b->pid, 0, pdu,
	      sizeof(pdu));
}

void blkt_split(struct disk *d, const struct bio *b, uint64_t rest)
{
	uint8_t pdu[8];

	be64(pdu, rest);
	event(d, BLKT_SPLIT | bio_cat(b->ahead), b->sector,
	      (uint64_t)b->nr * PAGE_SECTORS, b->pid, 0, pdu, sizeof(pdu));
}

void blkt_rq(struct disk *d, unsigned int code, const struct blk_request *r,
	     int pid, int err)
{
	uint32_t cat = code == BLKT_ISSUE ? BLKT_C_ISSUE :
		       code == BLKT_COMPLETE ? BLKT_C_COMPLETE : BLKT_C_QUEUE;

	event(d, code | BLKT_CAT(cat | BLKT_C_FS) | bio_cat(r->ahead),
	      r->sector, r->nsect, pid, err, NULL, 0);
}

void blkt_plug(struct disk *d, int pid)
{
	event(d, BLKT_PLUG | BLKT_CAT(BLKT_C_QUEUE) | bio_cat(false), 0, 0,
	      pid, 0, NULL, 0);
}

void blkt_unplug(struct disk *d, bool timer, unsigned int depth, int pid)
{
	uint8_t pdu[8];

	be64(pdu, depth);
	event(d, (timer ? BLKT_UNPLUG_TIMER : BLKT_UNPLUG_IO) |
	      BLKT_CAT(BLKT_C_QUEUE) | bio_cat(false), 0, 0, pid, 0, pdu,
	      sizeof(pdu));
}
