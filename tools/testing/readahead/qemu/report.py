#!/usr/bin/env python3
"""report.py - turn bench run directories into figures and A/B tables.

Usage: report.py run RUNDIR            one run, human readable
       report.py ab RUNDIR...          A/B tables, one per job and
                                       variant, then the shared/solo
                                       pairs and the summary with the
                                       targets' verdicts
       report.py ab --json FILE RUNDIR...
                                       the same, and the tables as
                                       records in FILE (JSON lines): a
                                       "kernel" record a table and
                                       kernel, a "judged" record a
                                       summary line

Owns the arithmetic of the QEMU bench: a RUNDIR is what run-guest.sh
leaves (host-info, results/ from the guest, bt/ parsed from the
guest's blktrace).  Disk-side figures come from /sys/block/*/stat
before and after the job (field 1: read requests completed, field 3:
sectors read), as MB/s and as fractions of the disks' limit (bytes/s
summed over the disks that were read: the bps throttle, or the spindle
model's streaming rate rate_mbps; requests/s of the busiest disk
against the IOPS throttle), the elapsed time from /proc/uptime around
the fio run, major faults from the /proc/vmstat pgmajfault delta, the
guest's CPU time from /proc/stat (user, nice, system, irq, softirq,
steal of all CPUs, in USER_HZ = 100 ticks) per GB that fio read, and
how busy the vCPUs were; the first data disk's block queue limits
(guest-info: max_sectors_kb, read_ahead_kb, hardware queues, driver tags
per queue, nr_requests per queue).  From blktrace (bt/dK.txt, blkparse's events;
bt/dK.btt, btt's table): the mean Q2C and D2C latencies of the busiest
disk (btt), and over all data disks the read requests issued (D),
their mean size, seeks per MB (an issued read not starting where the
previous one on its disk ended) and pages read twice (sectors a
completed read (C) brings in that an earlier one already had, in 4 KB
pages).
fio's own bandwidth (sum of read io_bytes over the same time) is printed
beside the disk-side one: readers of one file get pages from each other's
cache, so only the disk side can be compared with the throttled limit.
The kernel flavour of a run is the name of its kernel's object
directory (build/kbuild-FLAVOUR).

Readers sharing a file: a job whose file says "# solo-of:
JOB" (jobs/spindle/solo/) is JOB with one reader per file; its tables
pair with JOB's of the same file system, scheduler, disks and vCPUs,
once the two job files (ctl/job.fio of the runs) are found to differ
only in numjobs and comments.  Both read the same files once each from
the same disks, so the shared job's distinct disk-side MB/s (disk bytes
less the pages blktrace saw read twice, over the fio run) over the solo
job's is the disk-side throughput of N readers of a file against what
one reader of that file gets on the same disk, scheduler and CPUs.
The summary judges every table by the QEMU targets:
patched/pristine disk MB/s (medians) >= 1.00, >= 1.10 where pristine's
shared/solo is below 0.90.  A job of random reads (rw=rand...) is
judged by fio's MB/s instead: readahead that reads less there lowers
the disk's MB/s and is what it should do; the job's time is what counts.
"""
import json
import os
import re
import statistics
import sys


def kv_file(path):
    out = {}
    with open(path) as f:
        for line in f:
            parts = line.split(None, 1)
            if len(parts) == 2:
                out[parts[0]] = parts[1].strip()
    return out


def read_blkstat(path):
    disks = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            disks[p[0]] = (p[1], [int(x) for x in p[2:]])
    return disks


def vmstat(path):
    with open(path) as f:
        return {k: int(v) for k, v in (line.split() for line in f)}


