# A marker left to another reader is cleared all the same.
s/^\tif (folio \&\& (!read || d.pattern != RA_PATTERN_DEFER))$/\tif (folio)/
