# json.awk - read the bench's JSON records (one flat object a line, as
# ra_sim --json and matrix.sh's table.jsonl write them) in awk: prepend it
# to a program ("$(cat json.awk)" then the program's text; mawk has no
# -e).  jparse(LINE, A) empties A and sets A[KEY] to each member's value
# (strings without their quotes; no nesting, no escaped quotes: the
# records have neither); it returns the number of members.  The values
# are strings: compare them as numbers with "+ 0".
function jparse(line, a,    n, i, m, part, k, v, parts) {
	split("", a)
	sub(/^[ \t]*\{[ \t]*/, "", line)
	sub(/[ \t]*\}[ \t]*$/, "", line)
	if (line == "")
		return 0
	n = split(line, parts, /,[ \t]*"/)
	m = 0
	for (i = 1; i <= n; i++) {
		part = parts[i]
		sub(/^"/, "", part)
		k = part
		sub(/".*$/, "", k)
		v = part
		sub(/^[^"]*"[ \t]*:[ \t]*/, "", v)
		if (v ~ /^".*"$/)
			v = substr(v, 2, length(v) - 2)
		a[k] = v
		m++
	}
	return m
}
