#!/bin/sh
# code-lines.sh - the size of the project's mm/readahead.c against 6.12's,
# in code lines: what is left of a file without its comments (gcc
# -fpreprocessed -dD -E -P), its blank lines and its #include and #define
# lines.
#
# Usage: code-lines.sh [PRISTINE_TREE]   (default build/linux-source-6.12)
#        code-lines.sh --count FILE...   (each FILE's code lines)
#
# Prints the code lines of ours, of 6.12's mm/readahead.c, and of the
# fault readahead 6.12 keeps in mm/filemap.c (do_sync_mmap_readahead()
# and do_async_mmap_readahead(), which ours' mm/readahead.c took over),
# and ours against each of the two.
set -eu

me=code-lines
scripts=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$scripts/../../../.." && pwd)

# count < C source: its code lines.
count() {
	gcc -fpreprocessed -dD -E -P - |
		grep -v -e '^[[:space:]]*$' -e '^#[[:space:]]*define' \
			-e '^#[[:space:]]*include' | wc -l
}

# definition NAME < C source: the definition of NAME, from the line that
# opens it (its name at the start of a line, or after its return type)
# to the closing brace in column 0.
definition() {
	awk -v name="$1" '
		!on && ($0 ~ "^" name "\\(" || $0 ~ "[ *]" name "\\(") &&
			$0 !~ /;$/ && $0 ~ /^[a-z]/ { on = 1 }
		on { print }
		on && /^}/ { exit }
	'
}

if [ "${1:-}" = --count ]; then
	shift
	[ $# -gt 0 ] || { echo "usage: $0 --count FILE..." >&2; exit 2; }
	for f in "$@"; do
		[ -r "$f" ] || { echo "$me: cannot read $f" >&2; exit 1; }
		echo "$(count < "$f") $f"
	done
	exit 0
fi
[ $# -le 1 ] || { echo "usage: $0 [PRISTINE_TREE]" >&2; exit 2; }
. "$scripts/config"
tree=${1:-$top/build/$KSRC_DIR}
for f in mm/readahead.c mm/filemap.c; do
	if [ ! -r "$tree/$f" ]; then
		echo "$me: $tree/$f missing; unpack the tree with make tree" >&2
		exit 1
	fi
done
ours=$(count < "$top/mm/readahead.c")
theirs=$(count < "$tree/mm/readahead.c")
fault=0
for fn in do_sync_mmap_readahead do_async_mmap_readahead; do
	n=$(definition "$fn" < "$tree/mm/filemap.c" | count)
	if [ "$n" -eq 0 ]; then
		echo "$me: $fn() not found in $tree/mm/filemap.c" >&2
		exit 1
	fi
	fault=$((fault + n))
done
awk -v o="$ours" -v t="$theirs" -v f="$fault" 'BEGIN {
	printf "ours mm/readahead.c              %4d\n", o
	printf "pristine mm/readahead.c          %4d  ours %.2fx\n", t, o / t
	printf "pristine fault readahead         %4d\n", f
	printf "pristine readahead.c + fault     %4d  ours %.2fx\n", t + f,
		o / (t + f)
}'
