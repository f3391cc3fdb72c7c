// SPDX-License-Identifier: GPL-2.0
/*
 * cpu.c - the simulated CPUs: a run queue in front of sys.cpus
 * processors, and the scheduling noise.
 *
 * CPUs (cpus=N in [system]; 0: one per process, no waiting, and this
 * file is not used but for the noise): a process that becomes runnable
 * queues for a CPU, in the order it became ready, ties broken by a draw
 * from the seeded scheduler PRNG (so that readers woken by one I/O run
 * in an order that differs from the order they slept, yet the same on
 * every run).  It keeps its CPU until it sleeps or finishes, or until it
 * has run sched_slice_us while another waits; a sleeping process gives
 * its CPU back once the CPU time it has used since it last ran has
 * passed.  CPUs are numbered: a process gets the one it last ran on if
 * that one is idle (as 6.1's select_idle_sibling() prefers the previous
 * CPU), else the lowest-numbered idle one, so that it migrates when its
 * CPU is busy; its bios go to the hardware queue of the CPU it submits
 * them on (sim_task_cpu()).
 *
 * The processes are reader.c's; what runs on a CPU is theirs to say
 * (struct sim_cpu_task's dispatch).
 */
#include "jobs.h"

#include <string.h>

static simtime_t jitter_ns, sched_slice_ns;
static struct prng sched_rng;
static uint64_t cpus_idle;
static struct sim_cpu_task *runq;
static bool cpu_busy[4096];	/* by CPU number (cpus= allows 4096) */

void cpus_start(void)
{
	jitter_ns = (simtime_t)(sys.jitter_us * NS_PER_US);
	sched_slice_ns = (simtime_t)(sys.sched_slice_us * NS_PER_US);
	prng_seed(&sched_rng, sys.seed, 999);
	cpus_idle = sys.cpus;
	runq = NULL;
	memset(cpu_busy, 0, sizeof(cpu_busy));
}

/*
 * Scheduling noise (jitter_us > 0): a process that becomes runnable, or
 * ends an operation, waits a random extra time (uniform below jitter_us)
 * for a CPU, so that readers woken together by one I/O do not run in the
 * order they went to sleep, nor in lockstep through cached pages: they
 * overtake each other, as on a machine with more processes than CPUs.
 * 0 (the default): no draw at all, the runs of before.
 */
simtime_t sched_delay(void)
{
	return jitter_ns ? prng_below(&sched_rng, jitter_ns) : 0;
}

/* The CPU @ct gets: the one it last ran on if idle, else the first idle. */
static int cpu_pick(const struct sim_cpu_task *ct)
{
	int last = ct->task->cpu;
	unsigned int i;

	if (last >= 0 && !cpu_busy[last])
		return last;
	for (i = 0; i < sys.cpus; i++)
		if (!cpu_busy[i])
			return (int)i;
	sim_die("sim: no idle CPU among %llu with %llu idle",
		(unsigned long long)sys.cpus, (unsigned long long)cpus_idle);
}

int sim_task_cpu(const struct task_struct *t)
{
	return t ? t->cpu : -1;
}

static void cpu_dispatch(void *obj, uint64_t arg)
{
	(void)obj;
	(void)arg;
	while (cpus_idle && runq && runq->rq_ready <= sim_now) {
		struct sim_cpu_task *ct = runq;

		runq = ct->rq_next;
		cpus_idle--;
		ct->task->cpu = cpu_pick(ct);
		cpu_busy[ct->task->cpu] = true;
		ct->on_cpu = true;
		ct->ran_since = sim_now;
		ct->dispatch(ct, sim_now - ct->rq_ready);
	}
}

void cpu_want(struct sim_cpu_task *ct, simtime_t when)
{
	struct sim_cpu_task **pp = &runq;

	ct->rq_ready = when;
	ct->rq_key = prng_next(&sched_rng);
	while (*pp && ((*pp)->rq_ready < when ||
		       ((*pp)->rq_ready == when && (*pp)->rq_key < ct->rq_key)))
		pp = &(*pp)->rq_next;
	ct->rq_next = *pp;
	*pp = ct;
	ev_at(when, cpu_dispatch, NULL, 0);
}

/* CPU number @arg is idle again. */
static void cpu_freed(void *obj, uint64_t arg)
{
	(void)obj;
	cpu_busy[arg] = false;
	cpus_idle++;
	cpu_dispatch(NULL, 0);
}

void cpu_put(struct sim_cpu_task *ct, simtime_t unpaid)
{
	ct->on_cpu = false;
	ev_at(sim_now + unpaid, cpu_freed, NULL, (uint64_t)ct->task->cpu);
}

bool cpu_slice_over(const struct sim_cpu_task *ct, simtime_t next)
{
	return runq && runq->rq_ready <= next &&
	       next - ct->ran_since >= sched_slice_ns;
}
