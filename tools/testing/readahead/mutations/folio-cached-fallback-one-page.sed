# Around a cached page, only one page is read as order 0.
s/\t\t\t\tlarge_left = left - nr;/\t\t\t\tlarge_left = left - 1;/
