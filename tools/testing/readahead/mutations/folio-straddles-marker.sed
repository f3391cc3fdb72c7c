# Folios may straddle the marker, which then marks no folio start.
s/\t\t\tif (i < mark)$/\t\t\tif (0)/
