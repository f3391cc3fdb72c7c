# Dropped trace lines are not counted.
# file: mm/readahead_debug.c
/this_cpu_inc(ra_stats.dropped);/d
