# SPDX-License-Identifier: GPL-2.0
#
# input.sh - the simulator's tests: errors in job and machine files, numbers out of range.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

# ---- errors in job and machine files: exact message, nothing runs ----
experr unknown "${J}foo=1\n" "FILE:4: unknown option 'foo'"
experr malformed "[j]\n=5\n" "FILE:2: malformed line"
experr badvalue "[j]\nrw=write\n" "FILE:2: bad value 'write' for option 'rw'"
experr badsize "[global]\nbs=4q\n" "FILE:2: bad value '4q' for option 'bs'"
experr outside "bs=4k\n" "FILE:1: option outside a section"
experr header "[j\n" "FILE:1: malformed section header"
experr undefined "[j]\nsize=\${NOPE}\n" "FILE:2: undefined variable \${NOPE}"
experr nofile "[j]\nsize=1m\n" "FILE:1: job 'j': no filename"
experr nosize "[a]\nfilename=/mnt/sda1/f\n[b]\n" "FILE:1: job 'a': no size"
experr nopart "[j]\nfilename=/data/x\nsize=1m\n" \
	"FILE:2: filename /data/x: no partition is mounted there"
experr nojobs "[global]\nbs=4k\n" "FILE: no jobs"

diskerr dunknown "[disk sda]\nspeed=5\n" "FILE:2: unknown option 'speed'"
diskerr dname "[disk sda..sd]\n" "FILE:1: bad disk name 'sda..sd'"
diskerr dvalue "[disk sda]\nelevator=as\n" \
	"FILE:2: bad value 'as' for option 'elevator' (allowed: noop, sort, cfq, mq-deadline, bfq)"
diskerr dtunable "[disk sda]\nslice_idle=8\nelevator=cfq\n" \
	"FILE:2: unknown option 'slice_idle' for elevator=sort (set elevator= before its tunables; sort's: none)"
diskerr dtunable2 "[disk sda]\nelevator=mq-deadline\nslice_idle=8\n" \
	"FILE:3: unknown option 'slice_idle' for elevator=mq-deadline (set elevator= before its tunables; mq-deadline's: read_expire fifo_batch front_merges)"
diskerr dtunrange "[disk sda]\nelevator=cfq\nslice_idle=1001\n" \
	"FILE:3: bad value '1001' for option 'slice_idle' (allowed: 0 to 1000)"
diskerr dcpus "[system]\ncpus=4097\n" \
	"FILE:2: bad value '4097' for option 'cpus' (allowed: 0 to 4096)"
diskerr dsection "[controller]\n" "FILE:1: unknown section 'controller'"
diskerr dqdepth0 "[disk sda]\nqueue_depth=0\n" \
	"FILE:2: bad value '0' for option 'queue_depth' (allowed: 1 to 4096)"
diskerr dqdepth "[disk sda]\nqueue_depth=4097\n" \
	"FILE:2: bad value '4097' for option 'queue_depth' (allowed: 1 to 4096)"
diskerr dnrreq "[disk sda]\nnr_requests=65537\n" \
	"FILE:2: bad value '65537' for option 'nr_requests' (allowed: 0 to 65536)"
diskerr dhwq "[disk sda]\nhw_queues=65\n" \
	"FILE:2: bad value '65' for option 'hw_queues' (allowed: 0 to 64)"
diskerr dnrreqneg "[disk sda]\nnr_requests=-1\n" \
	"FILE:2: bad value '-1' for option 'nr_requests'"
diskerr dfiomain "[system]\nfio_main_ms=60001\n" \
	"FILE:2: bad value '60001' for option 'fio_main_ms' (allowed: 0 to 60000)"
diskerr dfiofork "[system]\nfio_fork_us=2e6\n" \
	"FILE:2: bad value '2e6' for option 'fio_fork_us' (allowed: 0 to 1000000)"

# ---- numbers out of range: every one has a range, and the error names it.
# Before, the first two hung (the saturated or near-2^64 size wrapped the
# sector count to 0), offset=2^64-1 ran and printed bw=-nanMiB/s, and
# syscall_us=1e300 and a thinktime in seconds that wraps were taken. ----
R='(allowed: 1 to 64t)'
experr hugesize "[j]\nfilename=/mnt/sda1/f\nsize=99999999999999999999999\n" \
	"FILE:3: bad value '99999999999999999999999' for option 'size' $R"
experr wrapsize "[j]\nfilename=/mnt/sda1/f\nsize=18446744073709551105\n" \
	"FILE:3: bad value '18446744073709551105' for option 'size' $R"
experr bigsize "${J}size=65t\n" "FILE:4: bad value '65t' for option 'size' $R"
experr hugeoffset "${J}offset=18446744073709551615\n" \
	"FILE:4: bad value '18446744073709551615' for option 'offset' (allowed: 0 to 64t)"
experr pastdisk "[j]\nfilename=/mnt/sda1/f\noffset=64t\nsize=1m\n" \
	"FILE:1: job 'j': offset+size 70368744177664+1048576 is past the end of sda1 (allowed: up to 322121498624 bytes)"
experr hugebs "${J}bs=2g\n" "FILE:4: bad value '2g' for option 'bs' (allowed: 512 to 1g)"
experr oddbs "${J}bs=1000\n" "FILE:4: bad value '1000' for option 'bs' (allowed: a multiple of 512)"
experr hugenumjobs "${J}numjobs=99999999999999999999\n" \
	"FILE:4: bad value '99999999999999999999' for option 'numjobs' (allowed: 1 to 4096)"
experr wrapthink "${J}thinktime=18446744073710s\n" \
	"FILE:4: bad value '18446744073710s' for option 'thinktime' (allowed: 0 to 3600s)"
experr hugecached "${J}pre_cached=17000000000000000000\n" \
	"FILE:4: bad value '17000000000000000000' for option 'pre_cached' (allowed: 0 to 64t)"
diskerr dsyscall "[system]\nsyscall_us=1e300\n[disk sda]\n" \
	"FILE:2: bad value '1e300' for option 'syscall_us' (allowed: 0 to 1000000)"
diskerr dinf "[system]\nfault_us=1e400\n[disk sda]\n" \
	"FILE:2: bad value '1e400' for option 'fault_us' (allowed: 0 to 1000000)"
diskerr dmemory "[system]\nmemory=1t\n[disk sda]\n" \
	"FILE:2: bad value '1t' for option 'memory' (allowed: 1m to 256g)"
diskerr dseed "[system]\nseed=99999999999999999999\n[disk sda]\n" \
	"FILE:2: bad value '99999999999999999999' for option 'seed' (allowed: 0 to 18446744073709551615)"
diskerr dseek "[disk sda]\nseek_ms=1e300\n" \
	"FILE:2: bad value '1e300' for option 'seek_ms' (allowed: 0 to 1000)"
diskerr drpm "[disk sda]\nrpm=99999999999999999999999\n" \
	"FILE:2: bad value '99999999999999999999999' for option 'rpm' (allowed: 1000 to 30000)"
diskerr dcapacity "[disk sda]\ncapacity=65t\n" \
	"FILE:2: bad value '65t' for option 'capacity' (allowed: 1m to 64t)"
diskerr dfailbig "[disk sda]\nfail_sectors=0-18446744073709551615\n" \
	"FILE:2: bad value '0-18446744073709551615' for option 'fail_sectors' (allowed: sectors 0 to 137438953471)"
