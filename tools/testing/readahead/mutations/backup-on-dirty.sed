# A dirty folio takes a backup marker (PG_readahead is PG_reclaim).
s/^\tleft = folio_test_uptodate(mark) \&\& !folio_test_dirty(mark) \&\&$/\tleft = folio_test_uptodate(mark) \&\&/
