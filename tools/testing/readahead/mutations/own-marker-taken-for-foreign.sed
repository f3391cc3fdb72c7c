# Every marker the state does not explain is taken for another reader's.
s/^\tif (window_end > index)$/\tif (0)/
