# Order-1 folios on 6.1, whose page cache takes none.
# base: 6.1
s/^\t\t\tif (o == 1) {$/\t\t\tif (0) {/
