# tap.sh - TAP output for the bench's shell test suites, as kselftest
# prints it.  Sourced, not run:
#
#	. "$(dirname "$0")/../scripts/tap.sh"
#	tap_begin
#	tap_check "NAME" COMMAND...	ok when COMMAND succeeds
#	tap_result STATUS "NAME"	ok when STATUS is 0
#	tap_ok "NAME" / tap_not_ok "NAME" / tap_skip "NAME" "REASON"
#	tap_diag "TEXT"		a "# TEXT" line
#	tap_end			the plan and totals; returns 1 on a failure
#
# prints
#
#	TAP version 13
#	ok 1 - NAME
#	not ok 2 - NAME
#	ok 3 - NAME # SKIP REASON
#	1..3
#	# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0
#
# A skip is a check that cannot run here (a missing tool or interface);
# it counts neither as passed nor as failed.  The plan comes last, so a
# suite that dies half-way has none: tap_tally reads that as a failure.
# Names must not start with a digit or contain '#'.
# shellcheck shell=sh

# The header; (re)starts the counts.
tap_begin() {
	tap_n=0 tap_passed=0 tap_failed=0 tap_skipped=0
	echo "TAP version 13"
}

# One more test, and one more in the count named $1.
_tap_count() {
	tap_n=$((tap_n + 1))
	eval "$1=\$(($1 + 1))"
}

tap_ok() { _tap_count tap_passed; echo "ok $tap_n - $*"; }
tap_not_ok() { _tap_count tap_failed; echo "not ok $tap_n - $*"; }
# tap_skip NAME REASON
tap_skip() { _tap_count tap_skipped; echo "ok $tap_n - $1 # SKIP $2"; }

# tap_result STATUS NAME...: ok when STATUS is 0.
tap_result() {
	_tap_status=$1
	shift
	if [ "$_tap_status" -eq 0 ]; then
		tap_ok "$@"
	else
		tap_not_ok "$@"
	fi
}

# tap_check NAME COMMAND...: ok when COMMAND succeeds.
tap_check() {
	_tap_name=$1
	shift
	if "$@"; then
		tap_ok "$_tap_name"
	else
		tap_not_ok "$_tap_name"
	fi
}

tap_diag() {
	echo "# $*"
}

# Indent a file (or stdin) as TAP diagnostics.
tap_diag_file() {
	sed 's/^/# /' "$@"
}

tap_end() {
	echo "1..$tap_n"
	echo "# Totals: pass:$tap_passed fail:$tap_failed xfail:0 xpass:0" \
		"skip:$tap_skipped error:0"
	[ "$tap_failed" -eq 0 ]
}

# tap_tally LOG: the counts of a suite's TAP output in tally_passed,
# tally_failed and tally_skipped.  A suite without its plan, or whose
# plan does not match its results, did not finish: one more failure, and
# status 1.
tap_tally() {
	eval "$(awk '
		/^ok [0-9]+ / {
			n++
			if ($0 ~ /# SKIP/) s++; else p++
			next
		}
		/^not ok [0-9]+ / { n++; f++; next }
		/^1\.\.[0-9]+$/ { plan = substr($0, 4); planned = 1 }
		END {
			if (!planned || plan + 0 != n + 0) { f++; bad = 1 }
			printf "tally_passed=%d tally_failed=%d tally_skipped=%d tally_bad=%d\n",
				p, f, s, bad
		}' "$1")"
	[ "$tally_bad" -eq 0 ]
}
