# A fault on a marked folio passes the page, not the folio, as 6.1 does.
s/^\tra_fault_marker(file, folio, folio->index);$/\tra_fault_marker(file, folio, vmf->pgoff);/
