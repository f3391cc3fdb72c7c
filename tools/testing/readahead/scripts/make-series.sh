#!/bin/sh
# make-series.sh - the patch series as git format-patch output, checked.
#
# Usage: make-series.sh PRISTINE_TREE OUTDIR [--no-bisect | --apply-only]
#
# The series is written for the kernel PRISTINE_TREE was unpacked from
# (its .unpacked stamp): the base (KSRC_PKG of scripts/config) or the
# backport (OLD_PKG), whose upstream-file patches are BACKPORT/patches/
# and whose mm/readahead.c is the base's with BACKPORT/readahead.c.patch
# applied.  A git repository (OUTDIR.git) gets the pristine versions of
# the files the series touches, then one commit per step of
# patches/plan:
#
#   patch FILE [PATH...]  the patch FILE to upstream files (its Subject
#                         and body are the message), with the project's
#                         whole files PATH added in the same commit
#   change FILE           the patch FILE to the project's whole files
#                         committed before it: one behaviour change
#   add MSG PATH...       the whole files PATH, message patches/msg/MSG
#   maintainers MSG       the MAINTAINERS entry of patches/maintainers.entry
#                         with the submitter as its M: line
#
# A patch is looked up in the base's patch directory, then in patches/
# (the change patches are the same on both bases when they apply).
# Whole files enter the series as they are before the change steps
# that follow: every change patch is first applied in reverse, last
# first, to a copy of the project's files, and each change step applies
# it forward again.  At the end the series' files must be the project's
# files exactly: the series and the tree cannot disagree.
#
# Author, From and Signed-off-by are the submitter's git identity
# (user.name and user.email, as `git format-patch -s` takes them); no
# identity is committed in patches/.  Without one, make series stops and
# says so; --apply-only, whose output is never sent, signs nothing.
#
# Then series-figures.sh compares every patch of the base's series with
# the one before (harness observations, the spindle jobs simulated, the
# matrix, bench-cpu), in OUTDIR/figures.txt and the cover letter;
# SERIES_FIGURES=0 skips it (half an hour), to check the build alone.
#
# Every kernel patch must pass checkpatch.pl --strict with no finding,
# the tools patch with no error.  Unless --no-bisect,
# each patch is also applied to a scratch copy of the tree (OUTDIR.tree)
# and mm/readahead.o, mm/filemap.o (and mm/readahead_debug.o once it
# exists) are built after it (tinyconfig + kconfig/qemu.config, W=1, and
# sparse where installed), so the series bisects; no patch may add a
# warning to those pristine mm/ gives (sparse's, on filemap.c).
#
# Binary files (a NUL in their first 8000 bytes, git's test) stay out of
# the patches: patch(1) cannot apply git's binary diffs, and a mailing
# list does not want them.  The fuzz seed corpus is such a file set;
# fuzz/mkcorpus.py writes it again.  They are listed on stdout and in the
# cover letter.  No patch may carry a binary diff.
#
# --apply-only (make check): no identity, no checkpatch and no build;
# each patch is applied with patch(1) to a copy of the pristine files
# instead, in order, as the bisect build applies them.  Some seconds.
set -eu

me=series
if [ $# -lt 2 ]; then
	echo "usage: $0 PRISTINE_TREE OUTDIR [--no-bisect | --apply-only]" >&2
	exit 2
fi
scripts=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$scripts/../../../.." && pwd)
. "$scripts/config"
pristine=$(cd "$1" && pwd)
mode=${3:-}
case $mode in
""|--no-bisect|--apply-only) ;;
*)
	echo "$me: unknown option '$mode'" >&2
	exit 2
	;;
esac

if [ ! -f "$pristine/.unpacked" ]; then
	echo "$me: $pristine has no .unpacked stamp; unpack it with" \
		"$scripts/unpack-tree.sh" >&2
	exit 1
fi
pkg=$(cat "$pristine/.unpacked")
case $pkg in
"$KSRC_PKG")
	pdir="$top/patches"
	owned_patch=
	;;
"$OLD_PKG")
	pdir="$top/$BACKPORT/patches"
	owned_patch="$top/$BACKPORT/readahead.c.patch"
	;;
