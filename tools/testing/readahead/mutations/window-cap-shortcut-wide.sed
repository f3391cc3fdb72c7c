# The memory bound is skipped for windows above the default one too.
s/^\tif (max <= VM_READAHEAD_PAGES)$/\tif (max <= 4 * VM_READAHEAD_PAGES)/