class Run:
    def __init__(self, d):
        self.dir = d
        self.host = kv_file(os.path.join(d, 'host-info'))
        r = os.path.join(d, 'results')
        self.job = os.path.basename(self.host['job']).rsplit('.', 1)[0]
        m = re.search(r'kbuild-([^/]+)', self.host['kernel'])
        self.flavour = m.group(1) if m else self.host['kernel']
        self.layout = self.host['layout']
        self.disktype = self.host.get('disks', 'throttled')
        self.cpus = int(self.host.get('cpus', '1'))
        self.fs = self.host.get('fs', 'ext4')
        self.sched = self.host.get('sched', 'default')
        self.iosched = self.host.get('iosched', '')
        if self.disktype == 'spindle':
            self.spindle = dict(kv.split('=', 1)
                                for kv in self.host['spindle'].split())
            self.bps = float(self.spindle['rate_mbps']) * 1e6
            self.iops = 0
        else:
            self.spindle = None
            self.bps = int(self.host['bps'])
            self.iops = int(self.host['iops'])
        self.ra_kb = self.host.get('read_ahead_kb', 'default')
        # The job file as the guest ran it (ctl/job.fio), else the one
        # host-info names: its "# solo-of: JOB" header pairs a one-reader
        # job with its shared job (solo_pairs).
        self.jobtext = ''
        for jp in (os.path.join(d, 'ctl', 'job.fio'), self.host['job']):
            try:
                with open(jp) as f:
                    self.jobtext = f.read()
                break
            except OSError:
                pass
        m = re.search(r'^# solo-of:[ \t]*(\S+)', self.jobtext, re.M)
        self.solo_of = m.group(1) if m else None
        # The first data disk's block queue limits (guest-info), as
        # calibrate.sh gives them to the simulator.
        self.queue = {}
        try:
            info = open(os.path.join(r, 'guest-info')).read()
            m = re.search(r'^read_ahead_kb \S+ \S+ (\d+)', info, re.M)
            if m:
                self.ra_kb = m.group(1)
            for key in QUEUE_KEYS:
                m = re.search(r'^%s d0 \S+ (\d+)$' % key, info, re.M)
                if m:
                    self.queue[key] = m.group(1)
        except OSError:
            pass
        self.cpu_mode = self.host.get('cpu_mode', 'wall')
        t0 = float(open(os.path.join(r, 'uptime.before')).read())
        t1 = float(open(os.path.join(r, 'uptime.after')).read())
        # The fio run's time on the guest's clock, and on the host's
        # when the guest marked it (host-marks: icount runs, whose guest
        # clock counts instructions while a vCPU runs; README, "CPU
        # time: icount").  Rates are per host second when there is one.
        self.guest_secs = max(t1 - t0, 0.01)
        self.host_secs = host_marks(os.path.join(d, 'host-marks'))
        self.secs = self.host_secs or self.guest_secs
        if self.cpu_mode != 'wall' and not self.host_secs:
            raise ValueError('%s: a %s run without host-marks: its MB/s'
                             ' would be on the guest clock' %
                             (d, self.cpu_mode))
        b0 = read_blkstat(os.path.join(r, 'blkstat.before'))
        b1 = read_blkstat(os.path.join(r, 'blkstat.after'))
        self.disks = {}
        for name, (dev, s1) in sorted(b1.items()):
            s0 = b0[name][1]
            reqs = s1[0] - s0[0]
            nbytes = (s1[2] - s0[2]) * 512
            self.disks[name] = {'dev': dev, 'reqs': reqs, 'bytes': nbytes}
        self.disk_bytes = sum(x['bytes'] for x in self.disks.values())
        self.active = sum(1 for x in self.disks.values() if x['bytes'])
        self.disk_mbs = self.disk_bytes / self.secs / 1e6
        limit = self.active * self.bps / 1e6
        self.frac = self.disk_mbs / limit if limit else 0.0
        # The busiest disk's request rate against the IOPS throttle: near
        # 100% means the run was bound by the per-request cost.
        self.iops_frac = max([x['reqs'] / self.secs / self.iops
                              for x in self.disks.values()
                              if self.iops] or [0.0])
        v0 = vmstat(os.path.join(r, 'vmstat.before'))
        v1 = vmstat(os.path.join(r, 'vmstat.after'))
        self.majflt = v1.get('pgmajfault', 0) - v0.get('pgmajfault', 0)
        self.fio_bytes = 0
        try:
            with open(os.path.join(r, 'fio.json')) as f:
                text = f.read()
            # fio may print notes before the JSON object.
            data = json.loads(text[text.index('{'):])
            for j in data.get('jobs', []):
                self.fio_bytes += j['read']['io_bytes']
        except (OSError, ValueError, KeyError):
            pass
        self.fio_mbs = self.fio_bytes / self.secs / 1e6
        self.cpu_s = self.cpu_frac = None
        c0 = os.path.join(r, 'cpustat.before')
        if os.path.exists(c0):
            a = cpustat(c0)
            b = cpustat(os.path.join(r, 'cpustat.after'))
            # user nice system idle iowait irq softirq steal
            t = [y - x for x, y in zip(a, b)]
            busy = sum(t[:3]) + sum(t[5:8])
            self.cpu_s = busy / 100.0
            self.cpu_frac = busy / float(sum(t[:8]) or 1)
        self.cpu_per_gb = (self.cpu_s / (self.fio_bytes / 1e9)
                           if self.cpu_s is not None and self.fio_bytes
                           else None)
        # fio's own CPU time: the guest shell's reaped children around
        # the fio run (selfstat: cutime + cstime), each child's exact run
        # time; without the kernel's threads, blktrace, and interrupts
        # taken while the CPU idled.
        self.fio_cpu_s = self.fio_cpu_per_gb = None
        try:
            a = child_ticks(os.path.join(r, 'selfstat.before'))
            b = child_ticks(os.path.join(r, 'selfstat.after'))
            self.fio_cpu_s = (b - a) / 100.0
            if self.fio_bytes:
                self.fio_cpu_per_gb = self.fio_cpu_s / (self.fio_bytes / 1e9)
        except (OSError, ValueError, IndexError):
            pass
        self.bt = blktrace_figures(self.dir, self.disks)
        # Distinct bytes from the disks per second: the disk-side MB/s
        # less the pages blktrace saw read twice.  Jobs that read the
        # same files compare on it whatever their readers per file.
        again = self.bt['twice'] * 4096 if self.bt else 0
        self.distinct_mbs = (self.disk_bytes - again) / self.secs / 1e6
        st = os.path.join(r, 'ra-stats')
        self.ra_stats = open(st).read() if os.path.exists(st) else None


