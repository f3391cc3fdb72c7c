# The huge page window leaves the state's start as it was.
/^\tra->start = round_down(index, min_t(unsigned long, size,$/{N;s/.*/\t(void)0;/}
