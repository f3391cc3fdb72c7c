# Huge page windows are bounded by memory, splitting their PMD folios.
s/^\t\t\t      (vm_flags \& VM_RAND_READ ? 1 : 2) \* HPAGE_PMD_NR,$/\t\t\t      ra_memory_bound((vm_flags \& VM_RAND_READ ? 1 : 2) * HPAGE_PMD_NR),/
