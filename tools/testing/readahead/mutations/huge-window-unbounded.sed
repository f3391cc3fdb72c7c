# Huge page windows ignore the memory bound.
s/while (size > cap)/while (size > cap \&\& 0)/
