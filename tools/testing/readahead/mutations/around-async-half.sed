# Read-around marks half the window asynchronous, not a quarter.
s/\tra->async_size = max \/ 4;/\tra->async_size = max \/ 2;/
