# SPDX-License-Identifier: GPL-2.0
#
# shims.mk - where the harness's headers are, for every Makefile that
# compiles against them: harness.mk's includers, the simulator's and the
# replay's.  The includer sets TOP first.  Gives HARNESS_DIR (the
# harness's sources), SHIM_DIR (include/: the shims of the kernel's
# headers), HINCLUDES (the -I flags for both) and HHEADERS (the headers
# every object depends on).

HARNESS_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
SHIM_DIR := $(HARNESS_DIR)/include
HINCLUDES = -I$(HARNESS_DIR) -I$(SHIM_DIR)
HHEADERS = $(wildcard $(HARNESS_DIR)/*.h $(HARNESS_DIR)/tests/*.h \
	   $(SHIM_DIR)/*.h $(SHIM_DIR)/linux/*.h $(SHIM_DIR)/linux/sched/*.h \
	   $(SHIM_DIR)/trace/*.h $(SHIM_DIR)/trace/events/*.h) \
	   $(TOP)/include/trace/events/readahead.h
