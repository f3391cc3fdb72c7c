# A marker whose first hole is EOF issues a window past it.
s/|| hole >= eof)/|| hole > eof)/
