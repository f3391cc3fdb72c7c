/* SPDX-License-Identifier: GPL-2.0 */
/* Harness stand-in for <linux/spinlock.h>: see ../shim_lib.h. */
#include "../shim.h"