*)
	echo "$me: $pristine holds '$pkg', neither $KSRC_PKG nor $OLD_PKG" >&2
	exit 1
	;;
esac

# --- the submitter ------------------------------------------------------
name=$(git -C "$top" config user.name || true)
email=$(git -C "$top" config user.email || true)
signoff=-s
if [ "$mode" = --apply-only ]; then
	name="make check"
	email="make-check@localhost"
	signoff=
elif [ -z "$name" ] || [ -z "$email" ]; then
	echo "$me: the patches are signed off with your git identity:" \
		"set it first (git config user.name 'Your Name';" \
		"git config user.email you@example.org)" >&2
	exit 1
fi
g() {
	git -c user.name="$name" -c user.email="$email" "$@"
}

rm -rf "$2"
mkdir -p "$2"
out=$(cd "$2" && pwd)
plan="$top/patches/plan"
git_dir="$out.git"
stage="$out.stage"
binaries="$out.binary"
: > "$binaries"

[ -f "$plan" ] || { echo "$me: $plan missing" >&2; exit 1; }
steps=$(grep -vE '^[[:space:]]*(#|$)' "$plan")
# The backport leaves out what 6.1 has nothing to build on.
if [ -n "$owned_patch" ]; then
	steps=$(echo "$steps" | grep -vxF "patch $BACKPORT_WITHOUT_PATCH" |
		sed "s# $BACKPORT_WITHOUT\( \|\$\)#\1#")
fi

find_patch() {
	if [ -f "$pdir/$1" ]; then
		echo "$pdir/$1"
	elif [ -f "$top/patches/$1" ]; then
		echo "$top/patches/$1"
	else
		echo "$me: $plan: no patch $1 in ${pdir#"$top"/}/ or patches/" >&2
		return 1
	fi
}

# The files (-p1 stripped) a patch changes.
patch_files() {
	sed -nE 's|^\+\+\+ b/(.*)|\1|p' "$1"
}

# Git's test for a binary file: a NUL byte in the first 8000.
is_binary() {
	[ "$(head -c 8000 "$1" | tr -dc '\000' | wc -c)" -gt 0 ]
}

# --- the project's whole files, as they are before the changes ----------
# The committed sources: not build outputs, not work in progress, not
# binaries.
rm -rf "$stage" "$out.final"
mkdir -p "$stage"
echo "$steps" | while read -r kind arg rest; do
	case $kind in
	patch|add) [ -z "$rest" ] || printf '%s\n' $rest ;;
	esac
done | sort -u > "$out.whole"
while IFS= read -r p; do
	(cd "$top" && git ls-files -- "$p") | while IFS= read -r f; do
		if is_binary "$top/$f"; then
			echo "$f" >> "$binaries"
			continue
		fi
		mkdir -p "$stage/$(dirname "$f")"
		cp "$top/$f" "$stage/$f"
	done
done < "$out.whole"
if [ -n "$owned_patch" ]; then
	patch -s --fuzz=0 --no-backup-if-mismatch -r - \
		"$stage/mm/readahead.c" < "$owned_patch"
	rm -f "$stage/$BACKPORT_WITHOUT"
fi
cp -r "$stage" "$out.final"
echo "$steps" | awk '$1 == "change" { print $2 }' | sed -n '1!G;h;$p' |
while read -r p; do
	file=$(find_patch "$p")
	if ! patch -s -R --fuzz=0 --no-backup-if-mismatch -r - -d "$stage" \
			-p1 < "$file" >&2; then
		echo "$me: ${file#"$top"/} does not apply in reverse to the" \
			"project's files (with the later changes taken out)" >&2
		exit 1
	fi
done

# --- a repository with the pristine files the series touches ----------
rm -rf "$git_dir"
mkdir -p "$git_dir"
# The files the patches touch, and the upstream versions of the whole
# files (mm/readahead.c): the series shows what it changes in them.
{
	echo "$steps" | while read -r kind arg rest; do
		case $kind in
		patch) patch_files "$(find_patch "$arg")" ;;
		maintainers) echo MAINTAINERS ;;
		esac
	done
	cat "$out.whole"
} | sort -u | while IFS= read -r f; do
	if [ -f "$pristine/$f" ]; then
		mkdir -p "$git_dir/$(dirname "$f")"
		cp "$pristine/$f" "$git_dir/$f"
	fi
