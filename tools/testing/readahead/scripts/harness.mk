# SPDX-License-Identifier: GPL-2.0
#
# harness.mk - the objects every program built on the harness links: its
# core (page cache, filesystem, read and fault paths, debugfs, fadvise),
# ours (OURS: mm/readahead.c, or a mutated copy; OURS_DEBUGFS:
# mm/readahead_debug.c, the debugfs view, or a mutated copy, and
# mm/readahead_outcome.c, the window outcomes, unless RA_DEBUGFS is n, as
# in a kernel without CONFIG_READAHEAD_DEBUGFS), the
# pristine 6.12 file (TREE) and the pristine 6.1 one (OLD_TREE).
# Included by the harness's, the fuzzer's and the CPU bench's Makefiles,
# which set TOP, TREE, OLD_TREE, OURS, CC, CFLAGS and HOBJ (the object
# directory) first.  Gives what shims.mk gives (HINCLUDES, HHEADERS...)
# and HOBJS (the objects).

# The includer's "all" stays the default goal, not the first rule here.
.DEFAULT_GOAL := all

include $(dir $(lastword $(MAKEFILE_LIST)))shims.mk
HCORE	= shim.c pagecache.c debugfs.c fadvise.c harness.c ra_call.c \
	  filemap.c folio_runs.c impl.c impl_pristine.c pristine_fault.c
HOBJS	= $(patsubst %.c,$(HOBJ)/%.o,$(HCORE)) $(HOBJ)/ours/readahead.o \
	  $(HOBJ)/pristine/readahead.o $(HOBJ)/pristine61/readahead.o \
	  $(HOBJ)/pristine61/impl_pristine.o $(HOBJ)/pristine61/pristine_fault.o
RA_DEBUGFS ?= y
OURS_DEBUGFS ?= $(TOP)/mm/readahead_debug.c
ifeq ($(RA_DEBUGFS),y)
HOBJS	+= $(HOBJ)/ours/readahead_debug.o $(HOBJ)/ours/readahead_outcome.o
endif

$(HOBJ)/%.o: $(HARNESS_DIR)/%.c $(HHEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# Ours, compiled unchanged.
$(HOBJ)/ours/readahead.o: $(OURS) $(HHEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The debugfs view, built on ours' tracepoint.
$(HOBJ)/ours/readahead_debug.o: $(OURS_DEBUGFS) $(HHEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The window outcomes, built on the page cache's and ours' tracepoints.
$(HOBJ)/ours/readahead_outcome.o: $(TOP)/mm/readahead_outcome.c $(HHEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The pristine file: a copy, so that its "internal.h" resolves to the
# harness's shim and not to the tree's mm/internal.h.
$(HOBJ)/pristine/readahead.c: $(TREE)/mm/readahead.c FORCE
	@mkdir -p $(dir $@)
	@cmp -s $< $@ || cp $< $@

$(HOBJ)/pristine/readahead.o: $(HOBJ)/pristine/readahead.c $(HHEADERS)
	$(CC) $(CFLAGS) -include $(HARNESS_DIR)/pristine_names.h -c -o $@ $<

# The pristine 6.1 file and the pristine glue again, renamed pristine61_*.
$(HOBJ)/pristine61/readahead.c: $(OLD_TREE)/mm/readahead.c FORCE
	@mkdir -p $(dir $@)
	@cmp -s $< $@ || cp $< $@

$(HOBJ)/pristine61/readahead.o: $(HOBJ)/pristine61/readahead.c $(HHEADERS)
	$(CC) $(CFLAGS) -include $(HARNESS_DIR)/pristine_names.h \
		-include $(HARNESS_DIR)/pristine61_names.h -c -o $@ $<

$(HOBJ)/pristine61/%.o: $(HARNESS_DIR)/%.c $(HHEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -include $(HARNESS_DIR)/pristine61_names.h -c -o $@ $<

# The pristine copies are refreshed whenever their tree's file differs
# (another tree, unpacked with its old mtimes), and only then.
.PHONY: FORCE
FORCE:
