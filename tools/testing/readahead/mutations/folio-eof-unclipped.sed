# Windows are not clipped at the end of the file: folios past EOF.
/^\t\tnr_to_read = eof - index;$/d
