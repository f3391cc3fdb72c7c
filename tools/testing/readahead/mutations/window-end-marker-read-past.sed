# A marker at our window end is taken for another, and read past from here.
s/^\tif (folio \&\& ra->size \&\& index == window_end)$/\tif (0)/
