# A kept window keeps the pages a filesystem added: windows grow each time.
s/^\tkeep = rounddown_pow_of_two(ra->size);$/\tkeep = ra->size;/
