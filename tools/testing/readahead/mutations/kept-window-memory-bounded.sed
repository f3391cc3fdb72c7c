# Windows larger than the maximum (huge page ones) shrink to the memory bound.
s/^\treturn max(keep, next);$/\treturn min(max(keep, next), ra_memory_cap());/
