# Another reader's marker ramps from the marked folio, as 6.1: unaligned streams lag.
s/^\tif (ilog2(end - mid) <= order)$/\tif (1)/
