/* SPDX-License-Identifier: GPL-2.0 */
/* Harness stand-in for <linux/mm_inline.h>: see ../shim.h. */
#include "../shim.h"
