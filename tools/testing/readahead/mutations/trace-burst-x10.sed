# Ten times more trace lines per interval.
s/^\(#define RA_TRACE_BURST\t\t\)500$/\15000/
