# SPDX-License-Identifier: GPL-2.0
#
# Statistics of readahead trace lines (the debugfs format, as ra_sim
# writes them): decisions in all and per pattern, all-cached windows
# (a window of at least one page that submitted nothing), duplicate
# windows (a window whose file and start an earlier decision issued
# already), and windows larger than max (-v max=PAGES).  One line:
#   calls initial0 initial subsequent marker context random around
#   fadvise all_cached dup_windows over_max
#
#   awk -v max=64 -f tracestat.awk TRACE
/^readahead-/ {
	pat = substr($1, 11)
	sub(/\(.*/, "", pat)
	calls++
	n[pat]++
	if (!match($0, /ino=[0-9]+/))
		next
	ino = substr($0, RSTART + 4, RLENGTH - 4)
	if (!match($0, /ra=[0-9]+\+[0-9]+-[0-9]+/))
		next
	split(substr($0, RSTART + 3, RLENGTH - 3), w, /[+-]/)
	actual = $NF
	if (pat == "fadvise" || pat == "random")
		next
	if (w[2] > 0 && actual == 0)
		cached++
	key = $0
	sub(/^.*dev=/, "", key)
	sub(/\).*/, "", key)
	key = key " " ino " " w[1]
	if (key in seen)
		dup++
	seen[key] = 1
	if (w[2] + 0 > max + 0)
		over++
}
END {
	printf "%8d %8d %7d %8d %7d %7d %7d %7d %7d %8d %7d %8d\n", calls,
	       n["initial0"], n["initial"], n["subsequent"], n["marker"],
	       n["context"], n["random"], n["around"], n["fadvise"], cached,
	       dup, over
}
