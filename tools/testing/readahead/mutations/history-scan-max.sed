# The history scans only max pages: on 6.1 it counts one page short.
s/hole = page_cache_prev_miss(ractl->mapping, index - 1, max + 1);/hole = page_cache_prev_miss(ractl->mapping, index - 1, max);/
