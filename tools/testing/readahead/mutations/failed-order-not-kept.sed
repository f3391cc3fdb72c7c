# The state keeps the order asked for after a failed allocation.
s/o - 1 - RA_ORDER_STEP : 0;$/ractl->ra->order : ractl->ra->order;/
