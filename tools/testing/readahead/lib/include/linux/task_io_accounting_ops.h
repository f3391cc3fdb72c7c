/* SPDX-License-Identifier: GPL-2.0 */
/* Harness stand-in for <linux/task_io_accounting_ops.h>: see ../shim.h. */
#include "../shim.h"
