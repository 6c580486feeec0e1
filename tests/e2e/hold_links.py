#!/usr/bin/env python3
"""hold_links.py SECONDS HOLD_MS: for SECONDS, open every bpf_link the kernel
has (BPF_LINK_GET_NEXT_ID / BPF_LINK_GET_FD_BY_ID, as bpftool link list does)
and keep the fds HOLD_MS before closing them: an observer that holds other
processes' links for a while, so a test sees what they leave attached."""
import ctypes, errno, os, sys, time

# The bpf(2) syscall number: x86_64 has its own; arm64, riscv64 and
# loongarch64 share the generic table (asm-generic/unistd.h).
SYS_BPF = {"x86_64": 321, "aarch64": 280, "riscv64": 280, "loongarch64": 280}.get(os.uname().machine)
BPF_LINK_GET_FD_BY_ID, BPF_LINK_GET_NEXT_ID = 30, 31
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


class Attr(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint32), ("next_id", ctypes.c_uint32),
                ("open_flags", ctypes.c_uint32), ("pad", ctypes.c_uint8 * 116)]


def bpf(cmd, attr):
    return libc.syscall(SYS_BPF, cmd, ctypes.byref(attr), ctypes.sizeof(attr))


def main():
    if SYS_BPF is None:
        sys.exit(f"hold_links.py: no bpf(2) number known for {os.uname().machine}")
    secs, hold = float(sys.argv[1]), float(sys.argv[2]) / 1000
    end = time.monotonic() + secs
    while time.monotonic() < end:
        fds, cur = [], 0
        while True:
            a = Attr(id=cur)
            if bpf(BPF_LINK_GET_NEXT_ID, a) < 0:
                err = ctypes.get_errno()
                # ENOENT ends the walk; anything else (EPERM...) would make
                # this holder hold nothing and its test pass for nothing.
                if err != errno.ENOENT:
                    sys.exit(f"hold_links.py: BPF_LINK_GET_NEXT_ID: {os.strerror(err)}")
                break
            cur = a.next_id
            b = Attr(id=cur)
            fd = bpf(BPF_LINK_GET_FD_BY_ID, b)
            if fd >= 0:
                fds.append(fd)
        time.sleep(hold)
        for fd in fds:
            os.close(fd)


if __name__ == "__main__":
    main()
