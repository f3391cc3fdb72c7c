# Windows larger than the maximum keep their size above the memory bound.
s/^\treturn min(max(keep, next), ra_memory_cap());$/\treturn max(keep, next);/
