# The order ramps by 1 per window.
s/^#define RA_ORDER_STEP\t\t2/#define RA_ORDER_STEP\t\t1/
