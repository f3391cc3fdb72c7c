# The mmap_miss back-off does not apply before the cached-page check.
s/^\tif (!follows \&\& mmap_miss > RA_MMAP_MISS_LIMIT) {$/\tif (0) {/
