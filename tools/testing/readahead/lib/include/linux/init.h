/* SPDX-License-Identifier: GPL-2.0 */
/* Harness stand-in for <linux/init.h>: see ../shim.h (late_initcall). */
#include "../shim.h"
