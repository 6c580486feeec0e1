#!/usr/bin/env python3
"""bench/limits/udp_busy.py - the control for busypoll.sh: a UDP socket on
port 9 (where xdplab gen sends) that receives for SECONDS, with busy
polling when the second argument is "busy" (SO_BUSY_POLL 50 us,
SO_PREFER_BUSY_POLL, SO_BUSY_POLL_BUDGET 64), non-blocking recv() in a
loop. Prints the socket's SO_INCOMING_NAPI_ID and the datagrams received.
A UDP socket learns its NAPI id from the skbs veth's NAPI hands to GRO, so
on the same veth it can busy-poll where an AF_XDP socket cannot.

    udp_busy.py SECONDS busy|plain
"""
import socket
import sys
import time

SO_BUSY_POLL, SO_INCOMING_NAPI_ID, SO_PREFER_BUSY_POLL, SO_BUSY_POLL_BUDGET = 46, 56, 69, 70
secs, mode = float(sys.argv[1]), sys.argv[2]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
if mode == "busy":
    s.setsockopt(socket.SOL_SOCKET, SO_BUSY_POLL, 50)
    s.setsockopt(socket.SOL_SOCKET, SO_PREFER_BUSY_POLL, 1)
    s.setsockopt(socket.SOL_SOCKET, SO_BUSY_POLL_BUDGET, 64)
s.bind(("0.0.0.0", 9))
s.setblocking(False)
print(f"udp socket napi id after bind: {s.getsockopt(socket.SOL_SOCKET, SO_INCOMING_NAPI_ID)}")
end, n = time.time() + secs, 0
while time.time() < end:
    for _ in range(256):
        try:
            s.recv(2048)
            n += 1
        except BlockingIOError:
            pass
print(f"udp socket napi id after {n} datagrams: {s.getsockopt(socket.SOL_SOCKET, SO_INCOMING_NAPI_ID)}, busy {mode}")
