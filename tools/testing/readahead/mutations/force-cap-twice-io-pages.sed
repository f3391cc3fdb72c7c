# Forced readahead reads up to twice the device's optimal I/O size.
s/unsigned long cap = max_t(unsigned long, bdi->io_pages,/unsigned long cap = max_t(unsigned long, 2 * bdi->io_pages,/
