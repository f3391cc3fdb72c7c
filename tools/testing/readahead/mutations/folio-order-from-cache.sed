# Our own marker ramps from the folios cached, not the order the state keeps.
s/prev = pattern == RA_PATTERN_SUBSEQUENT ? ra->order :/prev = false ? ra->order :/