def host_marks(path):
    """Host seconds between the guest's "fio start" and "fio end" lines
    of host-marks (run-guest.sh), None without both."""
    t = {}
    try:
        with open(path) as f:
            for line in f:
                p = line.split(None, 1)
                if len(p) == 2:
                    t.setdefault(p[1].strip(), float(p[0]))
    except (OSError, ValueError):
        return None
    if 'fio start' in t and 'fio end' in t:
        return max(t['fio end'] - t['fio start'], 0.01)
    return None


# guest-info's per-disk block queue figures, in the order printed.
QUEUE_KEYS = ('max_sectors_kb', 'read_ahead_kb', 'hw_queues', 'nr_tags',
              'nr_requests')


def queue_values(runs):
    """The guest's queue limits of a table's runs: (KEY, VALUE) for each
    of QUEUE_KEYS guest-info has, values that differ between runs joined
    by "/"."""
    out = []
    for key in QUEUE_KEYS:
        vals = []
        for r in runs:
            v = r.queue.get(key)
            if v is not None and v not in vals:
                vals.append(v)
        if vals:
            out.append((key, '/'.join(vals)))
    return out


def queue_line(runs):
    """queue_values() as "KEY VALUE ..."; None when no run recorded any."""
    out = ['%s %s' % kv for kv in queue_values(runs)]
    return ' '.join(out) if out else None


def child_ticks(path):
    """cutime + cstime (USER_HZ ticks) of a /proc/PID/stat line."""
    with open(path) as f:
        rest = f.read().rsplit(')', 1)[1].split()
    return int(rest[13]) + int(rest[14])


def cpustat(path):
    """The all-CPU line of /proc/stat: its first 8 tick counts."""
    with open(path) as f:
        for line in f:
            p = line.split()
            if p[0] == 'cpu':
                return [int(x) for x in p[1:9]] + [0] * (9 - len(p))
    raise ValueError('%s: no cpu line' % path)


def btt_avg(path):
    """Mean Q2C and D2C (seconds) of btt's "All Devices" table.  btt
    names the Q2C of a device without remaps "Q2Cdm" (its top level)."""
    out = {}
    with open(path) as f:
        text = f.read()
    i = text.find('All Devices')
    if i < 0:
        return out
    for line in text[i:].splitlines()[1:]:
        if line.startswith('===='):
            break
        p = line.split()
        if len(p) == 5 and p[0] in ('Q2C', 'Q2Cdm', 'D2C'):
            out.setdefault(p[0][:3], float(p[2]))
    return out


def blktrace_figures(d, disks):
    """Figures from bt/dK.txt and bt/dK.btt, None without a trace."""
    bt = os.path.join(d, 'bt')
    if not os.path.isdir(bt):
        return None
    reqs = nbytes = seeks = twice = 0
    lat = {}
    for name in disks:
        txt = os.path.join(bt, name + '.txt')
        if not os.path.exists(txt):
            return None
        end = None
        done = []
        with open(txt) as f:
            for line in f:
                p = line.split()
                if len(p) != 5 or 'R' not in p[1]:
                    continue
                try:
                    sector, n = int(p[2]), int(p[3])
                except ValueError:
                    continue
                if n == 0:
                    continue
                if p[0] == 'D':
                    reqs += 1
                    nbytes += n * 512
                    if end is not None and sector != end:
                        seeks += 1
                    end = sector + n
                elif p[0] == 'C':
                    done.append((sector, sector + n))
        # Sectors a completed read covers that earlier ones covered: in
        # sector order, what overlaps the union of those before it.
        # (Order does not matter for the count: each sector read k
        # times counts k - 1.)
        reach = -1
        for a, b in sorted(done):
            if a < reach:
                twice += min(b, reach) - a
            reach = max(reach, b)
        # Latencies of the disk that moved the most data.
        a = btt_avg(os.path.join(bt, name + '.btt'))
        if a and disks[name]['bytes'] >= lat.get('bytes', -1):
            lat = dict(a, bytes=disks[name]['bytes'])
    # Sectors read again, in 4 KB pages: blocks need not be page-aligned
    # on the disk (1 KB ext4 blocks), so count sectors, not page frames.
    return {'reqs': reqs, 'kb': nbytes / reqs / 1024.0 if reqs else 0.0,
            'seeks_mb': seeks / (nbytes / 1e6) if nbytes else 0.0,
            'twice': twice // 8, 'q2c': lat.get('Q2C'),
            'd2c': lat.get('D2C')}


