# The state keeps the order asked for after a failed allocation.
/^\t\tractl->ra->order = got;$/d
