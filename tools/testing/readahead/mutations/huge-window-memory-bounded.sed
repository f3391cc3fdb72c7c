# Huge page windows are bounded by memory, splitting their PMD folios.
s/^\t\t      rand ? HPAGE_PMD_NR : 2 \* HPAGE_PMD_NR, HPAGE_PMD_NR);$/\t\t      min_t(unsigned long, rand ? HPAGE_PMD_NR : 2 * HPAGE_PMD_NR, ra_memory_cap()), HPAGE_PMD_NR);/
