# The read-around decision says no fault asked: the log line loses miss=.
s/^\t\t\.fault = true,$/\t\t.fault = false,/
