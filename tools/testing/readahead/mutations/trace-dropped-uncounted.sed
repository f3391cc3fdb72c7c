# Dropped trace lines are not counted.
/this_cpu_inc(ra_stats.dropped);/d
