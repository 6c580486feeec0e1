#!/usr/bin/env python3
"""Write the project's own capture for tests/e2e/prog.sh: one frame of each
class the example filter decides on, in a fixed order (the test knows each
frame's class and action). usage: mkpcap.py OUT.pcap"""
import struct
import sys

DST, SRC = bytes.fromhex("02584c000002"), bytes.fromhex("02584c000001")


def ip4(src, proto, payload):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0, 0, 64, proto, 0,
                    bytes(map(int, src.split("."))), bytes([198, 18, 0, 2]))
    return h + payload


def udp(sport, dport=9, n=18):
    return struct.pack("!HHHH", sport, dport, 8 + n, 0) + bytes(n)


def tcp():
    return struct.pack("!HHIIBBHHH", 1024, 80, 0, 0, 0x50, 0x02, 0xFFFF, 0, 0)


def eth(et, payload, vlan=None):
    tag = struct.pack("!HH", 0x8100, vlan) if vlan is not None else b""
    f = DST + SRC + tag + struct.pack("!H", et) + payload
    return f + bytes(max(0, 60 - len(f)))


frames = [
    eth(0x0800, ip4("198.18.0.1", 17, udp(1024))),            # ipv4/udp pass
    eth(0x0800, ip4("198.18.1.9", 17, udp(1024))),            # ipv4/udp blocked prefix
    eth(0x0800, ip4("198.18.0.1", 17, udp(123))),             # ipv4/udp NTP reflection
    eth(0x0800, ip4("198.19.7.7", 6, tcp())),             # ipv4/tcp blocked prefix
    eth(0x0800, ip4("198.18.0.1", 6, tcp())),             # ipv4/tcp pass
    eth(0x0800, ip4("198.18.1.1", 1, bytes(8)), vlan=5),      # vlan/ipv4/icmp blocked
    eth(0x0806, bytes(28)),                                   # arp pass
    eth(0x86DD, struct.pack("!IHBB16s16s", 0x60000000, 8, 17, 64, bytes(16), bytes(16)) +
        udp(123, n=0)),                                       # ipv6/udp pass (v6 not filtered)
]
with open(sys.argv[1], "wb") as out:
    out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for f in frames:
        out.write(struct.pack("<IIII", 0, 0, len(f), len(f)) + f)
