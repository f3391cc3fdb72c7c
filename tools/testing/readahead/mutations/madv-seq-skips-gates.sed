# MADV_SEQUENTIAL faults skip read(2)'s gates (cgroup congestion, FMODE_RANDOM).
s/^\t\tra_sync(&ractl, ra->ra_pages, true);$/\t\tondemand_readahead(\&ractl, NULL, ra->ra_pages, true);/
