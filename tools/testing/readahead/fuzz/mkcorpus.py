#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mkcorpus.py - write the seed corpus of the readahead fuzz target.

Usage: mkcorpus.py DIR

Each seed is a named scenario, encoded in the input format that
fuzz_readahead.c decodes (FUZZ_FORMAT there); the encoder below mirrors
its decoder byte for byte.  Re-run after changing the format, then check
that `run.sh 0` replays every seed cleanly.
"""
import os
import struct
import sys

OP = dict(read=0, fault=7, fadvise=11, readahead=14, debugfs=16, drop=18,
          alloc_fail=19, fs=21, sync=23, async_=25, unbounded=27, force=28,
          ra_kb=30, reopen=31)


def u8(v):
    return bytes([v & 0xff])


def u16(v):
    return struct.pack('>H', v & 0xffff)


def u32(v):
    return struct.pack('>I', v & 0xffffffff)


def u64(v):
    return struct.pack('>Q', v & 0xffffffffffffffff)


def header(size=(7, u8(31)), ra_kb=(3, b''), mem=(4, b''), readers=1,
           large=False, trace=False, io=0):
    """size/ra_kb/mem: (selector, argument bytes) as pick_*() read them."""
    flags = (1 if large else 0) | (2 if trace else 0) | (io << 2)
    return (u8(size[0]) + size[1] + u8(ra_kb[0]) + ra_kb[1] + u8(mem[0]) +
            mem[1] + u8(readers - 1) + u8(flags))


def op(name, reader, args=b''):
    return u8(OP[name]) + u8(reader) + args


# Arguments, one helper per decoder function.
def read_next(pages):          # pos: next_pos; len: N pages
    return u8(1) + u8(2) + u8(pages - 1)


def read_at_page(page, nbytes):   # pos: page-aligned; len: bytes
    return u8(3) + u64(page) + u8(3) + u32(nbytes)


def fault(page_sel, flags_sel, arg=b''):
    return u8(flags_sel) + u8(page_sel) + arg


def fd_reg():
    return u8(0)


def fadvise(offset, length, advice_sel, fd=None):
    return (fd if fd is not None else fd_reg()) + offset + length + \
        u8(advice_sel)


OFF_ZERO, OFF_LLMAX, OFF_LLMIN = u8(0), u8(3), u8(6)


def off_neg(v):
    return u8(5) + u16(v)


def off_raw(v):
    return u8(7) + u64(v)


def off_pages(n):
    return u8(9) + u16(n)


LEN_ZERO, LEN_LLMAX, LEN_NEG1, LEN_LLMIN = u8(0), u8(3), u8(4), u8(5)


def len_pages(n):
    return u8(2) + u8(n - 1)


ADV = dict(willneed=0, dontneed=3, normal=4, random=5, sequential=6,
           noreuse=7, bad_m1=8, bad6=9, bad99=10, int_min=11)


def readahead(offset, count_sel, arg=b'', fd=None):
    return (fd if fd is not None else fd_reg()) + offset + u8(count_sel) + arg


def debugfs(path_sel, text=None, valid=None):
    if valid is not None:
        return u8(path_sel) + u8(valid) + u8(0)
    return u8(path_sel) + u8(4) + u8(len(text)) + text


def fs(take_sel, align_log=None):
    if align_log is None:
        return u8(take_sel)
    return u8(take_sel | 8) + u8(align_log)


def seeds():
    s = {}
    seq = b''.join(op('read', 0, read_next(1)) for _ in range(24))
    s['seq-4k'] = header() + seq
    s['seq-4k-trace'] = header(trace=True) + seq
    s['seq-64k-4readers'] = header(readers=4) + b''.join(
        op('read', r % 4, read_next(16)) for r in range(24))
    s['interleaved-2readers'] = header(size=(2, u32(1 << 20)), readers=2) + \
        b''.join(op('read', r % 2, read_next(1)) for r in range(40))
    s['oversize-io2048'] = header(io=3) + op('read', 0, u8(0) + u8(4))
    s['random-then-seq'] = header(size=(2, u32(3 << 20))) + \
        op('read', 0, read_at_page(300, 4096)) + \
        op('read', 0, read_at_page(17, 100)) + \
        b''.join(op('read', 0, read_next(1)) for _ in range(8))
    s['context-history'] = header(size=(2, u32(2 << 20)), readers=2) + \
        b''.join(op('read', 0, read_next(4)) for _ in range(8)) + \
        op('read', 1, read_at_page(32, 4096)) + op('read', 1, read_next(1))
    s['mmap-around'] = header() + b''.join(
        op('fault', 0, fault(3, 0, u64(i * 7))) for i in range(12))
    s['mmap-seq'] = header() + b''.join(
        op('fault', 0, fault(1, 2)) for _ in range(20))
    s['mmap-random-advice'] = header() + b''.join(
        op('fault', 0, fault(1, 3)) for _ in range(4))
    s['mmap-past-eof'] = header() + op('fault', 0, fault(5, 0, u64(1 << 40)))
    s['ra-kb-0'] = header(ra_kb=(0, b'')) + seq[:30]
    s['ra-kb-1'] = header(ra_kb=(1, b'')) + seq[:30]
    s['ra-kb-4'] = header(ra_kb=(2, b'')) + seq[:30]
    s['ra-kb-huge-small-mem'] = header(ra_kb=(5, b''), mem=(1, b''),
                                       size=(2, u32(4 << 20))) + \
        b''.join(op('read', 0, read_next(32)) for _ in range(8))
    s['ra-kb-u64'] = header(ra_kb=(6, u64(-1)), mem=(0, b'')) + seq[:40]
    s['empty-file'] = header(size=(0, b'')) + op('read', 0, u8(0) + u8(4)) + \
        op('readahead', 0, readahead(OFF_ZERO, 0)) + \
        op('fault', 0, fault(0, 0))
    s['tiny-file'] = header(size=(1, u16(5000))) + seq[:20]
    s['huge-file-eof'] = header(size=(4, u16(1234))) + \
        op('read', 0, u8(5) + u16(20000) + u8(4)) + \
        op('read', 0, read_next(8)) + op('fault', 0, fault(4, 2, u8(1)))
    s['huge-file-aligned'] = header(size=(6, u8(3)), readers=2) + \
        op('read', 1, u8(5) + u16(8192) + u8(2) + u8(7)) + \
        op('fadvise', 0, fadvise(OFF_LLMAX, LEN_LLMAX, ADV['willneed']))
    s['fadvise-all'] = header(readers=2) + b''.join(
        op('fadvise', 0, fadvise(off_pages(i), len_pages(8), a))
        for i, a in enumerate(ADV.values()))
    s['fadvise-overflow'] = header() + \
        op('fadvise', 0, fadvise(OFF_LLMAX, LEN_LLMAX, ADV['willneed'])) + \
        op('fadvise', 0, fadvise(off_neg(4096), LEN_ZERO, ADV['willneed'])) + \
        op('fadvise', 0, fadvise(OFF_LLMIN, LEN_LLMIN, ADV['dontneed'])) + \
        op('fadvise', 0, fadvise(OFF_ZERO, LEN_NEG1, ADV['willneed']))
    s['fadvise-bad-fds'] = header() + b''.join(
        op('fadvise', 0, fadvise(OFF_ZERO, LEN_ZERO, ADV['willneed'],
                                 fd=u8(f))) for f in range(10, 16))
    s['readahead-syscall'] = header(size=(2, u32(3 << 20))) + \
        op('readahead', 0, readahead(OFF_ZERO, 0)) + op('drop', 0) + \
        op('readahead', 0, readahead(off_raw(-1), 2)) + \
        op('readahead', 0, readahead(OFF_LLMAX, 1, u16(100))) + \
        op('readahead', 0, readahead(OFF_ZERO, 4)) + \
        op('readahead', 0, readahead(OFF_ZERO, 3))
    s['readahead-bad-fds'] = header() + b''.join(
        op('readahead', 0, readahead(OFF_ZERO, 1, u16(4096), fd=u8(f)))
        for f in range(10, 16))
    s['debugfs'] = header() + b''.join(
        op('debugfs', 0, x) for x in (
            debugfs(0, valid=1), debugfs(0, b''), debugfs(0, b'0x1'),
            debugfs(0, b'1\ngarbage'), debugfs(0, b'99999999999'),
            debugfs(0, b' 1'), debugfs(2, b'0\n'), debugfs(2, b'1'),
            debugfs(3, b'1'), debugfs(0, valid=2))) + seq[:20]
    s['drop-and-reread'] = header(readers=2) + seq[:20] + op('drop', 0) + \
        op('read', 1, u8(0) + u8(2) + u8(15))
    s['fs-take-1'] = header(size=(2, u32(1 << 20))) + op('fs', 0, fs(3)) + \
        seq[:40]
    s['fs-expand-16'] = header(size=(7, u8(40))) + op('fs', 0, fs(0, 4)) + \
        seq[:40] + op('fault', 0, fault(4, 0, u8(0)))
    s['alloc-fail-sync'] = header() + b''.join(
        op('alloc_fail', 0, u8(b) + u8(0) + u8(0) + u16(7))
        for b in range(4))
    s['alloc-fail-force'] = header(size=(2, u32(2 << 20))) + \
        op('alloc_fail', 0, u8(3) + u8(3) + u8(0) + u8(0) + u8(3))
    s['unbounded-top'] = header() + op('unbounded', 0, u16(16) + u8(1) +
                                       u8(0) + u16(4) + u16(4))
    s['unbounded-past-eof'] = header(readers=2) + \
        op('unbounded', 1, u16(40) + u8(1) + u8(1) + u8(2) + u16(8))
    s['force-top'] = header() + op('force', 0, u8(1) + u16(3) + u8(5))
    s['sync-past-eof'] = header(size=(1, u16(9000))) + \
        op('sync', 0, u8(2) + u8(5) + u16(3))
    s['async-marker'] = header(readers=2) + op('read', 0, u8(0) + u8(1) +
                                               u16(100)) + \
        op('async_', 1, u8(0) + u16(3))
    s['reopen-ra-kb'] = header(readers=3) + seq[:12] + \
        op('ra_kb', 0, u8(9) + u8(7)) + op('reopen', 2) + \
        op('fadvise', 2, fadvise(OFF_ZERO, LEN_ZERO, ADV['normal'])) + \
        op('read', 2, read_next(4))
    s['large-folios'] = header(large=True, readers=2) + seq + \
        op('fault', 1, fault(3, 0, u64(3)))
    return s


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, data in sorted(seeds().items()):
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
