# mmap_miss counts up to 100000, so read-around recovers 100 times slower.
s/(10 \* RA_MMAP_MISS_LIMIT)/(1000 * RA_MMAP_MISS_LIMIT)/
