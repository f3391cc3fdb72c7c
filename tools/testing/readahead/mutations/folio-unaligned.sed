# Large folios ignore the alignment of their index.
s/^\tif (index)$/\tif (0)/
