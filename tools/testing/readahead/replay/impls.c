// SPDX-License-Identifier: GPL-2.0
/*
 * impls.c - the models the replay's simulator binary can run.
 *
 * ra_sim's main.c looks --impl NAME up in this NULL-terminated list (a
 * weak symbol there: the plain ra_sim has no models).
 */
#include "hist.h"

const struct ra_impl *const ra_replay_impls[] = {
	&ra_2630,
	&ra_2631rc1,
	NULL,
};
