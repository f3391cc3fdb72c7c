# A stale reader reissues the window another reader already read.
s/!(folio \&\& ra_page_cached(ractl->mapping, window_end))) {/true) {/
