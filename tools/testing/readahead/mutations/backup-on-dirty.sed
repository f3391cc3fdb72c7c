# A dirty folio takes a backup marker (PG_readahead is PG_reclaim).
s/^\t\tleft = folio_test_uptodate(mark) \&\& !folio_test_dirty(mark) \&\&$/\t\tleft = folio_test_uptodate(mark) \&\&/
