# An asynchronous window after a small first one does not ramp from order 2.
s/order = max(prev, order) + RA_ORDER_STEP;/order = min(prev, order) + RA_ORDER_STEP;/
