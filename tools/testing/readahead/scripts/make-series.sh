#!/bin/sh
# make-series.sh - the patch series as git format-patch output, checked.
#
# Usage: make-series.sh PRISTINE_TREE OUTDIR [--no-bisect | --apply-only]
#
# Builds a git repository (OUTDIR.git) holding the pristine versions of
# the files the series touches, commits patches/plan step by step (one
# commit per logical change), and writes `git format-patch` output with a
# cover letter to OUTDIR.  Every patch must pass checkpatch.pl with no
# errors.  Unless --no-bisect, each step is also applied to a scratch copy
# of the tree (OUTDIR.tree) and mm/readahead.o and mm/filemap.o are built
# after it (tinyconfig + kernel/qemu.config, W=1), so the series bisects.
# The cover letter carries the latest bench figures found under build/.
#
# Binary files (a NUL in their first 8000 bytes, git's test) stay out of
# the patches: patch(1) cannot apply git's binary diffs, and a mailing
# list does not want them.  The fuzz seed corpus is such a file set;
# fuzz/mkcorpus.py writes it again.  They are listed on stdout and in the
# cover letter.  No patch may carry a binary diff.
#
# --apply-only (make check): no checkpatch and no build; each patch is
# applied with patch(1) to a copy of the pristine files instead, in
# order, as the bisect build applies them.  Some seconds.
set -eu

me=series
if [ $# -lt 2 ]; then
	echo "usage: $0 PRISTINE_TREE OUTDIR [--no-bisect]" >&2
	exit 2
fi
scripts=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$scripts/../../../.." && pwd)
. "$scripts/config"
pristine=$(cd "$1" && pwd)
bisect=${3:-}
case $bisect in
""|--no-bisect|--apply-only) ;;
*)
	echo "$me: unknown option '$bisect'" >&2
	exit 2
	;;
esac
rm -rf "$2"
mkdir -p "$2"
out=$(cd "$2" && pwd)
plan="$top/patches/plan"
git_dir="$out.git"
binaries="$out.binary"
: > "$binaries"

g() {
	git -c user.name="Readahead Project" \
		-c user.email=dev@readahead.invalid "$@"
}

[ -f "$plan" ] || { echo "$me: $plan missing" >&2; exit 1; }
steps=$(grep -vE '^[[:space:]]*(#|$)' "$plan")

# --- a repository with the pristine files the series touches ----------
rm -rf "$git_dir"
mkdir -p "$git_dir"
touched=$(echo "$steps" | while read -r kind arg rest; do
	if [ "$kind" = patch ]; then
		sed -nE 's|^\+\+\+ b/(.*)|\1|p' "$top/patches/$arg"
	fi
	for p in $rest; do echo "$p"; done
done | sort -u)
for f in $touched; do
	if [ -f "$pristine/$f" ]; then
		mkdir -p "$git_dir/$(dirname "$f")"
		cp "$pristine/$f" "$git_dir/$f"
	fi
done
cd "$git_dir"
git init -q
git add -A
g commit -q -m "Linux ${KSRC_PKG#linux-source-} (Debian $KSRC_PKG): pristine files"
base=$(git rev-parse HEAD)

# Git's test for a binary file: a NUL byte in the first 8000.
is_binary() {
	[ "$(head -c 8000 "$1" | tr -dc '\000' | wc -c)" -gt 0 ]
}

copy_in() {
	for p in "$@"; do
		rm -rf "${p:?}"
		mkdir -p "$(dirname "$p")"
		# The bench's committed sources: not build outputs, not work
		# in progress, not binaries.
		(cd "$top" && git ls-files -- "$p") |
		while IFS= read -r f; do
			if is_binary "$top/$f"; then
				echo "$f" >> "$binaries"
				continue
			fi
			mkdir -p "$(dirname "$f")"
			cp "$top/$f" "$f"
		done
	done
	git add -A -- "$@"
}

echo "$steps" | while read -r kind arg rest; do
	case $kind in
	patch)
		g am -q "$top/patches/$arg"
		if [ -n "$rest" ]; then
			# shellcheck disable=SC2086
			copy_in $rest
			g commit -q --amend --no-edit
		fi
		;;
	add)
		# shellcheck disable=SC2086
		copy_in $rest
		g commit -q -F "$top/patches/msg/$arg"
		;;
	*)
		echo "$me: $plan: unknown step '$kind'" >&2
		exit 1
		;;
	esac
done
git format-patch -q --no-signature -o "$out" "$base..HEAD"
cd "$top"
if grep -l '^GIT binary patch' "$out"/0*.patch >&2; then
	echo "$me: binary diffs in the patches above" >&2
	exit 1
fi
# "N files in DIR/", per directory.
binary_dirs() {
	sed 's|/[^/]*$|/|' "$binaries" | sort | uniq -c |
		awk '{ printf "    %d file%s in %s\n", $1, ($1 > 1 ? "s" : ""), $2 }'
}
if [ -s "$binaries" ]; then
	echo "$me: binary files left out of the patches:"
	binary_dirs
fi