done
cd "$git_dir"
git init -q
git add -A
g commit -q -m "Linux ${pkg#linux-source-} (Debian $pkg): pristine files"
base=$(git rev-parse HEAD)

copy_in() {
	for p in "$@"; do
		rm -rf "${p:?}"
		if [ -e "$stage/$p" ]; then
			mkdir -p "$(dirname "$p")"
			cp -r "$stage/$p" "$p"
		fi
	done
	git add -A -- "$@"
}

# Commit the index with the message of the mail-formatted @1.
commit_patch_msg() {
	info=$(git mailinfo "$out.msg" /dev/null < "$1")
	subject=$(echo "$info" | sed -n 's/^Subject: //p')
	{
		echo "$subject"
		echo
		cat "$out.msg"
	} > "$out.msg.full"
	g commit -q $signoff -F "$out.msg.full"
}

# The MAINTAINERS entry, the submitter as maintainer, in its sorted place.
maintainers_entry() {
	entry="$top/patches/maintainers.entry"
	title=$(head -n 1 "$entry")
	awk -v title="$title" -v m="M:	$name <$email>" -v entry="$entry" '
		function put(  l, n) {
			while ((getline l < entry) > 0) {
				print l
				if (++n == 1)
					print m
			}
			print ""
			done = 1
		}
		/^Maintainers List/ { list = 1 }
		list && !done && prev == "" && /^[A-Z0-9]/ && $0 > title &&
			$0 !~ /^Maintainers List/ && $0 !~ /^-/ { put() }
		{ print; prev = $0 }
	' MAINTAINERS > MAINTAINERS.new
	mv MAINTAINERS.new MAINTAINERS
}

echo "$steps" | while read -r kind arg rest; do
	case $kind in
	patch)
		file=$(find_patch "$arg")
		git apply --index "$file"
		if [ -n "$rest" ]; then
			# shellcheck disable=SC2086
			copy_in $rest
		fi
		commit_patch_msg "$file"
		;;
	change)
		file=$(find_patch "$arg")
		patch -s --fuzz=0 --no-backup-if-mismatch -r - -d "$stage" \
			-p1 < "$file"
		git apply --index "$file"
		commit_patch_msg "$file"
		;;
	add)
		# shellcheck disable=SC2086
		copy_in $rest
		g commit -q $signoff -F "$top/patches/msg/$arg"
		;;
	maintainers)
		maintainers_entry
		git add MAINTAINERS
		g commit -q $signoff -F "$top/patches/msg/$arg"
		;;
	*)
		echo "$me: $plan: unknown step '$kind'" >&2
		exit 1
		;;
	esac
done

# The series ends with the project's files, exactly.
while IFS= read -r p; do
	if ! diff -r "$out.final/$p" "$git_dir/$p" >&2; then
		echo "$me: after the series, $p is not the project's" >&2
		exit 1
	fi
done < "$out.whole"

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

# --- every patch against the one before (the base's series) -----------
figures=
if [ "$mode" != --apply-only ] && [ "$pkg" = "$KSRC_PKG" ] &&
   [ "${SERIES_FIGURES:-1}" != 0 ]; then
	figures="$out/figures.txt"
	"$scripts/series-figures.sh" "$git_dir" "$base" "$out.figures" \
		> "$figures"
	echo "$me: every patch against the one before: $figures"
fi

