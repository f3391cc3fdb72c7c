# The next-window look-up is skipped whenever the cache holds no more pages than lie before the window's end, holes behind or not.
s/READ_ONCE(ractl->mapping->nrpages) != window_end/READ_ONCE(ractl->mapping->nrpages) > window_end/
