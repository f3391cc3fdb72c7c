/* SPDX-License-Identifier: GPL-2.0 */
/* Harness stand-in for <linux/bitmap.h>: see ../shim_lib.h. */
#include "../shim.h"
