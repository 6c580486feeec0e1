#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Write a loaded BPF program's JITed image (raw machine code) to a file.

usage: jited.py PROG_ID OUT.bin

bpftool prints the JITed code only when it was built with libbfd (Debian's
is not); this asks the kernel directly: BPF_PROG_GET_FD_BY_ID, then
BPF_OBJ_GET_INFO_BY_FD twice (the sizes, then the image into a buffer), the
layout of struct bpf_prog_info and union bpf_attr in linux/bpf.h. Disassemble
the file with: objdump -D -b binary -mi386:x86-64 OUT.bin (x86-64 hosts).
Needs root (CAP_SYS_ADMIN) and kernel.bpf_jit_enable.
"""
import ctypes
import os
import struct
import sys

BPF_PROG_GET_FD_BY_ID = 13
BPF_OBJ_GET_INFO_BY_FD = 15
SYS_BPF = {"x86_64": 321, "aarch64": 280}[os.uname().machine]
INFO_LEN = 256  # more than the fields read here; the kernel zero-fills the rest

libc = ctypes.CDLL(None, use_errno=True)


def bpf(cmd, attr):
    buf = ctypes.create_string_buffer(attr, 128)
    r = libc.syscall(SYS_BPF, cmd, buf, 128)
    if r < 0:
        e = ctypes.get_errno()
        sys.exit(f"jited.py: bpf({cmd}): {os.strerror(e)}")
    return r


def info(fd, jited_buf=None):
    raw = ctypes.create_string_buffer(INFO_LEN)
    if jited_buf is not None:
        # jited_prog_len (offset 16), jited_prog_insns (offset 24)
        struct.pack_into("I", raw, 16, len(jited_buf))
        struct.pack_into("Q", raw, 24, ctypes.addressof(jited_buf))
    bpf(BPF_OBJ_GET_INFO_BY_FD, struct.pack("IIQ", fd, INFO_LEN, ctypes.addressof(raw)))
    return struct.unpack_from("I", raw, 16)[0]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: jited.py PROG_ID OUT.bin")
    fd = bpf(BPF_PROG_GET_FD_BY_ID, struct.pack("III", int(sys.argv[1]), 0, 0))
    n = info(fd)
    if not n:
        sys.exit("jited.py: the program has no JITed image (bpf_jit_enable 0?)")
    img = ctypes.create_string_buffer(n)
    info(fd, img)
    with open(sys.argv[2], "wb") as f:
        f.write(img.raw)


if __name__ == "__main__":
    main()
