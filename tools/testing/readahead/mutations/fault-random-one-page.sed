# A fault after a cached page that is no stream reads one page, not around.
s/^\t\tif (fault \&\& !folio)$/\t\tif (0)/
