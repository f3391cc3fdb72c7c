#!/bin/sh
# stock.sh - ra-record and ra_analyze on a booted kernel, checked against
# the patched kernel's own decisions.
#
# Usage: stock.sh [-r ROUNDS] [-l "D F MB"] [FLAVOUR...]
#   -r  fio runs per kernel without and with recording (default 1, 1 to 9)
#   -l  data disks, as make-disks.sh D F MB (default "2 2 16")
#   FLAVOUR  pristine, patched (default: both)
# Environment: RA_BPS / RA_IOPS (throttles, as reliability-guest.sh).
#
# Owns the stock trace's check.  Each kernel boots the "rel" initramfs and
# runs stock-guest.sh: fio's 4 KB read(2) readers, two per data file,
# ROUNDS times plain and ROUNDS times under ra-record, each after dropping
# the caches: on pristine 6.12 through trace-cmd (what a user of a
# distribution kernel runs), on the patched kernel through tracefs, so
# that both of ra-record's ways are checked.  On the host, ra_analyze reads the last
# trace: the stock view (the trace without the patched kernel's
# readahead_decision events) must show every page of every data file
# read once and used, nothing evicted unused; on the patched kernel the
# trace holds both, and the windows inferred from the stock events must
# match its decisions (stock_agreement: at least 99% within one page,
# every told trigger the decision's), and its own outcome of every window
# (readahead_outcome) the one inferred (outcome_agreement's verdict).  Prints the recording's cost: fio's
# median MB/s under ra-record against without, per kernel.  TAP
# (scripts/tap.sh); results in build/qemu/stock/FLAVOUR.
set -u
QDIR=$(cd "$(dirname "$0")/.." && pwd)
. "$QDIR/common.sh"

rounds=1 layout="2 2 16"
usage="usage: $0 [-r ROUNDS] [-l 'D F MB'] [FLAVOUR...]"
while getopts r:l: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	l) layout=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
case $rounds in
[1-9]) ;;
*) die "bad round count '$rounds' (allowed: 1 to 9)" ;;
esac
# shellcheck disable=SC2086 # D F MB
set -- $layout -- "$@"
nd=$1 nf=$2 mb=$3
shift 3
[ "${1:-}" = -- ] || die "bad layout '$layout' (allowed: 'D F MB')"
shift
[ $# -gt 0 ] || set -- pristine patched
for f in "$@"; do
	case $f in
	pristine | patched) ;;
	*) die "bad flavour '$f' (allowed: pristine, patched)" ;;
	esac
done

RT=$TOP/tools/testing/readahead
ana_dir=$BUILD/analyzer
make -s -C "$RT/analyzer" OUT="$ana_dir" >/dev/null ||
	die "cannot build ra_analyze"
ana=$ana_dir/ra_analyze
work=$QB/stock
mkdir -p "$work"
tap_begin
start=$(date +%s)
pages=$((mb * 256))
echo "# $nd disks x $nf files x $mb MB, fio 4 KB read(2), 2 readers a file, $rounds round(s) plain and recorded"

# median FILE: the median of the numbers in FILE, one a line.
median() {
	awk "$(cat "$SCRIPTS/median.awk")"'{ v[NR] = $1 }
		END { if (NR) print median(v, NR) }' "$1"
}

# data_rows OUT: the outcomes_per_file rows of the data disks' files.
data_rows() {
	awk -v devs="$(cat "$res/devs")" '
		BEGIN { n = split(devs, d, " "); for (i = 1; i <= n; i++) want[d[i]] = 1 }
		/^# / { on = ($0 == "# outcomes_per_file") ; next }
		on && ($1 in want)' "$1"
}

