#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Write the project's own test captures (classic pcap, Ethernet) into DIR.

    scripts/make-test-pcaps.py DIR

The capture-replay tests (tests/e2e: pcap-replay, pcap-oversize,
pcap-malformed, pcap-loop, bad-pcap-threads) and the parser tests
(tests/unit: test_pkt's capture parse, test_bpf_ops) run on these, so they
need nothing outside the clone; ../shared/corpus adds cases where present.
Every file is made the same way each time (fixed MACs, addresses, ports,
payload bytes and timestamps), so a test can assert exact counts:

  mixed.pcap             14 frames: IPv4/UDP 64, 128 and 1514 B, 802.1Q and
                         802.1ad+802.1Q (QinQ) tags, IPv4 options, an IPv4
                         first fragment, IPv6/UDP, IPv6 Hop-by-Hop (16 B) then
                         Fragment then UDP (L4 at 78), IPv6 Routing then
                         Destination Options then TCP, an IPv6 non-first
                         fragment, ARP (42 B: shorter than 60), LLDP (60 B)
  oversize.pcap          5 frames, 2 of them longer than 1514 B (2000, 9014)
  only-oversize.pcap     1 frame of 2000 B: nothing can be sent at MTU 1500
  runts.pcap             6 records: 2 shorter than 14 B (10 B and empty),
                         2 of 14..59 B, 2 of 64 B
  snaplen-cut.pcap       4 frames of 200..1500 B captured with snaplen 96
                         (caplen 96 < len)
  truncated-record.pcap  3 whole records, then one whose data the file cuts
                         short (the header says 200 B, 50 follow)
  bigendian-ns.pcap      3 frames in a big-endian, nanosecond capture
"""
import os
import struct
import sys

GEN_MAC = bytes.fromhex("02584c000001")
DUT_MAC = bytes.fromhex("02584c000002")
SRC4, DST4 = bytes([198, 18, 0, 1]), bytes([198, 18, 0, 2])
SRC6 = bytes.fromhex("20010002000000000000000000000001")
DST6 = bytes.fromhex("20010002000000000000000000000002")


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def payload(n, seed):
    return bytes((seed + i) & 0xFF for i in range(n))


def eth(proto, tags=()):
    h = DUT_MAC + GEN_MAC
    for tpid, vid in tags:
        h += struct.pack("!HH", tpid, vid)
    return h + struct.pack("!H", proto)


def l4(proto, src, dst, body, pseudo):
    """UDP (17) or TCP (6) segment with its checksum over @pseudo."""
    if proto == 17:
        seg = struct.pack("!HHHH", 1024, 9, 8 + len(body), 0) + body
        c = csum(pseudo(17, len(seg)) + seg) or 0xFFFF
        return seg[:6] + struct.pack("!H", c) + seg[8:]
    seg = struct.pack("!HHIIBBHHH", 1024, 9, 1, 0, 5 << 4, 0x18, 1024, 0, 0) + body
    c = csum(pseudo(6, len(seg)) + seg)
    return seg[:16] + struct.pack("!H", c) + seg[18:]


def ipv4(body_proto, body, opts=b"", frag=0, l4seg=True):
    p4 = lambda proto, n: SRC4 + DST4 + struct.pack("!BBH", 0, proto, n)
    seg = l4(body_proto, SRC4, DST4, body, p4) if l4seg else body
    ihl = (20 + len(opts)) // 4
    h = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, 20 + len(opts) + len(seg), 1, frag, 64,
                    body_proto, 0, SRC4, DST4) + opts
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return h + seg


def ipv6(nh, rest):
    return struct.pack("!IHBB", 6 << 28, len(rest), nh, 64) + SRC6 + DST6 + rest


def p6(proto, n):
    return SRC6 + DST6 + struct.pack("!IxxxB", n, proto)


def udp4_frame(size, seed, tags=(), opts=b""):
    hl = 14 + 4 * len(tags) + 20 + len(opts) + 8
    return eth(0x0800, tags) + ipv4(17, payload(size - hl, seed), opts)


def mixed():
    f = []
    f.append(udp4_frame(64, 1))
    f.append(udp4_frame(128, 2))
    f.append(udp4_frame(1514, 3))
    f.append(udp4_frame(100, 4, tags=((0x8100, 100),)))
    f.append(eth(0x0800, ((0x88A8, 200), (0x8100, 100))) + ipv4(6, payload(40, 5)))
    f.append(udp4_frame(90, 6, opts=bytes([0x94, 4, 0, 0, 1, 1, 1, 0])))  # router alert, NOPs, EOL
    # IPv4 first fragment (MF): the UDP length says more than is here.
    first = ipv4(17, payload(64, 7))
    first = bytearray(first)
    first[6:8] = struct.pack("!H", 0x2000)
    first[10:12] = b"\0\0"
    first[10:12] = struct.pack("!H", csum(bytes(first[:20])))
    f.append(eth(0x0800) + bytes(first))
    f.append(eth(0x86DD) + ipv6(17, l4(17, SRC6, DST6, payload(100, 8), p6)))
    # Hop-by-Hop of 16 bytes (PadN), then Fragment (offset 0, M=0), then UDP: L4 at 78.
    hbh = bytes([44, 1, 1, 12]) + bytes(12)
    frag = bytes([17, 0, 0, 0]) + struct.pack("!I", 0x12345678)
    f.append(eth(0x86DD) + ipv6(0, hbh + frag + l4(17, SRC6, DST6, payload(40, 9), p6)))
    # Routing type 4 with 0 segments left (24 bytes), Destination Options (8), TCP.
    rh = bytes([60, 2, 4, 0, 0, 0, 0, 0]) + DST6
    do = bytes([6, 0, 1, 4, 0, 0, 0, 0])
    f.append(eth(0x86DD) + ipv6(43, rh + do + l4(6, SRC6, DST6, payload(20, 10), p6)))
    # Non-first fragment: offset 185 * 8, no L4 header.
    nff = bytes([17, 0]) + struct.pack("!H", 185 << 3) + struct.pack("!I", 0x12345678)
    f.append(eth(0x86DD) + ipv6(44, nff + payload(64, 11)))
    arp = struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) + GEN_MAC + SRC4 + bytes(6) + DST4
    f.append(bytes(6 * [0xFF]) + GEN_MAC + struct.pack("!H", 0x0806) + arp)
    f.append(bytes.fromhex("0180c200000e") + GEN_MAC + struct.pack("!H", 0x88CC) + payload(46, 12))
    f.append(udp4_frame(64, 13))
    return [(x, len(x)) for x in f]


def write(path, records, snaplen=65535, big_endian=False, nsec=False, cut_last=None):
    e = ">" if big_endian else "<"
    magic = 0xA1B23C4D if nsec else 0xA1B2C3D4
    out = struct.pack(e + "IHHiIII", magic, 2, 4, 0, 0, snaplen, 1)
    for i, (data, wire_len) in enumerate(records):
        cap = data[:snaplen]
        sec, frac = 1700000000 + i, (i * 1000) % 1000000
        out += struct.pack(e + "IIII", sec, frac * (1000 if nsec else 1), len(cap), wire_len) + cap
    if cut_last is not None:
        out = out[: len(out) - cut_last]
    with open(path, "wb") as fh:
        fh.write(out)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make-test-pcaps.py DIR")
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    write(os.path.join(d, "mixed.pcap"), mixed())
    normal = [(udp4_frame(n, n), n) for n in (64, 512, 1514)]
    big = [(udp4_frame(n, n), n) for n in (2000, 9014)]
    write(os.path.join(d, "oversize.pcap"), [normal[0], big[0], normal[1], big[1], normal[2]])
    write(os.path.join(d, "only-oversize.pcap"), [big[0]])
    runt = udp4_frame(64, 20)
    write(os.path.join(d, "runts.pcap"),
          [(runt, 64), (runt[:10], 64), (b"", 0), (runt[:14], 14), (runt[:42], 42), (udp4_frame(64, 21), 64)])
    write(os.path.join(d, "snaplen-cut.pcap"),
          [(udp4_frame(n, n), n) for n in (200, 600, 1000, 1500)], snaplen=96)
    trunc = [(udp4_frame(n, n), n) for n in (64, 300, 700, 200)]
    write(os.path.join(d, "truncated-record.pcap"), trunc, cut_last=150)
    write(os.path.join(d, "bigendian-ns.pcap"), [(udp4_frame(n, n), n) for n in (64, 333, 1400)],
          big_endian=True, nsec=True)


if __name__ == "__main__":
    main()
