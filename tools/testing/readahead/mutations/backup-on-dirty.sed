# A dirty folio takes a backup marker (PG_readahead is PG_reclaim).
s/^\tok = folio_test_uptodate(folio) \&\& !folio_test_dirty(folio) \&\&$/\tok = folio_test_uptodate(folio) \&\&/
