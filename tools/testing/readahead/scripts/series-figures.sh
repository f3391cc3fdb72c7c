#!/bin/sh
# series-figures.sh - every patch of the series against the one before:
# what the harness sees change, and the simulated spindle bench.
#
# Usage: series-figures.sh [--harness-only] SERIES_GIT BASE_COMMIT OUTDIR
#
# SERIES_GIT is the repository make-series.sh commits the series to,
# BASE_COMMIT its pristine commit.  For pristine 6.12's mm/readahead.c
# and then every patch that changes it, the harness and the simulator
# are built with that version as ours (OURS=), and
#   - the harness runs: its passes and failures (a failure before the
#     last patch is a behaviour a later patch brings), and ours'
#     observations (tests/test.c, RA_HARNESS_OBS), compared with the
#     version before: the scenarios whose windows, pages or trace the
#     patch changes;
#   - qemu/calibrate.sh runs the QEMU bench's spindle jobs (the shared
#     jobs and their one-reader variants, mq-deadline and BFQ) on the
#     simulator, once as ext4 reads them (order-0 pages) and once as XFS
#     does (large folios): ours' disk MB/s on each, against the version
#     before; pristine 6.12's own figures are the first row's;
#   - sim/matrix.sh runs the reports' matrix (144 rows, SERIES_MATRIX_SIZE
#     files, 64m; seed 1; SERIES_MATRIX=0 skips it): the rows whose
#     ours/pristine ratio moves, and how many rows are at or above 1;
#   - cpubench/bench-cpu.sh counts ours' instructions per page (callgrind,
#     deterministic; SERIES_CPU=0 skips it): the lines that move, own
#     and all-in, against pristine 6.12's.
# The simulator is deterministic, so every figure that moves, moved
# because of the patch.  Every harness failure before the last patch
# must be a scenario a later patch changes (a behaviour that patch
# brings), and the last patch must pass them all: otherwise the script
# says which and exits 1.  --harness-only (make check) runs the harness
# and that check alone, in a minute or two.  Prints one section per patch: the scenarios
# and the figures that changed, then a summary table.  The base's file
# only: the backport's patches are the same changes.
set -eu
# join(1) and sort(1) must agree on the order.
LC_ALL=C
export LC_ALL

me=series-figures
harness_only=
if [ "${1:-}" = --harness-only ]; then
	harness_only=1
	shift
fi
if [ $# -ne 3 ]; then
	echo "usage: $0 [--harness-only] SERIES_GIT BASE_COMMIT OUTDIR" >&2
	exit 2
fi
scripts=$(cd "$(dirname "$0")" && pwd)
rt=$(cd "$scripts/.." && pwd)
top=$(cd "$rt/../../.." && pwd)
. "$scripts/config"
git_dir=$1
base=$2
rm -rf "$3"
mkdir -p "$3"
out=$(cd "$3" && pwd)
tree=$top/build/$KSRC_DIR
old_tree=$top/build/$OLD_DIR

# figures NAME FILE: harness and simulator runs of ours = FILE, in
# $out/NAME.*: .harness (TAP), .obs (observations), .sim (one
# "job/fs/sched MB/s" line per spindle run, and the pristine ones as
# "pristine job/fs/sched MB/s").
figures() {
	d=$out/$1
	mkdir -p "$d"
	make -s -C "$rt/harness" TREE="$tree" OLD_TREE="$old_tree" OUT="$d/h" \
		OURS="$2" "$d/h/ra_harness" > "$d/build.log" 2>&1 ||
		{ cat "$d/build.log" >&2; echo "$me: $1: harness build" >&2
		  exit 1; }
	RA_HARNESS_OBS="$out/$1.obs" "$d/h/ra_harness" > "$out/$1.harness" ||
		true
	# The failing tests' names, without "ours ".
	sed -n 's/^not ok [0-9]* - ours //p' "$out/$1.harness" |
		sed 's/ # .*//' > "$out/$1.failed"
	if [ -n "$harness_only" ]; then
		: > "$out/$1.sim"
		return
	fi
	make -s -C "$rt/sim" TREE="$tree" OLD_TREE="$old_tree" OUT="$d/sim" \
		OURS="$2" "$d/sim/ra_sim" >> "$d/build.log" 2>&1 ||
		{ cat "$d/build.log" >&2; echo "$me: $1: simulator build" >&2
		  exit 1; }
	: > "$out/$1.sim"
	for large in "" 1; do
		RA_CAL_LARGE=$large RA_SIM="$d/sim/ra_sim" \
			RA_CAL_DIR="$d/cal$large" \
			sh "$rt/qemu/calibrate.sh" "$rt/qemu/ab-reference.jsonl" \
			> "$d/cal$large.txt" 2>&1 || true
		awk '$1 == "#" && $2 ~ /^spin-/ {
			print ($3 == "patched" ? "" : "pristine ") $2, $4 }' \
			"$d/cal$large.txt" >> "$out/$1.sim"
	done
	rm -rf "$d/cal" "$d/cal1"
	if [ "${SERIES_MATRIX:-1}" != 0 ]; then
		OUT="$d/sim" SIZE="${SERIES_MATRIX_SIZE:-64m}" \
			sh "$rt/sim/matrix.sh" > "$d/matrix.txt" 2>&1 ||
			{ cat "$d/matrix.txt" >&2; echo "$me: $1: matrix" >&2
			  exit 1; }
		# "shape/elevator/cpus/row ratio" lines.
		awk '$1 ~ /^report/ && NF >= 7 {
			print $1 "/" $2 "/" $3 "/" $4, $7 }' "$d/matrix.txt" |
			sort > "$out/$1.matrix"
		rm -rf "$d/sim/matrix"
	fi
	if [ "${SERIES_CPU:-1}" != 0 ]; then
		OURS="$2" sh "$rt/cpubench/bench-cpu.sh" "$d/cpu" \
			> "$d/cpu.txt" 2>&1 ||
			{ cat "$d/cpu.txt" >&2; echo "$me: $1: bench-cpu" >&2
			  exit 1; }
		# "scenario/mapping excl incl" lines, ours and pristine.
		awk 'NF == 8 && $3 ~ /^[0-9.]+$/ {
			print $1 "/" $2, $3, $6 > "'"$out/$1.cpu"'"
			print $1 "/" $2, $4, $7 > "'"$out/$1.cpu-pristine"'" }' \
			"$d/cpu.txt"
		rm -rf "$d/cpu"
	fi
}