def mb(x):
    return '%.1f' % x


def print_run(run):
    print('job %s on %s: %.1f s, layout %s, %s, %s, %s, %d vCPU(s),'
          ' read_ahead_kb %s%s' %
          (run.job, run.flavour, run.secs, run.layout, disk_desc(run),
           run.fs, run.sched, run.cpus, run.ra_kb,
           '' if run.cpu_mode == 'wall' else
           ', %s: %.1f s on the host clock, %.1f s on the guest\'s' %
           (run.cpu_mode, run.secs, run.guest_secs)))
    print('  disk-side %s MB/s (%.0f%% of %d active disk(s) x %.1f MB/s),'
          ' %s of the IOPS limit, fio-side %s MB/s, major faults %d'
          % (mb(run.disk_mbs), 100 * run.frac, run.active, run.bps / 1e6,
             '%.0f%%' % (100 * run.iops_frac) if run.iops else '-',
             mb(run.fio_mbs), run.majflt))
    if run.cpu_s is not None:
        print('  guest CPU %.2f s (%.0f%% of %d vCPU(s)), %s s per GB read'
              % (run.cpu_s, 100 * run.cpu_frac, run.cpus,
                 '%.3f' % run.cpu_per_gb if run.cpu_per_gb else '-'))
    if run.fio_cpu_s is not None:
        print('  fio\'s processes: CPU %.2f s, %s s per GB read'
              % (run.fio_cpu_s, '%.3f' % run.fio_cpu_per_gb
                 if run.fio_cpu_per_gb else '-'))
    if run.bt:
        b = run.bt
        print('  blktrace: %d reads of %.1f KB, %.2f seeks/MB, %d pages'
              ' read twice, Q2C %s ms, D2C %s ms (busiest disk)'
              % (b['reqs'], b['kb'], b['seeks_mb'], b['twice'],
                 ms(b['q2c']), ms(b['d2c'])))
    print('  %-4s %-4s %9s %9s %10s %8s' %
          ('disk', 'dev', 'MB', 'requests', 'mean KB', 'MB/s'))
    for name, d in run.disks.items():
        mean = d['bytes'] / d['reqs'] / 1024 if d['reqs'] else 0
        print('  %-4s %-4s %9.1f %9d %10.1f %8.1f' %
              (name, d['dev'], d['bytes'] / 1e6, d['reqs'], mean,
               d['bytes'] / run.secs / 1e6))
    if run.ra_stats is None:
        print('  readahead stats: not available')
    else:
        print('  readahead stats:')
        for line in run.ra_stats.rstrip().splitlines():
            print('    ' + line)


def med(xs):
    return statistics.median(xs) if xs else 0.0


def ms(x):
    return '-' if x is None else '%.1f' % (x * 1e3)


def disk_desc(r):
    if r.spindle:
        return ('spindle disks at %.1f MB/s (rpm %s, seek %s ms)'
                % (r.bps / 1e6, r.spindle.get('rpm', '?'),
                   r.spindle.get('seek_ms', '?')))
    return 'limit %.1f MB/s and %d IOPS per disk' % (r.bps / 1e6, r.iops)


def mode_desc(r):
    """The title's note for runs not on multi-threaded TCG."""
    if r.cpu_mode == 'wall':
        return ''
    return (', %s (MB/s and secs on the host clock, CPU s/GB in'
            ' instructions: 1 s = 1e9)' % r.cpu_mode)


def table_key(r):
    return (r.job, r.fs, r.sched, r.iosched, r.disktype, r.bps, r.iops,
            r.cpus, r.ra_kb, r.cpu_mode)


def title_of(r0):
    """A table's title as its "== TITLE:" line names it: the job alone in
    the throttled-virtio set, else JOB/FS/SCHED."""
    if r0.disktype == 'throttled' and r0.cpus == 1 and \
            r0.sched == 'default' and r0.fs == 'ext4':
        return r0.job
    return '%s/%s/%s' % (r0.job, r0.fs, r0.sched)


