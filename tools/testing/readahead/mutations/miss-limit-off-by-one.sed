# Read-around gives up one miss early.
s/if (mmap_miss + 1 > RA_MMAP_MISS_LIMIT)/if (mmap_miss + 1 >= RA_MMAP_MISS_LIMIT)/
