# The marker path scans only max pages: on 6.1 a cached page passes for a hole.
# base: 6.1
s/hole = page_cache_next_miss(ractl->mapping, index + 1, max + 1);/hole = page_cache_next_miss(ractl->mapping, index + 1, max);/
