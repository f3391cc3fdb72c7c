# Windows larger than the maximum keep their size above the memory bound.
s/return min_t(unsigned long, ra->size, ra_memory_cap());/return ra->size;/
