# Around a cached page, only one page is read as order 0.
s/\t\t\t\tsmall_until = i + nr;/\t\t\t\tsmall_until = i + 1;/
