# The huge page window leaves the state's start as it was.
s/ra_set_window(ra, round_down(vmf->pgoff, HPAGE_PMD_NR),/ra_set_window(ra, ra->start + 0 * vmf->pgoff,/
