# A window clipped at the end of the file is marked from the clipped end.
/^\t\tlookahead_size = 0;$/d