# --- cover letter -----------------------------------------------------
n=$(ls "$out"/*.patch | wc -l)
{
	echo "From: $name <$email>"
	echo "Subject: [PATCH 0/$n] mm/readahead: on-demand readahead for shared readers"
	echo
	cat "$top/patches/msg/cover-letter.msg"
	echo
	if [ -n "$figures" ]; then
		echo "Each patch against the one before, as make series measures"
		echo "it (the harness, and the QEMU bench's spindle jobs on the"
		echo "simulator: deterministic, so a figure that moves, moved"
		echo "because of the patch):"
		echo
		sed 's/^/    /' "$figures"
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
if [ "$mode" = --apply-only ]; then
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
	echo "$me: $n patches on $pkg apply in order with patch(1)," \
		"none binary, and end with the project's files"
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
		# Kernel patches: no finding at all, --strict, but for
		# "does MAINTAINERS need updating" (the entry comes later)
		# and, in a trace header, the two checks the TRACE_EVENT()
		# layout itself draws (as every header of include/trace/events
		# does): a line ending in '(' and arguments aligned to the
		# macro's block rather than to the parenthesis.
		ignore=FILE_PATH_CHANGES
		if grep -q '^+++ b/include/trace/events/' "$p"; then
			ignore=$ignore,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT
		fi
		CHECKPATCH_CLEAN=1 CHECKPATCH_IGNORE=$ignore \
			"$scripts/checkpatch.sh" "$pristine" "$p" || bad=1 ;;
	esac
done

# --- bisectability: build mm/ after each patch ----------------------------
if [ "$mode" = "" ]; then
	tree="$out.tree"
	objdir="$out.kobj"
	rm -rf "$tree"
	"$scripts/unpack-tree.sh" "$tree" "$pkg"
	mkdir -p "$objdir"
	objdir=$(cd "$objdir" && pwd)
	make -s -C "$tree" O="$objdir" tinyconfig >/dev/null
	checker=
	! command -v sparse >/dev/null 2>&1 || checker=C=1
	# build LOG OBJS...: the objects with W=1 (and sparse), their
	# warnings in LOG.warn, without the tree's path or line numbers,
	# which a patch above them moves.
	build() {
		log=$1
		shift
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$objdir" \
			"$objdir/.config" \
			"$top/tools/testing/readahead/kconfig/qemu.config" \
			>/dev/null 2>&1
		make -s -C "$tree" O="$objdir" olddefconfig >/dev/null
		# shellcheck disable=SC2086
		make -s -C "$tree" O="$objdir" -j2 W=1 $checker "$@" \
			> "$log" 2>&1 || return 1
		sed -n "s|$tree/||; s|:[0-9][0-9]*:[0-9][0-9]*:|:|
			/\(warning\|error\):/p" "$log" | sort -u > "$log.warn"
	}
	# What pristine mm/ already warns about (sparse's lock context
	# checks on filemap.c, for one) is the baseline: a patch may add no
	# warning to it.
	build "$objdir/pristine.log" mm/readahead.o mm/filemap.o || {
		cat "$objdir/pristine.log" >&2
		echo "$me: pristine mm/ does not build" >&2
		exit 1
	}
	for p in "$out"/0*.patch; do
		[ "$(basename "$p")" = 0000-cover-letter.patch ] && continue
		patch -s -p1 -d "$tree" < "$p"
		log="$objdir/$(basename "$p").log"
		objs="mm/readahead.o mm/filemap.o"
		[ ! -f "$tree/mm/readahead_debug.c" ] ||
			objs="$objs mm/readahead_debug.o"
		[ ! -f "$tree/mm/readahead_outcome.c" ] ||
			objs="$objs mm/readahead_outcome.o"
		# shellcheck disable=SC2086
		if ! build "$log" $objs ||
		   comm -13 "$objdir/pristine.log.warn" "$log.warn" |
				grep -q .; then
			cat "$log" >&2
			[ ! -f "$log.warn" ] ||
				comm -13 "$objdir/pristine.log.warn" "$log.warn" |
				sed 's/^/new: /' >&2
			echo "$me: $(basename "$p"): mm/ does not build" \
				"without new warnings" >&2
			exit 1
		fi
		echo "$me: $(basename "$p"): $objs build (W=1${checker:+, sparse})"
	done
fi
if [ "$bad" -ne 0 ]; then
	echo "$me: checkpatch found errors (above)" >&2
	exit 1
fi
echo "$me: $n patches and a cover letter in $out"
