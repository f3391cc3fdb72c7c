# Large folios on every mapping, not only those that take them.
s/^\tif (!mapping_large_folio_support(ractl->mapping))$/\tif (0)/
s/^\treturn min(order, mapping_max_folio_order(ractl->mapping));$/\treturn order;/
