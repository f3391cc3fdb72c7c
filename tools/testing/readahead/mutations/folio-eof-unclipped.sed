# Windows are not clipped at the end of the file: folios past EOF.
/nr_to_read = min_t(unsigned long, nr_to_read, eof - index);/d
