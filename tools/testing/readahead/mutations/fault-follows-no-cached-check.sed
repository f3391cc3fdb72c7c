# A fault that misses does not look at the page before it.
s/(index \&\& ra_page_cached(mapping, index - 1))/false/
