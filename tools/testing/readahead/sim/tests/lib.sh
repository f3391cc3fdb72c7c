# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - what the simulator's test areas share: the builds (OUT: ra_sim,
# ra_sim_asan), the scenarios (SC), a scratch directory (TMP, removed at
# exit), TAP (scripts/tap.sh), and run and field.  Sourced by run.sh,
# which sets HERE (sim/) first.
OUT=${OUT:-$HERE/../../../../build/sim}
# Absolute: the Makefile's default is relative to sim/, and the matrix
# tests link $SIM from another directory.
OUT=$(cd "$OUT" && pwd)
SIM=$OUT/ra_sim
ASAN=$OUT/ra_sim_asan
SC=$HERE/scenarios
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$HERE/../scripts/tap.sh"

ok() { tap_ok "$1"; }
fail() { tap_not_ok "$1"; }
check() { tap_check "$@"; }

# run NAME MACHINE JOBS DEFINES... : both implementations into $TMP/NAME
run() {
	name=$1 machine=$2 jobs=$3
	shift 3
	defs=
	for d in "$@"; do defs="$defs --define $d"; done
	# shellcheck disable=SC2086
	"$SIM" $defs "$SC/$machine" "$SC/$jobs" > "$TMP/$name.out" \
		2> "$TMP/$name.err"
}

field() { # file impl key: a summary field
	grep "^summary: impl=$2 " "$1" | tr ' ' '\n' | sed -n "s/^$3=//p"
}

jfield() { # file impl key: a member of that impl's record (ra_sim --json)
	awk -v impl="$2" -v key="$3" "$(cat "$HERE/../scripts/json.awk")"'
		{ jparse($0, r); if (r["impl"] == impl) print r[key] }' "$1"
}

# The dump of a blktrace file, a record a line (tests/blkt_dump.c).
DUMP=$OUT/blkt_dump

sect() { # file impl: that implementation's report
	awk -v i="$2" '/^ra_sim: impl=/ { on = ($2 == "impl=" i) } on' "$1"
}

# Job and machine files that must be refused: the exact error, nothing
# run.  J is a valid job to append a bad option to.
printf '[system]\nmemory=64m\n[disk sda]\n' > "$TMP/m.disks"
printf '[j]\nfilename=/mnt/sda1/f\nsize=1m\n' > "$TMP/ok.fio"
J='[j]\nfilename=/mnt/sda1/f\nsize=1m\n'
# refused KIND EXT NAME TEXT WANT: TEXT as the job file (EXT fio, run on
# m.disks) or the machine file (EXT disks, run with ok.fio) is refused
# with WANT (FILE for its path) on stderr, exit 1, nothing on stdout.
refused() {
	printf "$4" > "$TMP/$3.$2"
	want=$(printf '%s' "$5" | sed "s|FILE|$TMP/$3.$2|")
	if [ "$2" = fio ]; then
		set -- "$1" "$3" "$TMP/m.disks" "$TMP/$3.fio"
	else
		set -- "$1" "$3" "$TMP/$3.disks" "$TMP/ok.fio"
	fi
	timeout 10 "$SIM" "$3" "$4" > "$TMP/$2.o" 2> "$TMP/$2.e"
	rc=$?
	got=$(cat "$TMP/$2.e")
	if [ $rc = 1 ] && [ ! -s "$TMP/$2.o" ] && [ "$got" = "$want" ]; then
		ok "$1 file error: $2"
	else
		fail "$1 file error: $2 (rc=$rc, got '$got', want '$want')"
	fi
}
experr() { refused job fio "$@"; }	# name, job file text, stderr
diskerr() { refused machine disks "$@"; }	# name, machine text, stderr
