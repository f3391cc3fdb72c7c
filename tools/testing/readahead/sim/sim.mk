# SPDX-License-Identifier: GPL-2.0
#
# sim.mk - the simulator's engine, for the programs built on it: ra_sim
# (sim/Makefile) and ra_sim_replay (replay/Makefile), each of which builds
# it in its own output.  The includer sets what lib/lib.mk needs (TOP,
# TREE, OLD_TREE, OURS, CC) first.  Gives what lib.mk gives, SIM_DIR,
# SIM_INCLUDES, SIM_HEADERS, and
#   sim_objs   $(call sim_objs,DIR): the engine's objects in DIR (main.c's
#              among them), then the library's (lib_objs)
#   sim_rules  $(eval $(call sim_rules,DIR,CFLAGS)): the rules that build
#              them with CFLAGS (SIM_INCLUDES among them)
#   DIR/ours.sha1  the SHA-1 of the OURS a build compiled, which perf.sh
#              compares between ra_sim and ra_sim_replay

SIM_DIR	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
include $(SIM_DIR)/../lib/lib.mk
SIM_INCLUDES = $(LIB_INCLUDES) -I$(SIM_DIR)
SIM_HEADERS = $(wildcard $(SIM_DIR)/*.h) $(LIB_HEADERS)
SIM_SRC	= event.c disk.c spindle.c elevator.c elv-noop.c elv-sort.c elv-cfq.c \
	  elv-mq-deadline.c elv-bfq.c blkq.c blktrace.c pagecache.c fs.c ftrace.c \
	  ra_observe.c cpu.c reader.c fiomain.c jobfile.c diskdesc.c report.c \
	  main.c

sim_objs = $(patsubst %.c,$(1)/%.o,$(SIM_SRC)) $(call lib_objs,$(1))

define sim_rules
$(1)/%.o: $(SIM_DIR)/%.c $(SIM_HEADERS)
	@mkdir -p $$(dir $$@)
	$(CC) $(2) -c -o $$@ $$<

$(eval $(call lib_rules,$(1),$(2)))
endef

%/ours.sha1: $(OURS)
	@mkdir -p $(dir $@)
	@sha1sum < $< | cut -d' ' -f1 > $@
