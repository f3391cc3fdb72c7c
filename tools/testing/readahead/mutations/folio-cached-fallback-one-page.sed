# Around a cached page, only one page is read as order 0.
s/\t\t\t\tsmall_end = index + nr;/\t\t\t\tsmall_end = index + 1;/
