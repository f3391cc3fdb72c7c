# After a failed allocation the next window ramps from order 2 again.
s/prev = pattern == RA_PATTERN_SUBSEQUENT ? ra->order :/prev = pattern == RA_PATTERN_SUBSEQUENT ? max_t(unsigned int, ra->order, RA_ORDER_START) :/
