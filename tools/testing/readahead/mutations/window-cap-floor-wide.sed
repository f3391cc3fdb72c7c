# The memory bound never goes below four default windows.
s/^\t\t\t      VM_READAHEAD_PAGES));$/\t\t\t      4 * VM_READAHEAD_PAGES));/
