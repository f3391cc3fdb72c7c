# The decision event says no fault asked: the log line loses its miss=.
s/^\t\t\t\t d->fault, d->actual);$/\t\t\t\t false, d->actual);/
