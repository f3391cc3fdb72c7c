# SPDX-License-Identifier: GPL-2.0
#
# lib.mk - the library (lib/) for every program's Makefile: where its
# headers are, which objects it is, and how they are built.  The includer
# sets TOP, TREE (pristine 6.12), OLD_TREE (pristine 6.1), OURS
# (mm/readahead.c, or another version of it) and CC first; OURS_DEBUGFS
# (mm/readahead_debug.c, or a mutated copy) and RA_DEBUGFS (n: neither
# the debugfs view nor the outcomes, as in a kernel without
# CONFIG_READAHEAD_DEBUGFS) are optional.  Gives
#   LIB_DIR       lib/
#   LIB_INCLUDES  the -I flags: lib/, its kernel header shims, then the
#                 project's include/ (the readahead tracepoints)
#   LIB_HEADERS   the headers every object depends on
#   lib_objs      $(call lib_objs,DIR): the library's objects in DIR: its
#                 sources, ours (with its debugfs view and outcomes), the
#                 pristine 6.12 and 6.1 files, and the pristine glue again
#                 renamed for 6.1
#   lib_rules     $(eval $(call lib_rules,DIR,CFLAGS)): the rules that
#                 build them with CFLAGS
# What a program provides around the library is lib/env.h.

LIB_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
LIB_INCLUDES = -I$(LIB_DIR) -I$(LIB_DIR)/include -I$(TOP)/include
LIB_HEADERS = $(wildcard $(LIB_DIR)/*.h $(LIB_DIR)/include/*.h \
	      $(LIB_DIR)/include/linux/*.h $(LIB_DIR)/include/linux/sched/*.h \
	      $(LIB_DIR)/include/trace/*.h $(LIB_DIR)/include/trace/events/*.h) \
	      $(TOP)/include/trace/events/readahead.h
LIB_SRC	= shim.c debugfs.c fadvise.c ra_call.c filemap.c folio_runs.c \
	  impl.c impl_pristine.c pristine_fault.c
RA_DEBUGFS ?= y
OURS_DEBUGFS ?= $(TOP)/mm/readahead_debug.c

lib_objs = $(patsubst %.c,$(1)/lib/%.o,$(LIB_SRC)) $(1)/ours/readahead.o \
	   $(if $(filter y,$(RA_DEBUGFS)),$(1)/ours/readahead_debug.o \
	   $(1)/ours/readahead_outcome.o) \
	   $(1)/pristine/readahead.o $(1)/pristine61/readahead.o \
	   $(1)/pristine61/impl_pristine.o $(1)/pristine61/pristine_fault.o

define lib_rules
$(1)/lib/%.o: $(LIB_DIR)/%.c $(LIB_HEADERS)
	@mkdir -p $$(dir $$@)
	$(CC) $(2) -c -o $$@ $$<

# Ours, compiled unchanged; its debugfs view, built on its tracepoint;
# the window outcomes, on the page cache's and ours' tracepoints.
$(1)/ours/readahead.o: $(OURS) $(LIB_HEADERS)
	@mkdir -p $$(dir $$@)
	$(CC) $(2) -c -o $$@ $$<

$(1)/ours/readahead_debug.o: $(OURS_DEBUGFS) $(LIB_HEADERS)
	@mkdir -p $$(dir $$@)
	$(CC) $(2) -c -o $$@ $$<

$(1)/ours/readahead_outcome.o: $(TOP)/mm/readahead_outcome.c $(LIB_HEADERS)
	@mkdir -p $$(dir $$@)
	$(CC) $(2) -c -o $$@ $$<

# The pristine files: copies, so that their "internal.h" resolves to the
# shim and not to the tree's mm/internal.h; refreshed whenever their
# tree's file differs (another tree, unpacked with its old mtimes), and
# only then.
$(1)/pristine/readahead.c: $(TREE)/mm/readahead.c lib-force
	@mkdir -p $$(dir $$@)
	@cmp -s $$< $$@ || cp $$< $$@

$(1)/pristine/readahead.o: $(1)/pristine/readahead.c $(LIB_HEADERS)
	$(CC) $(2) -include $(LIB_DIR)/pristine_names.h -c -o $$@ $$<

# The pristine 6.1 file and the pristine glue again, renamed pristine61_*.
$(1)/pristine61/readahead.c: $(OLD_TREE)/mm/readahead.c lib-force
	@mkdir -p $$(dir $$@)
	@cmp -s $$< $$@ || cp $$< $$@

$(1)/pristine61/readahead.o: $(1)/pristine61/readahead.c $(LIB_HEADERS)
	$(CC) $(2) -include $(LIB_DIR)/pristine_names.h \
		-include $(LIB_DIR)/pristine61_names.h -c -o $$@ $$<

$(1)/pristine61/%.o: $(LIB_DIR)/%.c $(LIB_HEADERS)
	@mkdir -p $$(dir $$@)
	$(CC) $(2) -include $(LIB_DIR)/pristine61_names.h -c -o $$@ $$<
endef

.PHONY: lib-force
lib-force:
