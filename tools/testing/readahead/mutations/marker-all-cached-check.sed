# A marker with the next whole window cached issues a window anyway.
s/if (hole <= index || hole - index > max || hole >= eof)/if (hole <= index || hole >= eof)/
