# Large folios ignore the alignment of their index.
s/__ffs(index | 1UL << order)/__ffs(1UL << order)/
