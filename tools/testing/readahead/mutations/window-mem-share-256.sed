# Windows may take only 1/256 of memory, not 1/128.
s/^\(#define RA_WINDOW_MEM_SHARE\t\)128$/\1256/
