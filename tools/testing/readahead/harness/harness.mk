# SPDX-License-Identifier: GPL-2.0
#
# harness.mk - the unit harness's environment, for every program built on
# it (the harness, the fuzzer, the CPU bench, the replay's tests): the
# library (lib/lib.mk) and around it what lib/env.h asks of a program,
# in memory: the page cache (pagecache.c), plugging (blkq.c), the files
# and descriptor table (fs.c), with the h_* API of harness.h
# (harness.c).  The includer sets what lib.mk needs, CFLAGS and HOBJ
# (its object directory) first.  Gives what lib.mk gives, HARNESS_DIR,
# HINCLUDES and HHEADERS (the library's and the harness's) and HOBJS
# (the objects).

# The includer's "all" stays the default goal, not the first rule here.
.DEFAULT_GOAL := all

HARNESS_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
include $(HARNESS_DIR)/../lib/lib.mk
HINCLUDES = $(LIB_INCLUDES) -I$(HARNESS_DIR)
HHEADERS = $(LIB_HEADERS) $(wildcard $(HARNESS_DIR)/*.h \
	   $(HARNESS_DIR)/tests/*.h)
HENV_SRC = harness.c pagecache.c blkq.c fs.c
HOBJS	= $(call lib_objs,$(HOBJ)) \
	  $(patsubst %.c,$(HOBJ)/harness/%.o,$(HENV_SRC))

$(eval $(call lib_rules,$(HOBJ),$(CFLAGS)))

$(HOBJ)/harness/%.o: $(HARNESS_DIR)/%.c $(HHEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<
