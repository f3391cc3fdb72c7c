# A medium first request gets the maximum window sooner.
s|if (size <= max / 4)|if (size <= max / 8)|
