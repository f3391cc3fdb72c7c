# A marker at our window end is taken for another, and read past from here.
s/^\t\tif (ra->size \&\& index == window_end)$/\t\tif (0)/
