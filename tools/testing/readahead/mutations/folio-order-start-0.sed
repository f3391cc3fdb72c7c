# Streams and read-around start at order 0.
s/^#define RA_ORDER_START\t\t2/#define RA_ORDER_START\t\t0/
