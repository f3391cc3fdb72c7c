# Folios may straddle the marker, which then marks no folio start.
s/o = ra_fit_order(index, left > lookahead_size ?/o = ra_fit_order(index, 0 ?/
