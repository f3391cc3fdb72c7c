# A fault that misses does not look at the page before it.
s/ra_page_cached(file->f_mapping, vmf->pgoff - 1))) \&\&$/false)) \&\&/
