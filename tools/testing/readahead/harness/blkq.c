// SPDX-License-Identifier: GPL-2.0
/*
 * blkq.c - the harness's block layer, what lib/env.h asks of it: a plug
 * around a readahead's submissions, which the harness's filesystem
 * completes at once anyway.  The simulator's sim/blkq.c holds requests
 * back until the plug is finished.
 */
#include "harness.h"

void blk_start_plug(struct blk_plug *plug)
{
	plug->depth = 1;
}

void blk_finish_plug(struct blk_plug *plug)
{
	plug->depth = 0;
}
