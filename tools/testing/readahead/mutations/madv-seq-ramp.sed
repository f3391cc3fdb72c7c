# MADV_SEQUENTIAL faults ramp up from a 4-page window, as unhinted ones.
s/^\t\tra_sync(&ractl, ra->ra_pages, true);$/\t\tra_sync(\&ractl, 1, true);/
