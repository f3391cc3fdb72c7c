# The stats miss windows that end exactly at EOF.
# file: mm/readahead_debug.c
s/if (d->start + d->size >= eof)/if (d->start + d->size > eof)/
