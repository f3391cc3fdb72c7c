# Every trace line reaches the log.
s/if (!__ratelimit(&ra_trace_rs)) {/if (!__ratelimit(\&ra_trace_rs) \&\& 0) {/
