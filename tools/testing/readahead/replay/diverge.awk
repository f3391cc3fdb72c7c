# SPDX-License-Identifier: GPL-2.0
#
# Bisect-style comparison of two readahead traces of the same job: the
# first decision (line) that differs, with the two lines and the last
# common one before them.
#
#   awk -f diverge.awk TRACE_A TRACE_B
FNR == NR {
	a[FNR] = $0
	na = FNR
	next
}
{
	nb = FNR
	if (found)
		next
	if (!(FNR in a) || a[FNR] != $0) {
		found = FNR
		lb = $0
	}
}
END {
	fa = ARGV[1]
	fb = ARGV[2]
	sub(/.*\//, "", fa)
	sub(/.*\//, "", fb)
	if (!found && na == nb) {
		printf "no divergence: the %d decisions are identical\n", na
		exit
	}
	if (!found)
		found = nb + 1
	printf "decision %d of %d / %d differs\n", found, na, nb
	if (found > 1)
		printf "  common: %s\n", a[found - 1]
	printf "  %s: %s\n", fa, (found in a) ? a[found] : "(end of trace)"
	printf "  %s: %s\n", fb, lb != "" ? lb : "(end of trace)"
}
