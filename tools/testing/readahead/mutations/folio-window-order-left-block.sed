# The largest folio is looked for only after the middle of the window.
s/at = above >= below ? mid : mid - (1UL << below);/at = mid;/
