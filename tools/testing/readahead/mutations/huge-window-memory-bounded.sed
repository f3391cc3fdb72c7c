# Huge page windows are bounded by memory, splitting their PMD folios.
s/^\t\t\t      2 \* HPAGE_PMD_NR, HPAGE_PMD_NR);$/\t\t\t      ra_memory_bound(2 * HPAGE_PMD_NR), HPAGE_PMD_NR);/
