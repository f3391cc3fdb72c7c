# The ramp goes on from the marked folio, as 6.1: unaligned streams lag.
s/^\tif (max(above, below) <= order)$/\tif (1)/
