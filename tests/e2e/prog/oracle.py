#!/usr/bin/env python3
"""Expected action of examples/ddos_filter for every frame of a capture (an
independent re-reading of the filter's rules, the test oracle of
tests/e2e/prog.sh): one line per frame, its number, bytes and XDP_DROP or
XDP_PASS. Frames shorter than 14 bytes are skipped (the capture loader skips
them as runts).
usage: oracle.py FILE.pcap"""
import ipaddress
import struct
import sys

BLOCKED = [ipaddress.ip_network(n) for n in ("198.18.1.0/24", "198.19.0.0/16")]
PORTS = {19, 123, 1900, 11211}


def action(f):
    if len(f) < 14:
        return "XDP_DROP"
    proto = struct.unpack("!H", f[12:14])[0]
    pos = 14
    if proto in (0x8100, 0x88A8):
        if len(f) < pos + 4:
            return "XDP_DROP"
        proto = struct.unpack("!H", f[pos + 2:pos + 4])[0]
        pos += 4
    if proto != 0x0800:
        return "XDP_PASS"
    if len(f) < pos + 20:
        return "XDP_DROP"
    src = ipaddress.ip_address(f[pos + 12:pos + 16])
    if any(src in n for n in BLOCKED):
        return "XDP_DROP"
    if f[pos + 9] != 17:
        return "XDP_PASS"
    ihl = f[pos] & 0x0F
    udp = pos + ihl * 4
    if ihl < 5 or len(f) < udp + 8:
        return "XDP_PASS"
    sport = struct.unpack("!H", f[udp:udp + 2])[0]
    return "XDP_DROP" if sport in PORTS else "XDP_PASS"


def frames(path):
    data = open(path, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    end = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    off = 24
    while off + 16 <= len(data):
        _, _, caplen, _ = struct.unpack(end + "IIII", data[off:off + 16])
        yield data[off + 16:off + 16 + caplen]
        off += 16 + caplen


# "NUMBER BYTES ACTION": the frame's number in the capture (from 1) and its
# length, so that a reader can leave out the frames prog-run did not run.
for num, fr in enumerate(frames(sys.argv[1]), 1):
    if len(fr) >= 14:
        print(num, len(fr), action(fr))
