# The rate limit window is 1 s instead of 5.
# file: mm/readahead_debug.c
s/^\(#define RA_TRACE_INTERVAL\t\)(5 \* HZ)$/\1(1 * HZ)/
