# An asynchronous window after a small first one does not ramp from order 2.
s/^\t\t\t\torder = max(ra_window_order(ractl->mapping,$/\t\t\t\torder = min(ra_window_order(ractl->mapping,/
