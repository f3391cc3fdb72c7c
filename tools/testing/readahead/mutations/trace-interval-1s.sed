# The rate limit window is 1 s instead of 5.
s/^\(#define RA_TRACE_INTERVAL\t\)(5 \* HZ)$/\1(1 * HZ)/
