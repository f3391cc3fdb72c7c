# Order-1 folios, which 6.1's page cache does not take.
s/\treturn order == 1 ? 0 : order;/\treturn order;/
