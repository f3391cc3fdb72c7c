# Forced readahead submits 1 MB chunks, not 2 MB.
s|^\(#define RA_FORCE_CHUNK_PAGES\t\)(SZ_2M / PAGE_SIZE)$|\1(SZ_128K * 8 / PAGE_SIZE)|
