# A window ending exactly at EOF still gets a successor past it.
s/if (window_end >= eof)/if (window_end > eof)/