counts() { # HARNESS_TAP -> "P pass, F fail"
	awk '/^ok / && !/# SKIP/ { p++ } /^not ok / { f++ }
		END { printf "%d pass, %d fail\n", p, f }' "$1"
}

# The versions: each commit that changes the file.  Pristine 6.12's
# figures are the simulator's pristine rows (its harness and simulator
# cannot take it as ours: it has no fault entry points).
f=mm/readahead.c
names=
i=0
for c in $(git -C "$git_dir" rev-list --reverse "$base..HEAD" -- "$f"); do
	i=$((i + 1))
	n=$(printf 'p%02d' "$i")
	git -C "$git_dir" show "$c:$f" > "$out/$n.c"
	git -C "$git_dir" log -1 --format=%s "$c" > "$out/$n.subject"
	names="$names $n"
done

prev=pristine
for n in $names; do
	echo "$me: building and running $n" >&2
	figures "$n" "$out/$n.c"
	[ -f "$out/pristine.base" ] ||
		sed -n 's/^pristine //p' "$out/$n.sim" | sort > "$out/pristine.base"
	[ ! -f "$out/$n.cpu-pristine" ] || [ -f "$out/pristine.cpu" ] ||
		cp "$out/$n.cpu-pristine" "$out/pristine.cpu"
	grep -v '^pristine ' "$out/$n.sim" | sort > "$out/$n.base"
	echo
	echo "== $(cat "$out/$n.subject")"
	echo "harness: $(counts "$out/$n.harness")"
	if [ "$prev" != pristine ]; then
		# Ours' observations that changed (new and gone ones too).
		# And the tests that pass or fail where they did not: an
		# invariant of a filesystem variant ("[expand] ...") has no
		# observation of its own.
		changed=$( { sort "$out/$prev.obs" "$out/$n.obs" | uniq -u |
			cut -f1 | sed 's/: [^:]*$//'
			sort "$out/$prev.failed" "$out/$n.failed" | uniq -u
			} | sort -u)
		echo "$changed" > "$out/$n.changed"
		if [ -z "$changed" ]; then
			echo "harness scenarios changed: none"
		else
			echo "harness scenarios changed ($(echo "$changed" |
				wc -l)):"
			echo "$changed" | sed 's/^/    /'
		fi
	fi
	if [ -n "$harness_only" ]; then
		prev=$n
		continue
	fi
	against=$prev
	[ "$prev" != pristine ] || against="pristine 6.12"
	echo "spindle jobs, simulated, ours MB/s ($against -> this patch):"
	join "$out/$prev.base" "$out/$n.base" | awk '
		$2 != $3 { printf "    %-32s %6s -> %6s  %+.1f%%\n", $1, $2, $3,
			($3 / $2 - 1) * 100; moved++ }
		END { if (!moved) print "    none moved" }'
	if [ -f "$out/$n.matrix" ]; then
		if [ "$prev" = pristine ]; then
			echo "the reports' matrix, ours/pristine 6.12 (rows below 1):"
			awk '$2 < 1 { printf "    %-32s %s\n", $1, $2 }' \
				"$out/$n.matrix"
		else
			echo "the reports' matrix, ours/pristine 6.12, rows that moved:"
			join "$out/$prev.matrix" "$out/$n.matrix" | awk '
				$2 != $3 { printf "    %-32s %s -> %s\n", $1, $2,
					$3; moved++ }
				END { if (!moved) print "    none moved" }'
		fi
	fi
	if [ -f "$out/$n.cpu" ]; then
		echo "bench-cpu, ours' instructions per page, own/all-in" \
			"($against -> this patch):"
		join "$out/$prev.cpu" "$out/$n.cpu" | awk '
			$2 != $4 || $3 != $5 {
				printf "    %-26s %6s/%-6s -> %6s/%-6s  %+.1f%%/%+.1f%%\n",
				$1, $2, $3, $4, $5, ($4 / $2 - 1) * 100,
				($5 / $3 - 1) * 100; moved++ }
			END { if (!moved) print "    none moved" }'
	fi
	prev=$n
