# Huge page mappings read order-2 folios.
s/ra_fault_window(&ractl, vmf->pgoff, HPAGE_PMD_ORDER);/ra_fault_window(\&ractl, vmf->pgoff, RA_ORDER_START);/
