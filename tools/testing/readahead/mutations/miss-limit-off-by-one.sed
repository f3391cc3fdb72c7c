# Read-around gives up one miss early.
s/if (!follows \&\& mmap_miss > RA_MMAP_MISS_LIMIT) {/if (!follows \&\& mmap_miss >= RA_MMAP_MISS_LIMIT) {/
