# Large folios on every mapping, not only those that take them.
s/^\tif (!mapping_large_folio_support(mapping))$/\tif (0)/
s/^\t\tif (mapping_large_folio_support(ractl->mapping)) {$/\t\tif (1) {/
