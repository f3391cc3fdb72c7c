# Another reader's marker is left when its window is in, taken in flight.
s/if (ra->size && index != marker && !folio_test_uptodate(folio)) {/if (ra->size \&\& index != marker \&\& folio_test_uptodate(folio)) {/
