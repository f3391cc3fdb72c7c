# A failed large folio allocation ends the window instead of order 0.
/\t\tif (!folio) {$/,/\t\t\tcontinue;/s/\t\t\tif (o == min)$/\t\t\tif (1)/
