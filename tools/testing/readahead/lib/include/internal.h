/* SPDX-License-Identifier: GPL-2.0 */
/* Harness stand-in for mm/internal.h: see shim.h. */
#include "shim.h"