for flavour in "$@"; do
	blog=$work/build-$flavour.log
	if ! "$QDIR/build-kernel.sh" "$flavour" > "$blog" 2>&1; then
		tail -n 20 "$blog" | tap_diag_file
		tap_not_ok "$flavour: kernel builds (log: $blog)"
		continue
	fi
	kernel=$(tail -n 1 "$blog")
	out=$work/$flavour
	res=$out/results
	recorder=tracefs
	[ "$flavour" != pristine ] || recorder=trace-cmd
	if "$RDIR/reliability-guest.sh" -s 1200 -i rel -l "$layout" \
			-c "$RT/analyzer/ra-record" -e "ROUNDS=$rounds" \
			-e "RECORDER=$recorder" \
			"$kernel" "$RDIR/stock-guest.sh" "$out" > "$out.log" 2>&1; then
		tap_ok "$flavour: the guest ran fio plain and under ra-record ($(cat "$out/wall-seconds")s)"
	else
		sed 's/^/#   /' "$out.log"
		tap_not_ok "$flavour: the guest ran fio plain and under ra-record (console: $out/console.log)"
		continue
	fi
	if [ -s "$res/failures" ]; then
		sed 's/^/#   /' "$res/failures"
		tap_not_ok "$flavour: fio and ra-record ran without failure"
	else
		tap_ok "$flavour: fio and ra-record ran without failure"
	fi
	sed "s/^/# $flavour: /" "$res/record.log"
	# The data disks' devices as the analyzer prints them (hex).
	while read -r d v; do
		case $d in d[0-9]*) ;; *) continue ;; esac
		IFS=: read -r ma mi < "$res/dev.$v"
		printf '%02x:%02x ' "$ma" "$mi"
	done < "$res/disks" > "$res/devs"

	# The stock view: the trace as a stock kernel would have it.
	grep -v 'readahead_decision:\|readahead_defer:\|readahead_outcome:' \
		"$res/trace.txt" \
		> "$out/stock.txt"
	"$ana" "$out/stock.txt" > "$out/stock.out" 2> "$out/stock.err"
	tap_check "$flavour: ra_analyze read the stock trace, no line skipped ($(tail -n 1 "$out/stock.out"))" \
		grep -q ' 0 skipped' "$out/stock.out"
	data_rows "$out/stock.out" > "$out/stock.rows"
	sed "s/^/# $flavour: /" "$out/stock.rows"
	# dev ino windows stalls pages used evicted cached twice used/read
	nfiles=$(wc -l < "$out/stock.rows")
	good=$(awk -v p="$pages" '$5 == p && $6 == p && $7 == 0 && $9 == 0' \
		"$out/stock.rows" | wc -l)
	tap_check "$flavour: every data file's $pages pages read once and used ($good of $nfiles files; $((nd * nf)) expected)" \
		test "$good" -eq "$nfiles" -a "$nfiles" -eq $((nd * nf))

	if [ "$flavour" = patched ]; then
		"$ana" "$res/trace.txt" > "$out/both.out" 2> "$out/both.err"
		awk '/^# stock_agreement/,/^windows /' "$out/both.out" |
			sed "s/^/# $flavour: /"
		# all DECISIONS AGREED PCT TRIGGERS AGREED
		# shellcheck disable=SC2046 # five numbers
		set -- $(awk '/^# stock_agreement/ { on = 1 }
			on && $1 == "all" { print $2, $3, $4, $5, $6; exit }' \
			"$out/both.out")
		tap_check "$flavour: windows inferred from stock events match the decisions (${3:-?}% of ${1:-0} within one page; bound 99%)" \
			awk -v p="${3:-0}" -v n="${1:-0}" 'BEGIN { exit !(n > 0 && p >= 99) }'
		tap_check "$flavour: every trigger told agrees with the decision (${5:-?} of ${4:-?})" \
			test "${4:-0}" -gt 0 -a "${4:-0}" = "${5:-x}"
		# The kernel's own outcome of each window against the one
		# inferred from the stock events.
		awk '/^# outcome_agreement/,/^verdict/' "$out/both.out" |
			sed "s/^/# $flavour: /"
		tap_check "$flavour: the kernel's window outcomes and the stock events' agree ($(awk '$1 == "verdict" { print $2 }' "$out/both.out"))" \
			grep -qE '^verdict +agree$' "$out/both.out"
	fi

	plain=$(median "$res/plain")
	rec=$(median "$res/recorded")
	echo "# $flavour: fio MB/s plain $(tr '\n' ' ' < "$res/plain")(median $plain), under ra-record $(tr '\n' ' ' < "$res/recorded")(median $rec): cost $(awk -v a="$plain" -v b="$rec" 'BEGIN { printf "%.1f", (a > 0 ? 100 * (1 - b / a) : 0) }')%"
	splat_check "$flavour: no splat in the kernel log" \
		"$out/console.log" "$res/dmesg.txt"
done

echo "# stock took $(($(date +%s) - start))s; results in $work"
tap_end
