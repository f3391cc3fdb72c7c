#!/usr/bin/env python3
"""report.py - turn bench run directories into figures and A/B tables.

Usage: report.py run RUNDIR            one run, human readable
       report.py ab RUNDIR...          A/B tables, one per job

Owns the arithmetic of the QEMU bench: a RUNDIR is what run-guest.sh
leaves (host-info, results/ from the guest).  Disk-side figures come
from /sys/block/*/stat before and after the job (field 1: read requests
completed, field 3: sectors read), as MB/s and as fractions of the
throttles (bytes/s summed over the disks that were read; requests/s of
the busiest disk against the IOPS limit), the elapsed time from /proc/uptime
around the fio run, major faults from the /proc/vmstat pgmajfault delta.
fio's own bandwidth (sum of read io_bytes over the same time) is printed
beside the disk-side one: readers of one file get pages from each other's
cache, so only the disk side can be compared with the throttled limit.
The kernel flavour of a run is the name of its kernel's object
directory (build/kbuild-FLAVOUR).
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
        self.bps = int(self.host['bps'])
        self.iops = int(self.host['iops'])
        self.ra_kb = self.host.get('read_ahead_kb', 'default')
        try:
            info = open(os.path.join(r, 'guest-info')).read()
            m = re.search(r'^read_ahead_kb \S+ \S+ (\d+)', info, re.M)
            if m:
                self.ra_kb = m.group(1)
        except OSError:
            pass
        t0 = float(open(os.path.join(r, 'uptime.before')).read())
        t1 = float(open(os.path.join(r, 'uptime.after')).read())
        self.secs = max(t1 - t0, 0.01)
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
                              for x in self.disks.values()] or [0.0])
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
        st = os.path.join(r, 'ra-stats')
        self.ra_stats = open(st).read() if os.path.exists(st) else None


def mb(x):
    return '%.1f' % x


def print_run(run):
    print('job %s on %s: %.1f s, layout %s, limit %.1f MB/s and %d IOPS'
          ' per disk, read_ahead_kb %s' %
          (run.job, run.flavour, run.secs, run.layout, run.bps / 1e6,
           run.iops, run.ra_kb))
    print('  disk-side %s MB/s (%.0f%% of %d active disk(s) x %.1f MB/s),'
          ' %.0f%% of the IOPS limit, fio-side %s MB/s, major faults %d'
          % (mb(run.disk_mbs), 100 * run.frac, run.active, run.bps / 1e6,
             100 * run.iops_frac, mb(run.fio_mbs), run.majflt))
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


def print_ab(runs):
    # One table per job and throttle setting.
    keys = []
    for r in runs:
        if (r.job, r.bps, r.iops, r.ra_kb) not in keys:
            keys.append((r.job, r.bps, r.iops, r.ra_kb))
    for key in keys:
        job = key[0]
        jr = [r for r in runs if (r.job, r.bps, r.iops, r.ra_kb) == key]
        flavours = []
        for r in jr:
            if r.flavour not in flavours:
                flavours.append(r.flavour)
        flavours.sort(key=lambda f: (f != 'pristine', f))
        r0 = jr[0]
        print()
        print('== %s: layout %s (disks files MB), limit %.1f MB/s and %d '
              'IOPS per disk, read_ahead_kb %s ==' %
              (job, r0.layout, r0.bps / 1e6, r0.iops, r0.ra_kb))
        print('%-9s %4s %10s %15s %7s %6s %9s %8s %7s' %
              ('kernel', 'runs', 'disk MB/s', 'min..max', '%limit', '%IOPS',
               'fio MB/s', 'majflt', 'secs'))
        meds = {}
        for f in flavours:
            fr = [r for r in jr if r.flavour == f]
            d = [r.disk_mbs for r in fr]
            meds[f] = med(d)
            print('%-9s %4d %10.2f %15s %6.0f%% %5.0f%% %9.1f %8d %7.1f' %
                  (f, len(fr), med(d), '%.2f..%.2f' % (min(d), max(d)),
                   100 * med([r.frac for r in fr]),
                   100 * med([r.iops_frac for r in fr]),
                   med([r.fio_mbs for r in fr]),
                   med([r.majflt for r in fr]), med([r.secs for r in fr])))
        if 'pristine' in meds and 'patched' in meds and meds['pristine']:
            a = [r for r in jr if r.flavour == 'pristine']
            b = [r for r in jr if r.flavour == 'patched']
            fa, fb = med([r.fio_mbs for r in a]), med([r.fio_mbs for r in b])
            print('ratio patched/pristine: disk MB/s %.3f, fio MB/s %s,'
                  ' job time %.3f' %
                  (meds['patched'] / meds['pristine'],
                   '%.3f' % (fb / fa) if fa else '-',
                   med([r.secs for r in b]) / med([r.secs for r in a])))
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
        runs = [Run(d) for d in argv[1:]]
        print_ab(runs)
        return check(runs)
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
