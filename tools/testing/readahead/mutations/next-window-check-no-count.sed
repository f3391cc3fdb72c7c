# The next-window look-up runs even when the count says a reader is alone on its file from page 0.
s/READ_ONCE(ractl->mapping->nrpages) != window_end \&\&//
