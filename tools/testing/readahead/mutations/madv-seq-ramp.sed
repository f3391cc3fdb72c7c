# MADV_SEQUENTIAL faults ramp up from a 4-page window, as unhinted ones.
s/^\t\tondemand_readahead(&ractl, NULL, vm_flags & VM_SEQ_READ ?$/\t\tondemand_readahead(\&ractl, NULL, 0 ?/
