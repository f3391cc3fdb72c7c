# The stats miss windows that end exactly at EOF.
s/if (d->start + d->size >= eof)/if (d->start + d->size > eof)/
