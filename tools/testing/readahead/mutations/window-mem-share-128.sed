# Windows may take 1/128 of memory instead of 1/256.
s/^\(#define RA_WINDOW_MEM_SHARE\t\)256$/\1128/