# --- cover letter -----------------------------------------------------
figures() {
	for f in "$top/build/sim/demo.txt" "$top/build/qemu/ab.txt"; do
		[ -s "$f" ] || continue
		echo "From ${f#"$top"/}:"
		echo
		sed 's/^/    /' "$f"
		echo
	done
}
n=$(ls "$out"/*.patch | wc -l)
{
	echo "From: Readahead Project <dev@readahead.invalid>"
	echo "Subject: [PATCH 0/$n] mm/readahead: on-demand readahead for shared readers"
	echo
	cat <<'EOF'
Several processes reading one file (fio's numjobs, the 2009 JBOD reports
that lost 30-40% to readahead changes) share the page cache and its
readahead markers but not their readahead state.  6.1 still lets a
reader take another reader's marker for its own and issue that reader's
window again, and restart a caught-up stream at a 4-page window.

This series rewrites mm/readahead.c as an on-demand state machine that
checks the page cache before trusting a stale state, moves the page
fault readahead policy next to the read(2) one, adds a debugfs trace and
statistics (the format the 2009 traces used) with a tracepoint, and adds
tools/testing/readahead: a userspace harness compiling the real file next
to the pristine one, a deterministic JBOD simulator, a trace analyzer and
a QEMU A/B bench.

EOF
	if [ -n "$(figures)" ]; then
		echo "Figures (latest runs of the benches):"
		echo
		figures
	else
		echo "Figures: no bench results under build/ yet (make demo, make bench)."
		echo
	fi
	if [ -s "$binaries" ]; then
		echo "Binary files are not in the patches: the fuzz seed"
		echo "corpus, which tools/testing/readahead/fuzz/mkcorpus.py"
		echo "writes, and any other listed here:"
		echo
		binary_dirs
		echo
	fi
	git -C "$git_dir" shortlog "$base..HEAD"
	git -C "$git_dir" diff --stat "$base..HEAD"
} > "$out/0000-cover-letter.patch"

# --- --apply-only: each patch applies, in order, with patch(1) ----------
if [ "$bisect" = --apply-only ]; then
	tree="$out.apply"
	rm -rf "$tree"
	mkdir -p "$tree"
	git -C "$git_dir" archive "$base" | tar -x -C "$tree"
	for p in "$out"/0*.patch; do
		[ "$(basename "$p")" = 0000-cover-letter.patch ] && continue
		if ! patch -s -p1 -d "$tree" < "$p" >&2; then
			echo "$me: $(basename "$p") does not apply" >&2
			exit 1
		fi
	done
	rm -rf "$tree"
	echo "$me: $n patches apply in order with patch(1), none binary"
	exit 0
fi

# --- checkpatch ---------------------------------------------------------
bad=0
# The tools patch's shim of <linux/tracepoint.h> re-creates the
# TRACE_EVENT() stages (a field macro ending in ';', TP_printk expanding to
# an argument list) as the kernel's own include/trace/stages do; those two
# macro forms are what checkpatch exists to flag in kernel code, not here.
for p in "$out"/0*.patch; do
	[ "$(basename "$p")" = 0000-cover-letter.patch ] && continue
	case $p in
	*-tools-testing-*)
		CHECKPATCH_IGNORE=COMPLEX_MACRO,MULTISTATEMENT_MACRO_USE_DO_WHILE \
			"$scripts/checkpatch.sh" "$pristine" "$p" || bad=1 ;;
	*)
		"$scripts/checkpatch.sh" "$pristine" "$p" || bad=1 ;;
	esac
done

# --- bisectability: build mm/ after each patch ----------------------------
if [ "$bisect" = "" ]; then
	tree="$out.tree"
	objdir="$out.kobj"
	rm -rf "$tree"
	"$scripts/unpack-tree.sh" "$tree"
	mkdir -p "$objdir"
	objdir=$(cd "$objdir" && pwd)
	make -s -C "$tree" O="$objdir" tinyconfig >/dev/null
	for p in "$out"/0*.patch; do
		[ "$(basename "$p")" = 0000-cover-letter.patch ] && continue
		patch -s -p1 -d "$tree" < "$p"
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$objdir" \
			"$objdir/.config" \
			"$top/tools/testing/readahead/kernel/qemu.config" \
			>/dev/null 2>&1
		make -s -C "$tree" O="$objdir" olddefconfig >/dev/null
		log="$objdir/$(basename "$p").log"
		if ! make -s -C "$tree" O="$objdir" -j2 W=1 mm/readahead.o \
				mm/filemap.o > "$log" 2>&1 ||
		   grep -qE '(readahead|filemap)\.[ch].*(warning|error):' "$log"; then
			cat "$log" >&2
			echo "$me: $(basename "$p"): mm/ does not build" >&2
			exit 1
		fi
		echo "$me: $(basename "$p"): mm/readahead.o mm/filemap.o build"
	done
fi
if [ "$bad" -ne 0 ]; then
	echo "$me: checkpatch found errors (above)" >&2
	exit 1
fi
echo "$me: $n patches and a cover letter in $out"
