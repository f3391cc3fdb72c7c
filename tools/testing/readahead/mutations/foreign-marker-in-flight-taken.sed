# Another reader's marker is left when its window is in, taken in flight.
s/if (others \&\& !folio_test_uptodate(folio)) {/if (others \&\& folio_test_uptodate(folio)) {/
