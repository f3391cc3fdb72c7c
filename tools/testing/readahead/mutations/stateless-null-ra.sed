# A forced or random read hands ->readahead() a NULL ra, as FUSE oopses on.
s/^\tractl->ra = &window;$/\tractl->ra = NULL;/
