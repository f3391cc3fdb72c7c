#!/bin/sh
# checkpatch.sh - run the kernel's checkpatch.pl over the project's files.
#
# Usage: checkpatch.sh TREE FILE...
#
# TREE is a Linux 6.1 source tree (the pristine one is fine: only its
# scripts/checkpatch.pl and data files are read).  Each FILE (a path
# relative to the current directory, normally the repo root) is checked
# with --no-tree --strict (what mm's maintainers run): whole source
# files with -f, files ending in .patch as patches.  Prints checkpatch's
# report for files with findings and a "total:" summary line per file.
# Exit status 1 if any file has errors or checkpatch fails; warnings and
# checks are reported only, unless CHECKPATCH_CLEAN=1 (then any finding
# fails).  CHECKPATCH_IGNORE=TYPE,... is passed on as --ignore (see
# make-series.sh and run-tests.sh).
set -eu

me=checkpatch
if [ $# -lt 2 ]; then
	echo "usage: $0 TREE FILE..." >&2
	exit 2
fi
tree=$1
shift
scripts=$(cd "$(dirname "$0")" && pwd)
cp="$tree/scripts/checkpatch.pl"
if [ ! -f "$cp" ]; then
	echo "$me: $cp missing; create the tree with" \
		"$scripts/unpack-tree.sh $tree" >&2
	exit 1
fi
cp=$(cd "$tree/scripts" && pwd)/checkpatch.pl

out=$(mktemp)
# checkpatch --strict seeds its CamelCase check from the repository's
# include/ (git ls-files) and caches it in a .checkpatch-camelcase.git.*
# file of the directory it runs in: it runs in a scratch directory, told
# where the repository is (GIT_DIR), so that the cache goes with it.
scratch=$(mktemp -d)
GIT_DIR=$(cd "$scripts" && git rev-parse --absolute-git-dir 2>/dev/null) ||
	GIT_DIR=$scratch/.git
export GIT_DIR
trap 'rm -rf "$out" "$scratch"' EXIT
status=0
for f in "$@"; do
	if [ ! -f "$f" ]; then
		echo "$me: $f: no such file" >&2
		status=1
		continue
	fi
	# checkpatch exits non-zero for warnings too; judge by its summary.
	# A patch goes in on stdin: given the path of a file git tracks,
	# checkpatch would check the patch file itself as source.
	case $f in
	*.patch)
		(cd "$scratch" && perl "$cp" --no-tree --strict --color=never \
			${CHECKPATCH_IGNORE:+--ignore "$CHECKPATCH_IGNORE"} \
			-) < "$f" > "$out" 2>&1 || true ;;
	*)
		abs=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
		(cd "$scratch" && perl "$cp" --no-tree --strict --color=never \
			${CHECKPATCH_IGNORE:+--ignore "$CHECKPATCH_IGNORE"} \
			-f "$abs") > "$out" 2>&1 || true ;;
	esac
	total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings' "$out" |
		tail -n 1)
	if [ -z "$total" ]; then
		cat "$out" >&2
		echo "$me: $f: checkpatch.pl gave no summary" >&2
		status=1
		continue
	fi
	errors=$(echo "$total" | sed -E 's/^total: ([0-9]+) errors.*/\1/')
	warnings=$(echo "$total" |
		sed -E 's/^total: [0-9]+ errors, ([0-9]+) warnings.*/\1/')
	checks=$(echo "$total" |
		sed -nE 's/^total: .* ([0-9]+) checks.*/\1/p')
	checks=${checks:-0}
	if [ "$errors" -gt 0 ] || [ "$warnings" -gt 0 ] ||
	   [ "$checks" -gt 0 ]; then
		# The findings, without checkpatch's closing boilerplate.
		sed -n '/^total: /q;p' "$out"
	fi
	echo "$me: $f: $total"
	[ "$errors" -eq 0 ] || status=1
	if [ "${CHECKPATCH_CLEAN:-}" = 1 ] &&
	   [ $((warnings + checks)) -gt 0 ]; then
		status=1
	fi
done
exit $status
