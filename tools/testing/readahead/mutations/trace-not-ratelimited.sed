# Every trace line reaches the log.
# file: mm/readahead_debug.c
s/if (!__ratelimit(&ra_trace_rs)) {/if (!__ratelimit(\&ra_trace_rs) \&\& 0) {/
