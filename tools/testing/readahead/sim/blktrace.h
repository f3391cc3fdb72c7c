/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blktrace.h - the record blktrace writes, and the simulator's writer.
 *
 * Owns the on-disk layout of one blktrace event as blkparse and btt read
 * it (the public format, version 7): a fixed 48-byte record in the
 * writer's byte order, followed by pdu_len bytes of payload.  The action
 * word is a code in its low 16 bits (what happened) and category bits in
 * its high 16 (the direction and flags of the I/O, and the class of the
 * event).  Files are DEV.blktrace.CPU, one per traced device and CPU, as
 * the blktrace tool names them.  The writer is blktrace.c.
 */
#ifndef RA_SIM_BLKTRACE_H
#define RA_SIM_BLKTRACE_H

#include <stdint.h>

#define BLKT_MAGIC		0x65617400u	/* then the version */
#define BLKT_VERSION		0x07

/* Categories: action bits 16..31. */
#define BLKT_C_READ		(1u << 0)
#define BLKT_C_WRITE		(1u << 1)
#define BLKT_C_SYNC		(1u << 3)
#define BLKT_C_QUEUE		(1u << 4)
#define BLKT_C_ISSUE		(1u << 6)
#define BLKT_C_COMPLETE		(1u << 7)
#define BLKT_C_FS		(1u << 8)
#define BLKT_C_NOTIFY		(1u << 10)
#define BLKT_C_AHEAD		(1u << 11)
#define BLKT_CAT(c)		((uint32_t)(c) << 16)

/* Codes: action bits 0..15. */
enum blkt_code {
	BLKT_QUEUE = 1,		/* Q: a bio arrives at the queue */
	BLKT_BACKMERGE,		/* M: it extends a request at the back */
	BLKT_FRONTMERGE,	/* F: ... at the front */
	BLKT_GETRQ,		/* G: it gets a request of its own */
	BLKT_SLEEPRQ,
	BLKT_REQUEUE,
	BLKT_ISSUE,		/* D: the request goes to the device */
	BLKT_COMPLETE,		/* C: the device is done with it */
	BLKT_PLUG,		/* P: the queue (or the task's plug) holds */
	BLKT_UNPLUG_IO,		/* U: released explicitly; pdu: depth */
	BLKT_UNPLUG_TIMER,	/* UT: released by the timer; pdu: depth */
	BLKT_INSERT,		/* I: the request goes to the scheduler */
	BLKT_SPLIT,		/* X: a bio split; pdu: the rest's sector */
	BLKT_BOUNCE,
	BLKT_REMAP,		/* A: partition to disk; pdu: struct below */
};

/* Notifications (category NOTIFY): code 0 names a process. */
#define BLKT_NOTE_PROCESS	0

struct blkt_record {
	uint32_t magic;		/* BLKT_MAGIC | BLKT_VERSION */
	uint32_t sequence;	/* per device and CPU, from 1 */
	uint64_t time;		/* ns */
	uint64_t sector;	/* 512-byte sectors, on the whole disk */
	uint32_t bytes;
	uint32_t action;	/* code | BLKT_CAT(categories) */
	uint32_t pid;
	uint32_t device;	/* major << 20 | minor */
	uint32_t cpu;
	uint16_t error;		/* C: the negative errno, as u16 */
	uint16_t pdu_len;
};

/* Payload of BLKT_REMAP, big-endian as the kernel writes it. */
struct blkt_remap {
	uint32_t device_from;
	uint32_t device_to;
	uint64_t sector_from;
};

_Static_assert(sizeof(struct blkt_record) == 48, "blktrace record size");
_Static_assert(sizeof(struct blkt_remap) == 16, "blktrace remap size");

#endif /* RA_SIM_BLKTRACE_H */
