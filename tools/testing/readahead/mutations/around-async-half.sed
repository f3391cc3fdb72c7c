# Read-around marks half the window asynchronous, not a quarter.
s/^\t\t      max, max \/ 4);$/\t\t      max, max \/ 2);/
