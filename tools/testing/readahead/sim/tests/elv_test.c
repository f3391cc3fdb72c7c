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
 *   AT_US PID SECTOR NSECT [+]  submitted at AT_US by task PID
 *
 * ("+": in one plugged submission with the line before, whose time and
 * task it takes).
 * Output, one line per dispatch and completion, in time order:
 *
 *   T_US dispatch pid=PID sector=SECTOR nsect=NSECT [start=S_US]
 *   T_US complete pid=PID sector=SECTOR
 *
 * (start: when the disk begins it, if later than it was sent: a disk
 * taking several requests serves them one after the other), then
 * "idles=N idle_us=N preempts=N qmerges=N", with " tag_waits=N
 * tag_wait_us=N" (bios that waited for a request, their waits summed)
 * when nr_requests is set.  Usage:
 *
 *   elv_test [queue_depth=N] [nr_requests=N] [hw_queues=N] ELEVATOR
 *            [TUNABLE=VALUE]... < requests
 *   elv_test --check
 *
 * queue_depth, nr_requests and hw_queues are the machine file's disk
 * keys (blkq.c).
 * With ELV_TEST_BLKTRACE=DIR in the environment the disk's events go to
 * DIR/elv/sda.blktrace.0, as ra_sim --blktrace writes them.
 *
 * --check runs the cases below (CFQ's close cooperators, 2.6.30), each
 * in a child process, and compares their output with the exact one, in
 * TAP (lib/tap.h): a failure shows both outputs as "# " lines; exits
 * non-zero on a failure.
 */
#include "../elevator.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SERVICE_US	1000

static struct disk disk;
/* blkq.c names the task it works for (blktrace, never on here). */
struct task_struct *shim_current;

/* blkq.c tells --ftrace's writer of its inserts: never set here. */
FILE *ftrace_file;

void ftrace_rq_insert(uint32_t dev, uint64_t sector, uint64_t nsect)
{
	(void)dev;
	(void)sector;
	(void)nsect;
	abort();
}

simtime_t disk_service(struct disk *d, simtime_t start, uint64_t sector,
		       uint64_t nsect, bool *seek)
{
	*seek = false;
	d->mech.head = sector + nsect;
	printf("%llu dispatch pid=%d sector=%llu nsect=%llu",
	       (unsigned long long)(sim_now / NS_PER_US), d->active->pid,
	       (unsigned long long)sector, (unsigned long long)nsect);
	if (start != sim_now)
		printf(" start=%llu", (unsigned long long)(start / NS_PER_US));
	printf("\n");
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

/* The bios of one line, and of the "+" lines after it: one submission. */
#define SUB_MAX	16
struct submission {
	struct bio *b[SUB_MAX];
	unsigned int n;
};

static void submit(void *obj, uint64_t arg)
{
	struct submission *s = obj;
	struct blk_plug plug;
	unsigned int i;

	(void)arg;
	if (s->n == 1) {
		submit_bio(s->b[0]);
	} else {
		blk_start_plug(&plug);
		for (i = 0; i < s->n; i++)
			submit_bio(s->b[i]);
		blk_finish_plug(&plug);
	}
	free(s);
}

/* One run: @argv[1] the elevator, then its tunables; requests on stdin. */
static int run(int argc, char **argv)
{
	const struct elevator_type *e;
	unsigned long long at, sector, nsect;
	const char *bt = getenv("ELV_TEST_BLKTRACE");
	struct submission *sub = NULL;
	char line[256], more[4];
	int i, pid, n;

	/* The block queue's keys, before the elevator. */
	while (argc > 1 && (!strncmp(argv[1], "queue_depth=", 12) ||
			    !strncmp(argv[1], "nr_requests=", 12) ||
			    !strncmp(argv[1], "hw_queues=", 10))) {
		unsigned int v = (unsigned int)atoi(strchr(argv[1], '=') + 1);

		if (argv[1][0] == 'q')
			disk.p.queue_depth = v;
		else if (argv[1][0] == 'h')
			disk.p.hw_queues = v;
		else
			disk.p.nr_requests = v;
		argc--;
		argv++;
	}
	e = argc < 2 ? NULL : elevator_find(argv[1]);
	if (!e) {
		fprintf(stderr, "usage: elv_test [queue_depth=N] [nr_requests=N] [hw_queues=N] ELEVATOR [TUNABLE=VALUE]... < requests (elevators: %s)\n",
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
	if (bt)
		blkt_start(&disk, 1, bt, "elv");
	while (fgets(line, sizeof(line), stdin)) {
		struct bio *b;

		n = sscanf(line, "%llu %d %llu %llu %3s", &at, &pid, &sector,
			   &nsect, more);
		if (n < 4)
			break;
		b = bio_alloc();
		b->disk = &disk;
		b->sector = sector;
		b->nr = nsect / PAGE_SECTORS;
		b->end_io = end_io;
		if (n == 5 && !strcmp(more, "+") && sub && sub->n < SUB_MAX) {
			b->pid = sub->b[0]->pid;
			sub->b[sub->n++] = b;
			continue;
		}
		b->pid = pid;
		sub = sim_alloc(sizeof(*sub));
		sub->b[0] = b;
		sub->n = 1;
		ev_at(at * NS_PER_US, submit, sub, 0);
	}
	while (ev_step())
		;
	printf("idles=%llu idle_us=%llu preempts=%llu qmerges=%llu",
	       (unsigned long long)disk.st.idles,
	       (unsigned long long)(disk.st.idle_ns / NS_PER_US),
	       (unsigned long long)disk.st.preempts,
	       (unsigned long long)disk.st.merges_queues);
	if (disk.p.nr_requests)
		printf(" tag_waits=%llu tag_wait_us=%llu",
		       (unsigned long long)disk.st.tag_waits,
		       (unsigned long long)(disk.st.tag_wait_ns / NS_PER_US));
	printf("\n");
	if (bt)
		blkt_stop(&disk, 1);
	blk_exit_queue(&disk);
	return 0;
}

struct elv_case {
	const char *name;
	const char *args;	/* the elevator and its tunables */
	const char *in;		/* the requests */
	const char *want;	/* the exact output */
};

#define D(t, p, s)	#t " dispatch pid=" #p " sector=" #s " nsect=8\n"
#define C(t, p, s)	#t " complete pid=" #p " sector=" #s "\n"
#define ST(i, us, pre)	"idles=" #i " idle_us=" #us " preempts=" #pre \
			" qmerges=0\n"

/*
 * CFQ's close cooperators (2.6.30, elv-cfq.c): every request takes 1 ms.
 * Without a seek mean (fewer than 3 requests) "close" is within 8192
 * sectors of the end of the last request dispatched.
 */
static const struct elv_case cases[] = {
	/*
	 * Pid 2's request, close, arrives while pid 1's only one is on the
	 * disk: it goes next, instead of the 8 ms idle on pid 1 (then the
	 * idle is on pid 2, whose queue is now the active one).
	 */
	{ "cfq: a close cooperator is served instead of idling", "cfq",
	  "0 1 0 8\n500 2 16 8\n",
	  D(0, 1, 0) C(1000, 1, 0) D(1000, 2, 16) C(2000, 2, 16)
	  ST(1, 8000, 0) },
	{ "cfq: with slice_idle=0 as well", "cfq slice_idle=0",
	  "0 1 0 8\n500 2 16 8\n",
	  D(0, 1, 0) C(1000, 1, 0) D(1000, 2, 16) C(2000, 2, 16) ST(0, 0, 0) },
	/* 100000 sectors away is not close: the idle runs out first. */
	{ "cfq: a far request waits for the idle", "cfq",
	  "0 1 0 8\n500 2 100000 8\n",
	  D(0, 1, 0) C(1000, 1, 0) D(9000, 2, 100000) C(10000, 2, 100000)
	  ST(2, 16000, 0) },
	/*
	 * Taken as soon as pid 1's last request is dispatched: pid 1's
	 * next one, at 0.5 ms, waits its turn behind pid 2's.
	 */
	{ "cfq: the cooperator is chosen when the queue runs dry", "cfq",
	  "0 1 0 8\n0 2 16 8\n500 1 8 8\n",
	  D(0, 1, 0) C(1000, 1, 0) D(1000, 2, 16) C(2000, 2, 16)
	  D(2000, 1, 8) C(3000, 1, 8) ST(1, 8000, 0) },
	/*
	 * Pid 2 jumps ahead at 0.5 ms, pid 1 at 1.2 ms; pid 2 cannot jump
	 * again at 2.2 ms: it waits out pid 1's idle, and gets its turn
	 * from the list at 11 ms.  Pid 1, which has not had a turn from
	 * the list since it jumped, cannot jump at 11.5 ms either.
	 */
	{ "cfq: a queue jumps ahead once until its next turn", "cfq",
	  "0 1 0 8\n500 2 16 8\n1200 1 8 8\n2200 2 24 8\n11500 1 32 8\n",
	  D(0, 1, 0) C(1000, 1, 0) D(1000, 2, 16) C(2000, 2, 16)
	  D(2000, 1, 8) C(3000, 1, 8) D(11000, 2, 24) C(12000, 2, 24)
	  D(20000, 1, 32) C(21000, 1, 32) ST(3, 24000, 0) },
	/*
	 * Of the neighbours of the last position (1016), the nearer
	 * (pid 3, 84 sectors above) first, then pid 2 (208 below 1108).
	 */
	{ "cfq: the nearer neighbour first", "cfq",
	  "0 1 1000 8\n0 1 1008 8\n100 2 900 8\n100 3 1100 8\n",
	  D(0, 1, 1000) C(1000, 1, 1000) D(1000, 1, 1008) C(2000, 1, 1008)
	  D(2000, 3, 1100) C(3000, 3, 1100) D(3000, 2, 900) C(4000, 2, 900)
	  ST(1, 8000, 0) },
	{ "cfq: the far neighbour is not taken", "cfq",
	  "0 1 1000 8\n0 1 1008 8\n100 2 900 8\n100 3 20000 8\n",
	  D(0, 1, 1000) C(1000, 1, 1000) D(1000, 1, 1008) C(2000, 1, 1008)
	  D(2000, 2, 900) C(3000, 2, 900)
	  D(11000, 3, 20000) C(12000, 3, 20000) ST(2, 16000, 0) },
	/* Two next requests at one sector: the one that came first. */
	{ "cfq: of one sector, the earlier request's queue", "cfq",
	  "0 1 1000 8\n0 1 1008 8\n100 3 1100 8\n200 2 1100 8\n",
	  D(0, 1, 1000) C(1000, 1, 1000) D(1000, 1, 1008) C(2000, 1, 1008)
	  D(2000, 3, 1100) C(3000, 3, 1100) D(3000, 2, 1100) C(4000, 2, 1100)
	  ST(1, 8000, 0) },
	/*
	 * Pid 1 seeks 200000 sectors a request: after three its mean seek
	 * distance (142851 sectors) makes pid 2's request 99992 sectors
	 * away close, and it is served at once; one 299992 sectors away
	 * is not, and waits out the 2 ms idle of a seeky process.
	 */
	{ "cfq: a seeky process's mean seek distance is the reach", "cfq",
	  "0 1 0 8\n0 1 200000 8\n0 1 400000 8\n2500 2 500000 8\n",
	  D(0, 1, 0) C(1000, 1, 0) D(1000, 1, 200000) C(2000, 1, 200000)
	  D(2000, 1, 400000) C(3000, 1, 400000)
	  D(3000, 2, 500000) C(4000, 2, 500000) ST(1, 8000, 0) },
	{ "cfq: beyond a seeky process's mean seek distance", "cfq",
	  "0 1 0 8\n0 1 200000 8\n0 1 400000 8\n2500 2 700000 8\n",
	  D(0, 1, 0) C(1000, 1, 0) D(1000, 1, 200000) C(2000, 1, 200000)
	  D(2000, 1, 400000) C(3000, 1, 400000)
	  D(5000, 2, 700000) C(6000, 2, 700000) ST(2, 10000, 0) },
	/* tests/run.sh's two fifo cases: pid 2 is pid 1's cooperator. */
	{ "cfq: fifo_expire_sync: the cooperator's expired oldest first",
	  "cfq fifo_expire_sync=1", "0 1 0 8\n0 2 900 8\n0 2 100 8\n",
	  D(0, 1, 0) C(1000, 1, 0) D(1000, 2, 900) C(2000, 2, 900)
	  D(2000, 2, 100) C(3000, 2, 100) ST(1, 8000, 0) },
	{ "cfq: nothing expired, the cooperator's nearest first", "cfq",
	  "0 1 0 8\n0 2 900 8\n0 2 100 8\n",
	  D(0, 1, 0) C(1000, 1, 0) D(1000, 2, 100) C(2000, 2, 100)
	  D(2000, 2, 900) C(3000, 2, 900) ST(1, 8000, 0) },
	/* A close request arriving during the idle still preempts it. */
	{ "cfq: a close request preempts the idle", "cfq",
	  "0 1 0 8\n1500 2 8 8\n",
	  D(0, 1, 0) C(1000, 1, 0) D(1500, 2, 8) C(2500, 2, 8) ST(2, 8500, 1) },
};

/* Run @c in a child; its output into @buf. */
static int run_case(const struct elv_case *c, char *buf, size_t len)
{
	char args[256], *argv[16], *tok;
	int in[2], out[2], argc = 1, status;
	size_t n = 0;
	ssize_t r;
	pid_t child;

	snprintf(args, sizeof(args), "%s", c->args);
	argv[0] = "elv_test";
	for (tok = strtok(args, " "); tok && argc < 15; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	if (pipe(in) || pipe(out))
		return -1;
	/* Or the child flushes the parent's pending output too. */
	fflush(stdout);
	child = fork();
	if (child < 0)
		return -1;
	if (!child) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		exit(run(argc, argv));
	}
	close(in[0]);
	close(out[1]);
	if (write(in[1], c->in, strlen(c->in)) != (ssize_t)strlen(c->in))
		return -1;
	close(in[1]);
	while (n + 1 < len && (r = read(out[0], buf + n, len - n - 1)) > 0)
		n += r;
	buf[n] = '\0';
	close(out[0]);
	if (waitpid(child, &status, 0) != child)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TAP_STATE;

static int check(void)
{
	static char got[16384];
	unsigned int i;
	bool ok;

	tap_begin();
	for (i = 0; i < ELV_NR(cases); i++) {
		ok = !run_case(&cases[i], got, sizeof(got)) &&
		     !strcmp(got, cases[i].want);
		tap_result(ok, "%s", cases[i].name);
		if (!ok)
			tap_diag("got:\n%swant:\n%s", got, cases[i].want);
	}
	return tap_end();
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--check"))
		return check();
	return run(argc, argv);
}
