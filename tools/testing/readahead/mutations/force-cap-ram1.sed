# Forced readahead may read all of memory in one call, not 1/16.
s/^\(#define RA_FORCE_MEM_SHARE\t\)16$/\11/