def kernel_records(runs):
    """One record a table and kernel: what its table prints (the same
    rounding), by name.  reqs/kb_busiest: the disk with the most
    requests (the first of them, by name)."""
    out = []
    for key, jr in groups_of(runs).items():
        r0 = jr[0]
        flavours = sorted({r.flavour for r in jr},
                          key=lambda f: (f != 'pristine', f))
        for f in flavours:
            fr = [r for r in jr if r.flavour == f]
            rec = {'record': 'kernel', 'title': title_of(r0),
                   'job': r0.job, 'fs': r0.fs, 'sched': r0.sched,
                   'disks': r0.disktype, 'cpus': r0.cpus,
                   'read_ahead_kb': str(r0.ra_kb), 'cpu_mode': r0.cpu_mode,
                   'kernel': f, 'runs': len(fr),
                   'disk_mbs': '%.2f' % med([r.disk_mbs for r in fr]),
                   'fio_mbs': '%.1f' % med([r.fio_mbs for r in fr]),
                   'secs': '%.1f' % med([r.secs for r in fr])}
            busiest = None
            for n in sorted({n for r in jr for n in r.disks}):
                dr = [r for r in fr if n in r.disks]
                reqs = int(med([r.disks[n]['reqs'] for r in dr]))
                kb = med([r.disks[n]['bytes'] / r.disks[n]['reqs'] / 1024
                          for r in dr if r.disks[n]['reqs']])
                if busiest is None or reqs > busiest[0]:
                    busiest = (reqs, '%.1f' % kb)
            if busiest:
                rec['reqs_busiest'], rec['kb_busiest'] = busiest
            if all(r.bt for r in jr):
                bs = [r.bt for r in fr]
                q = [b['q2c'] for b in bs if b['q2c'] is not None]
                c = [b['d2c'] for b in bs if b['d2c'] is not None]
                rec.update({'bt_q2c_ms': ms(med(q)) if q else '-',
                            'bt_d2c_ms': ms(med(c)) if c else '-',
                            'bt_reads': int(med([b['reqs'] for b in bs])),
                            'bt_kb': '%.1f' % med([b['kb'] for b in bs])})
            for k, v in queue_values(jr):
                rec['queue_' + k] = v
            out.append(rec)
    return out


def judged_records(groups, res):
    """One record a table: the summary's line, by name."""
    out = []
    for key in order(groups):
        x = res[key]
        out.append({'record': 'judged', 'title': vname(key),
                    'runs': '/'.join(str(x['runs'].get(f, 0))
                                     for f in ('pristine', 'patched')),
                    'pristine': fmt(x['pristine'], '%.2f'),
                    'patched': fmt(x['patched'], '%.2f'),
                    'ratio': fmt(x['ratio']),
                    'target': '%.2f' % x['target'],
                    'measure': x['measure'],
                    'verdict': x['verdict'], 'why': x['why'] or ''})
    return out


def write_records(path, records):
    """JSON lines: one flat object a line, as ra_sim --json writes."""
    with open(path, 'w') as f:
        for rec in records:
            f.write(json.dumps(rec, separators=(', ', ': ')) + '\n')


