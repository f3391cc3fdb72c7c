# Requests up to 1/16 of the maximum are quadrupled, not 1/32.
s|if (size <= max / 32)|if (size <= max / 16)|
