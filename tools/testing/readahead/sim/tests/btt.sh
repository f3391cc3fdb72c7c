# SPDX-License-Identifier: GPL-2.0
#
# btt.sh - the simulator's tests: blkparse and btt read its blktrace
# files, when installed (else "# SKIP").  Reads blktrace.sh's sdb run:
# run it after blktrace.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

btfield() { # report disk key
	grep "^  blktrace $2: " "$1" | head -1 | tr ' ' '\n' | sed -n "s/^$3=//p"
}
if command -v blkparse > /dev/null && command -v btt > /dev/null; then
	# One reader, 4 MB, no split, no merge: btt's per-bio figures are
	# the requests' own.
	printf '[system]\nmemory=64m\nseed=1\n\n[disk sda]\npartitions=1\nelevator=noop\n' > "$TMP/bt2.disks"
	printf '[global]\nrw=read\nbs=4k\nsize=4m\nioengine=psync\n\n[a]\nfilename=/mnt/sda1/a\n' > "$TMP/bt2.fio"
	"$SIM" --impl ours --blktrace "$TMP/bt2" "$TMP/bt2.disks" \
		"$TMP/bt2.fio" > "$TMP/bt2.out"
	blkparse -q -i sda -D "$TMP/bt2/ours" -d "$TMP/bt2.bin" -O > /dev/null 2>&1
	# btt writes its .dat files where it runs
	(cd "$TMP" && btt -i bt2.bin > btt2.out 2>&1)
	r=$TMP/bt2.out
	check "blktrace: btt reads it: D2C and Q2C means and counts equal the simulator's (20 requests)" \
		sh -c "test \"\$(awk '\$1 == \"D2C\" || \$1 == \"Q2C\" { print \$1, \$3, \$5 }' $TMP/btt2.out | tr '\n' ' ')\" = \
		       'D2C $(btfield "$r" sda d2c_avg) $(btfield "$r" sda requests) Q2C $(btfield "$r" sda q2c_avg) $(btfield "$r" sda requests) ' && \
		       test $(btfield "$r" sda requests) = $(field "$r" ours reqs_per_disk)"
	check "blktrace: btt's requests and mean request size equal the simulator's (20 of 409 sectors, req_kb=204.8)" \
		sh -c "test \"\$(grep -A4 'Device Merge Information' $TMP/btt2.out | \
			 awk -F'|' 'NR == 5 { split(\$2, q, \" \"); split(\$3, b, \" \"); print q[2], b[2] }')\" = \
		       '$(btfield "$r" sda requests) $(btfield "$r" sda blk_avg)' && \
		       test '$(field "$r" ours req_kb)' = 204.8"
	blkparse -i sdb -D "$TMP/bt/ours" > "$TMP/bp.sdb" 2>&1
	check "blktrace: blkparse reads sdb: 3 dispatches and completions, 2 merges, 5 queued, no skips" \
		sh -c "grep -q '^ Read Dispatches: *$(btfield "$TMP/bt.out" sdb requests),' $TMP/bp.sdb && \
		       grep -q '^ Reads Completed: *3,' $TMP/bp.sdb && \
		       grep -q '^ Read Merges: *$(btfield "$TMP/bt.out" sdb merges),' $TMP/bp.sdb && \
		       grep -q '^ Reads Queued: *5,' $TMP/bp.sdb && \
		       grep -q '^Skips: 0 forward' $TMP/bp.sdb"
else
	tap_skip "blktrace: blkparse and btt read the files" \
		"blktrace not installed (scripts/deps.sh blktrace)"
fi