done

# Every failure at a patch is a scenario a later patch changes.
unexplained=0
later=
for n in $(echo "$names" | tr ' ' '\n' | sed -n '1!G;h;$p'); do
	while IFS= read -r t; do
		[ -n "$t" ] || continue
		if ! printf '%s\n' "$later" | grep -qF -- "$t"; then
			echo "$me: $n: '$t' fails, and no later patch" \
				"changes it" >&2
			unexplained=1
		fi
	done < "$out/$n.failed"
	[ ! -f "$out/$n.changed" ] || later="$later
$(cat "$out/$n.changed")"
done
if [ -n "$harness_only" ]; then
	for n in $names; do
		echo "$n: harness $(counts "$out/$n.harness"):" \
			"$(cat "$out/$n.subject")"
	done
	exit $unexplained
fi

# The summary: one line per version, ours' MB/s over the shared jobs
# under BFQ (where the series aims), order-0 and large folios.
echo
echo "summary: harness; simulated spindle MB/s of the shared jobs under BFQ;"
echo "matrix rows at or above pristine 6.12, and the lowest ratio; bench-cpu"
echo "lines at or below pristine 6.12, own and all-in instructions"
printf '%-5s %-16s %8s %8s %7s %6s %5s  %s\n' "" harness ext4 xfs ">=1.00" lowest \
	cpu patch
for n in pristine $names; do
	s=$(awk '$1 !~ /solo/ && $1 ~ /\/bfq$/ {
			split($1, p, "/"); sum[p[2]] += $2 }
		END { printf "%8.1f %8.1f", sum["ext4"], sum["xfs"] }' \
		"$out/$n.base")
	subj="pristine 6.12"
	h=-
	if [ "$n" != pristine ]; then
		subj=$(cat "$out/$n.subject")
		h=$(counts "$out/$n.harness" | sed 's/ pass, /p /; s/ fail/f/')
	fi
	m="      -      -"
	if [ "$n" != pristine ] && [ -f "$out/$n.matrix" ]; then
		m=$(awk '{ n++; if ($2 >= 1) ok++; if (lo == "" || $2 < lo)
			lo = $2 } END { printf "%3d/%-3d %6s", ok, n, lo }' \
			"$out/$n.matrix")
	fi
	cpu=-
	if [ "$n" != pristine ] && [ -f "$out/$n.cpu" ]; then
		cpu=$(join "$out/pristine.cpu" "$out/$n.cpu" | awk '
			{ n++; if ($4 <= $2 && $5 <= $3) ok++ }
			END { printf "%d/%d", ok, n }')
	fi
	printf '%-5s %-16s %s %s %5s  %s\n' "$n" "$h" "$s" "$m" "$cpu" "$subj"
done
exit $unexplained
