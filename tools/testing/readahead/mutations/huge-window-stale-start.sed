# The huge page window leaves the state's start as it was.
s/ra_set_window(ra, round_down(index, min_t(unsigned long, size,/ra_set_window(ra, ra->start + 0 * (index + min_t(unsigned long, size,/
