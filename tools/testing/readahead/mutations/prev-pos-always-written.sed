# Every fault hit writes prev_pos, changed or not.
s/if (READ_ONCE(ra->prev_pos) != prev_pos)/if (1)/
