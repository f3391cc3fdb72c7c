# median.awk - medians for the bench's awk programs: prepend it to a
# program, as json.awk ("$(cat median.awk)" then the program's text).
# The QEMU report's are Python's statistics.median, the same definition.
#
# median(V, N): the median of V[1..N] sorted in place (ascending): the
# middle value, or the mean of the two middle ones for an even N; "" for
# N = 0.
# median_pick(N): the index of the value to take when it must be one of
# the N themselves (matrix.sh's median run): the middle one, the lower of
# the two for an even N.
function median_sort(v, n,    i, j, x) {
	for (i = 2; i <= n; i++) {
		x = v[i]
		for (j = i - 1; j >= 1 && v[j] + 0 > x + 0; j--)
			v[j + 1] = v[j]
		v[j + 1] = x
	}
}
function median(v, n) {
	if (n < 1)
		return ""
	median_sort(v, n)
	if (n % 2)
		return v[(n + 1) / 2]
	return (v[n / 2] + v[n / 2 + 1]) / 2
}
function median_pick(n) {
	return int((n + 1) / 2)
}
