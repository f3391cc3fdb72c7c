# Read-around gives up one miss early.
s/return mmap_miss > RA_MMAP_MISS_LIMIT;/return mmap_miss >= RA_MMAP_MISS_LIMIT;/
