# Ten times more trace lines per interval.
# file: mm/readahead_debug.c
s/^\(#define RA_TRACE_BURST\t\t\)500$/\15000/