def print_ab(runs):
    # One table per job and throttle setting.
    keys = []
    for r in runs:
        if table_key(r) not in keys:
            keys.append(table_key(r))
    for key in keys:
        job = key[0]
        jr = [r for r in runs if table_key(r) == key]
        flavours = []
        for r in jr:
            if r.flavour not in flavours:
                flavours.append(r.flavour)
        flavours.sort(key=lambda f: (f != 'pristine', f))
        r0 = jr[0]
        print()
        if r0.disktype == 'throttled' and r0.cpus == 1 and \
                r0.sched == 'default' and r0.fs == 'ext4':
            # The throttled-virtio set's title, as calibrate.sh and
            # ab-reference.jsonl know it.
            print('== %s: layout %s (disks files MB), limit %.1f MB/s and %d '
                  'IOPS per disk, read_ahead_kb %s ==' %
                  (job, r0.layout, r0.bps / 1e6, r0.iops, r0.ra_kb))
        else:
            print('== %s/%s/%s: layout %s (disks files MB), %s, %d vCPUs, '
                  'read_ahead_kb %s%s%s ==' %
                  (job, r0.fs, r0.sched, r0.layout, disk_desc(r0), r0.cpus,
                   r0.ra_kb, ', iosched ' + r0.iosched if r0.iosched else '',
                   mode_desc(r0)))
        print('%-9s %4s %10s %15s %7s %6s %9s %8s %7s %8s %5s %9s' %
              ('kernel', 'runs', 'disk MB/s', 'min..max', '%limit', '%IOPS',
               'fio MB/s', 'majflt', 'secs', 'CPU s/GB', '%CPU',
               'fio CPU/GB'))
        meds = {}
        for f in flavours:
            fr = [r for r in jr if r.flavour == f]
            d = [r.disk_mbs for r in fr]
            meds[f] = med(d)
            cg = [r.cpu_per_gb for r in fr if r.cpu_per_gb is not None]
            cf = [r.cpu_frac for r in fr if r.cpu_frac is not None]
            fc = [r.fio_cpu_per_gb for r in fr if r.fio_cpu_per_gb]
            print('%-9s %4d %10.2f %15s %6.0f%% %6s %9.1f %8d %7.1f %8s %5s'
                  ' %9s' %
                  (f, len(fr), med(d), '%.2f..%.2f' % (min(d), max(d)),
                   100 * med([r.frac for r in fr]),
                   '%.0f%%' % (100 * med([r.iops_frac for r in fr]))
                   if r0.iops else '-',
                   med([r.fio_mbs for r in fr]),
                   med([r.majflt for r in fr]), med([r.secs for r in fr]),
                   ('%.3f' if r0.cpu_mode == 'icount' else '%.1f') % med(cg)
                   if cg else '-',
                   '%.0f%%' % (100 * med(cf)) if cf else '-',
                   ('%.3f' if r0.cpu_mode == 'icount' else '%.1f') % med(fc)
                   if fc else '-'))
        if all(r.bt for r in jr):
            print('%-9s %10s %10s %9s %9s %10s %11s' %
                  ('blktrace', 'Q2C ms', 'D2C ms', 'seeks/MB', 'reads',
                   'read KB', 'read twice'))
            for f in flavours:
                bs = [r.bt for r in jr if r.flavour == f]
                q = [b['q2c'] for b in bs if b['q2c'] is not None]
                c = [b['d2c'] for b in bs if b['d2c'] is not None]
                print('%-9s %10s %10s %9.2f %9d %10.1f %11d' %
                      (f, ms(med(q)) if q else '-',
                       ms(med(c)) if c else '-',
                       med([b['seeks_mb'] for b in bs]),
                       med([b['reqs'] for b in bs]),
                       med([b['kb'] for b in bs]),
                       med([b['twice'] for b in bs])))
        if 'pristine' in meds and 'patched' in meds and meds['pristine']:
            a = [r for r in jr if r.flavour == 'pristine']
            b = [r for r in jr if r.flavour == 'patched']
            fa, fb = med([r.fio_mbs for r in a]), med([r.fio_mbs for r in b])
            ca = [r.cpu_per_gb for r in a if r.cpu_per_gb]
            cb = [r.cpu_per_gb for r in b if r.cpu_per_gb]
            xa = [r.fio_cpu_per_gb for r in a if r.fio_cpu_per_gb]
            xb = [r.fio_cpu_per_gb for r in b if r.fio_cpu_per_gb]
            print('ratio patched/pristine: disk MB/s %.3f, fio MB/s %s,'
                  ' job time %.3f%s%s' %
                  (meds['patched'] / meds['pristine'],
                   '%.3f' % (fb / fa) if fa else '-',
                   med([r.secs for r in b]) / med([r.secs for r in a]),
                   ', CPU s/GB %.3f' % (med(cb) / med(ca))
                   if ca and cb else '',
                   ', fio CPU s/GB %.3f' % (med(xb) / med(xa))
                   if xa and xb else ''))
        q = queue_line(jr)
        if q:
            print('guest queue (d0): ' + q)
        names = sorted({n for r in jr for n in r.disks})
        hdr = '%-10s' % 'per disk'
        for f in flavours:
            hdr += ' %10s %9s' % (f[:10], 'mean KB')
        print(hdr)
        for n in names:
            line = '%-10s' % n
            for f in flavours:
                fr = [r for r in jr if r.flavour == f and n in r.disks]
                reqs = med([r.disks[n]['reqs'] for r in fr])
                kb = med([r.disks[n]['bytes'] / r.disks[n]['reqs'] / 1024
                          for r in fr if r.disks[n]['reqs']])
                line += ' %10d %9.1f' % (reqs, kb)
            print(line + '   (requests, mean request size; medians)')


def job_body(text):
    """A job file's lines without comments, blank lines and numjobs:
    what a solo job must have exactly as its shared job has it."""
    out = []
    for line in text.splitlines():
        t = line.strip()
        if not t or t[0] in '#;' or re.match(r'numjobs\s*=', t):
            continue
        out.append(t)
    return out


def readers(text):
    """Readers per file of a job: its numjobs (one value for all its
    sections, else None), 1 without any."""
    vals = set(re.findall(r'^\s*numjobs\s*=\s*(\d+)', text, re.M))
    if len(vals) > 1:
        return None
    return int(vals.pop()) if vals else 1


def random_job(text):
    """Whether a job reads at random (an rw= of rand...): judged by fio's
    MB/s, not the disk's."""
    return re.search(r'^\s*(rw|readwrite)\s*=\s*rand', text, re.M) is not None


def groups_of(runs):
    """The runs by table_key, in the order the keys first appear."""
    out = {}
    for r in runs:
        out.setdefault(table_key(r), []).append(r)
    return out


def medians(jr, attr):
    """{flavour: median of attr} of a table's runs."""
    out = {}
    for f in sorted({r.flavour for r in jr}):
        out[f] = med([getattr(r, attr) for r in jr if r.flavour == f])
    return out


def ratio(a, b):
    return a / b if a is not None and b else None


