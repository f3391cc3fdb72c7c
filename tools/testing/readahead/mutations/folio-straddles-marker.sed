# Folios may straddle the marker, which then marks no folio start.
s/o = ra_fit_order(index, (index < mark ? mark : end) -/o = ra_fit_order(index, (0 ? mark : end) -/
