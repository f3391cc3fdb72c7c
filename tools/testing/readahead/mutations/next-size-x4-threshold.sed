# Windows grow 4x up to 1/8 of the maximum, not 1/16.
s|if (cur < max / 16)|if (cur < max / 8)|
