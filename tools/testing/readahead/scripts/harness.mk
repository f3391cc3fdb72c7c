# SPDX-License-Identifier: GPL-2.0
#
# harness.mk - the objects every program built on the harness links: its
# core (page cache, filesystem, read and fault paths, debugfs, fadvise),
# ours (OURS: mm/readahead.c, or a mutated copy) and the pristine 6.1
# file.  Included by the harness's, the fuzzer's, the CPU bench's and the
# replay's Makefiles, which set TOP, TREE, OURS, CC, CFLAGS and HOBJ (the
# object directory) first.  Gives HARNESS_DIR (the harness's sources),
# HHEADERS (what every object depends on) and HOBJS (the objects).

# The includer's "all" stays the default goal, not the first rule here.
.DEFAULT_GOAL := all

HARNESS_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
HCORE	= pagecache.c debugfs.c fadvise.c harness.c impl.c peer_fault.c
HHEADERS = $(wildcard $(HARNESS_DIR)/*.h $(HARNESS_DIR)/linux/*.h \
	   $(HARNESS_DIR)/linux/sched/*.h $(HARNESS_DIR)/tests/*.h \
	   $(HARNESS_DIR)/trace/*.h $(HARNESS_DIR)/trace/events/*.h) \
	   $(TOP)/include/trace/events/readahead.h
HOBJS	= $(patsubst %.c,$(HOBJ)/%.o,$(HCORE)) $(HOBJ)/ours/readahead.o \
	  $(HOBJ)/peer/readahead.o

$(HOBJ)/%.o: $(HARNESS_DIR)/%.c $(HHEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# Ours, compiled unchanged.
$(HOBJ)/ours/readahead.o: $(OURS) $(HHEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The pristine file: a copy, so that its "internal.h" resolves to the
# harness's shim and not to the tree's mm/internal.h.
$(HOBJ)/peer/readahead.c: $(TREE)/mm/readahead.c
	@mkdir -p $(dir $@)
	cp $< $@

$(HOBJ)/peer/readahead.o: $(HOBJ)/peer/readahead.c $(HHEADERS)
	$(CC) $(CFLAGS) -include $(HARNESS_DIR)/peer_names.h -c -o $@ $<
