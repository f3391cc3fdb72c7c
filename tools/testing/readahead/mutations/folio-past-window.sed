# A large folio may reach past the window's end (and the file's).
s/\tif (left < 1UL << order)$/\tif (left < 1UL << order \&\& 0)/
