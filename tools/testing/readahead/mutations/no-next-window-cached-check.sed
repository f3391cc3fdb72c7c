# A stale reader reissues the window another reader already read.
s/!(folio \&\& READ_ONCE(ractl->mapping->nrpages) != window_end \&\&/!(0 \&\&/
