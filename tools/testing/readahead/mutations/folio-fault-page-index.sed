# A fault on a marked folio passes the page, not the folio, as 6.1 does.
s/^\t\tractl._index = folio->index;$/\t\tractl._index = vmf->pgoff;/
