/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Harness stand-in for <linux/kernel.h>: see ../shim.h.  The kernel's
 * snprintf() knows %pD; the shim's does too.
 */
#include "../shim.h"

#define snprintf shim_snprintf