def solo_pairs(groups):
    """{shared key: solo key}: each one-reader job ("# solo-of: JOB")
    beside the table of JOB with the same file system, scheduler,
    disks, vCPUs and read_ahead_kb.  A solo job whose file differs from
    JOB's in more than numjobs and comments, or whose numjobs is not 1,
    is not paired (a warning says why)."""
    pairs = {}
    for key, jr in groups.items():
        r0 = jr[0]
        if not r0.solo_of:
            continue
        skey = (r0.solo_of,) + key[1:]
        if skey not in groups:
            continue
        sh = groups[skey][0]
        why = None
        if readers(r0.jobtext) != 1:
            why = 'numjobs is not 1'
        elif (readers(sh.jobtext) or 0) < 2:
            why = '%s has fewer than 2 readers per file' % sh.job
        elif job_body(r0.jobtext) != job_body(sh.jobtext):
            why = 'its job file differs from %s\'s in more than numjobs' % (
                sh.job)
        if why:
            print('WARNING: %s not paired with %s: %s' % (r0.job, sh.job, why))
            continue
        pairs[skey] = key
    return pairs


def vname(key):
    return '%s/%s/%s' % key[:3]


# The QEMU bench's targets (ours against pristine): patched/pristine disk MB/s (the
# medians) at least TARGET, and at least TARGET_LOSS where pristine's
# shared job loses more than LOSS to one reader of the same file.
TARGET, TARGET_LOSS, LOSS = 1.00, 1.10, 0.10


def judge_all(groups, pairs):
    """Per table key: medians, ratio, shared/solo ratios, target and
    verdict (a dict), for print_pairs and print_summary."""
    out = {}
    for key, jr in groups.items():
        rand = random_job(jr[0].jobtext)
        d = medians(jr, 'fio_mbs' if rand else 'disk_mbs')
        x = {'runs': {f: sum(1 for r in jr if r.flavour == f) for f in d},
             'measure': 'fio' if rand else 'disk',
             'pristine': d.get('pristine'), 'patched': d.get('patched'),
             'solo': jr[0].solo_of is not None, 'shsolo': {}}
        x['ratio'] = ratio(x['patched'], x['pristine'])
        # fio's CPU s/GB, judged on icount runs only (instructions;
        # the CPU target: patched <= pristine): on multi-threaded TCG it is
        # host noise.  Exact per process, where /proc/stat's busy ticks
        # sample short bursts (README, "CPU time: icount").
        x['icount'] = jr[0].cpu_mode == 'icount'
        c = {}
        for f in d:
            v = [r.fio_cpu_per_gb for r in jr
                 if r.flavour == f and r.fio_cpu_per_gb]
            c[f] = med(v) if v else None
        x['cpu'] = c
        x['cpu_ratio'] = ratio(c.get('patched'), c.get('pristine'))
        target, why = TARGET, None
        if key in pairs:
            a = medians(jr, 'distinct_mbs')
            b = medians(groups[pairs[key]], 'distinct_mbs')
            for f in a:
                if f in b:
                    x['shsolo'][f] = ratio(a[f], b[f])
            x['readers'] = readers(jr[0].jobtext)
            ps = x['shsolo'].get('pristine')
            x['loses'] = ps is not None and ps < 1 - LOSS
            if x['loses']:
                target = TARGET_LOSS
        elif not x['solo'] and (readers(jr[0].jobtext) or 2) > 1 and \
                any(r.disktype == 'spindle' for r in jr):
            why = 'no solo run'
        x['target'], x['why'] = target, why
        if x['ratio'] is None:
            x['verdict'] = '-'
        else:
            x['verdict'] = 'PASS' if x['ratio'] >= target - 5e-4 else 'FAIL'
        out[key] = x
    return out


def order(groups):
    """Table keys as the summary lists them: each shared job, then its
    solo job, by job, file system and scheduler."""
    def k(key):
        r0 = groups[key][0]
        return (r0.solo_of or key[0], r0.solo_of is not None) + \
            tuple(str(x) for x in key[1:])
    return sorted(groups, key=k)


def fmt(x, f='%.3f'):
    return '-' if x is None else f % x


def print_pairs(groups, pairs, res):
    if not pairs:
        return
    print()
    print('== readers sharing a file: each shared job beside its one-reader'
          ' variant ==')
    print('shared/solo: distinct disk-side MB/s (disk bytes less pages read'
          ' twice, over the fio run)')
    print('of the shared job (N readers per file) over that of its solo'
          ' variant (1 reader per file),')
    print('medians of R.  Both read the same files once each from the'
          ' same disks, scheduler and')
    print('vCPUs, so this is the disk-side throughput N readers of a file'
          ' get against what one')
    print('reader of that file gets.  Pristine loses when its ratio is'
          ' below %.2f; then patched/pristine' % (1 - LOSS))
    print('(disk MB/s of the shared job) must reach %.2f, else %.2f.'
          % (TARGET_LOSS, TARGET))
    print('%-26s %2s %8s %8s %6s  %8s %8s %6s  %5s %7s %6s %7s' %
          ('job/fs/sched', 'N', 'pri sh', 'pri solo', 'sh/so', 'pat sh',
           'pat solo', 'sh/so', 'loses', 'pat/pri', 'target', 'verdict'))
    for key in order(groups):
        if key not in pairs:
            continue
        x, so = res[key], groups[pairs[key]]
        a = medians(groups[key], 'distinct_mbs')
        b = medians(so, 'distinct_mbs')
        print('%-26s %2s %8s %8s %6s  %8s %8s %6s  %5s %7s %6s %7s' %
              (vname(key), x.get('readers') or '?',
               fmt(a.get('pristine'), '%.2f'), fmt(b.get('pristine'), '%.2f'),
               fmt(x['shsolo'].get('pristine')),
               fmt(a.get('patched'), '%.2f'), fmt(b.get('patched'), '%.2f'),
               fmt(x['shsolo'].get('patched')),
               'yes' if x['loses'] else 'no', fmt(x['ratio']),
               '>=%.2f' % x['target'], x['verdict']))


