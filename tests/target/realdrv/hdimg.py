#!/usr/bin/env python3
"""hdimg.py — disk images for the real-driver runs (tests/target/realdrv/run-hd.sh).

The stamp is eio_probe's (tests/target/probe/eio_probe.c): the 8-byte little-endian
word at byte offset OFF of a disk stamped with SEED holds OFF ^ (SEED * 0x9e3779b97f4a7c15)
(mod 2^64), so every sector says where it belongs and which write put it there.

  hdimg.py stamp FILE BYTES SEED            create FILE, BYTES long, stamped with SEED
  hdimg.py apply FILE OFF LEN SEED          stamp [OFF, OFF + LEN) of FILE with SEED
  hdimg.py compare ACTUAL EXPECTED          byte for byte; exit 1 and say which sectors
                                            differ and what they hold
  hdimg.py mbr FILE                         exit 1 if sector 0 ends in 0x55 0xAA
"""
import struct
import sys

MASK = 0x9E3779B97F4A7C15
M64 = (1 << 64) - 1
SECTOR = 512
WORDS = SECTOR // 8


def mask(seed):
    return (seed * MASK) & M64


def sector_bytes(off, seed):
    m = mask(seed)
    return struct.pack('<%dQ' % WORDS, *[(off + i * 8) ^ m for i in range(WORDS)])


def stamp_region(f, off, length, seed):
    if off % SECTOR or length % SECTOR:
        raise SystemExit('hdimg: %d/%d not in whole sectors' % (off, length))
    f.seek(off)
    chunk = []
    for s in range(off, off + length, SECTOR):
        chunk.append(sector_bytes(s, seed))
        if len(chunk) == 256:
            f.write(b''.join(chunk))
            chunk = []
    f.write(b''.join(chunk))


def describe(data, off, seeds=range(0, 65)):
    """What a sector at OFF holds: its own stamp, another's, zeros or something else."""
    if data == bytes(len(data)):
        return 'zeros'
    w0 = struct.unpack_from('<Q', data)[0]
    for seed in seeds:
        at = w0 ^ mask(seed)
        if at % SECTOR == 0 and at < (1 << 40) and sector_bytes(at, seed) == data:
            where = 'its own' if at == off else 'sector %d\'s' % (at // SECTOR)
            return '%s stamp, seed %d' % (where, seed)
    # A partial sector: how many of its words carry their own stamp, of which seed.
    for seed in seeds:
        good = sector_bytes(off, seed)
        n = sum(data[i:i + 8] == good[i:i + 8] for i in range(0, SECTOR, 8))
        if n:
            return '%d/%d words of its own stamp seed %d, the rest unknown' % (n, WORDS, seed)
    return 'unknown data (first word %#x)' % w0


def compare(actual, expected, show=6):
    with open(actual, 'rb') as fa, open(expected, 'rb') as fe:
        a = fa.read()
        e = fe.read()
    if a == e:
        print('identical, %d bytes' % len(a))
        return 0
    if len(a) != len(e):
        print('sizes differ: %d bytes, want %d' % (len(a), len(e)))
        return 1
    bad = [s for s in range(0, len(a), SECTOR) if a[s:s + SECTOR] != e[s:s + SECTOR]]
    lines = []
    for s in bad[:show]:
        lines.append('sector %d holds %s, want %s' % (
            s // SECTOR, describe(a[s:s + SECTOR], s), describe(e[s:s + SECTOR], s)))
    print('%d sectors differ (first %d): %s' % (len(bad), bad[0] // SECTOR, '; '.join(lines)))
    return 1


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == 'stamp' and len(args) == 3:
        with open(args[0], 'wb') as f:
            stamp_region(f, 0, int(args[1]), int(args[2]))
        return 0
    if cmd == 'apply' and len(args) == 4:
        with open(args[0], 'r+b') as f:
            stamp_region(f, int(args[1]), int(args[2]), int(args[3]))
        return 0
    if cmd == 'compare' and len(args) == 2:
        return compare(args[0], args[1])
    if cmd == 'mbr' and len(args) == 1:
        with open(args[0], 'rb') as f:
            s0 = f.read(SECTOR)
        return 1 if s0[510:512] == b'\x55\xaa' else 0
    raise SystemExit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