def notes(x):
    """The summary line's notes: the measure when it is not the disk's,
    and why the line is judged as it is."""
    n = ['fio MB/s: random reads'] if x['measure'] == 'fio' else []
    n += [x['why']] if x['why'] else []
    return ' (%s)' % '; '.join(n) if n else ''


def print_summary(groups, res):
    print()
    print('== summary: disk-side MB/s, medians of R; patched/pristine >= %.2f,'
          ' >= %.2f where pristine' % (TARGET, TARGET_LOSS))
    print('   loses more than %d%% to one reader of the same file'
          ' (shared/solo < %.2f) ==' % (100 * LOSS, 1 - LOSS))
    icount = any(x['icount'] for x in res.values())
    if icount:
        print('   CPU: icount runs, fio\'s processes\' CPU s per GB fio'
              ' read (instructions, 1 s = 1e9):')
        print('   patched <= pristine; MB/s on the host clock')
    cpuhdr = ' %8s %8s %7s %5s' % ('CPU pri', 'CPU pat', 'CPU rat',
                                   'CPU') if icount else ''
    print('%-30s %5s %9s %9s %7s %7s %7s %7s %7s%s' %
          ('job/fs/sched', 'runs', 'pristine', 'patched', 'ratio',
           'sh/so 1', 'sh/so 2', 'target', 'verdict', cpuhdr))
    npass = nall = cpass = call = 0
    for key in order(groups):
        x = res[key]
        n = '/'.join(str(x['runs'].get(f, 0)) for f in ('pristine', 'patched'))
        cpu = ''
        if icount:
            cv = '-'
            if x['icount'] and x['cpu_ratio'] is not None:
                cv = 'PASS' if x['cpu_ratio'] <= 1 + 5e-4 else 'FAIL'
                call += 1
                cpass += cv == 'PASS'
            cpu = ' %8s %8s %7s %5s' % (
                fmt(x['cpu'].get('pristine'), '%.3f'),
                fmt(x['cpu'].get('patched'), '%.3f'),
                fmt(x['cpu_ratio']), cv)
        print('%-30s %5s %9s %9s %7s %7s %7s %7s %7s%s%s' %
              (vname(key), n, fmt(x['pristine'], '%.2f'),
               fmt(x['patched'], '%.2f'), fmt(x['ratio']),
               fmt(x['shsolo'].get('pristine')),
               fmt(x['shsolo'].get('patched')), '>=%.2f' % x['target'],
               x['verdict'], cpu, notes(x)))
        if x['verdict'] != '-':
            nall += 1
            npass += x['verdict'] == 'PASS'
    print('%d of %d PASS (sh/so 1, 2: shared/solo of pristine, patched;'
          ' ratio: patched/pristine)' % (npass, nall))
    if call:
        print('fio CPU s/GB: %d of %d PASS (patched/pristine <= 1.00)'
              % (cpass, call))


def check(runs):
    """Runs faster than the throttled disks allow: something was cached."""
    bad = [r for r in runs if r.frac > 1.05]
    for r in bad:
        print('BROKEN BENCHMARK: %s read %.1f MB/s from %d disk(s) limited'
              ' to %.1f MB/s each (%.0f%%): data came from a cache'
              % (r.dir, r.disk_mbs, r.active, r.bps / 1e6, 100 * r.frac))
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 2 and argv[0] == 'run':
        runs = [Run(d) for d in argv[1:]]
        for r in runs:
            print_run(r)
        return check(runs)
    if len(argv) >= 2 and argv[0] == 'ab':
        records = None
        if argv[1] == '--json' and len(argv) >= 4:
            records, argv = argv[2], argv[2:]
        runs = [Run(d) for d in argv[1:]]
        print_ab(runs)
        groups = groups_of(runs)
        pairs = solo_pairs(groups)
        res = judge_all(groups, pairs)
        print_pairs(groups, pairs, res)
        print_summary(groups, res)
        if records:
            write_records(records, kernel_records(runs) +
                          judged_records(groups, res))
        return check(runs)
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
