#!/usr/bin/env python3
"""bench/limits/classify.py - where each CPU's time per packet goes, from
`perf script -F comm,pid,tid,cpu,ip,sym` of a `perf record -a -g -e cpu-clock
-c PERIOD` (bench/limits/profile.sh).

    perf script -F comm,pid,tid,cpu,ip,sym -i perf.data |
        classify.py MODE PERIOD_NS PACKETS GEN_PIDS APP_PIDS

MODE is rxdrop, l2fwd or txpush (l2fwd's parts); GEN_PIDS and APP_PIDS are comma-separated
process ids of this lab's generator and AF_XDP application. Every sample
is one PERIOD_NS of one CPU. Samples of those processes (including the
softirq work that runs inside their syscalls, as veth's NAPI does in the
softirq wiring) are this lab's; each goes to the first part below whose
test its call chain passes, so NAPI work inside the generator's syscall
counts as NAPI, and a memcpy inside xsk_rcv as the copy into the UMEM.
ksoftirqd, idle and every other task are shown but are not this lab's
(other labs share the machine; ksoftirqd's work cannot be told apart).
Prints per CPU: each part's samples, its share of this lab's samples on
that CPU and its ns per packet (samples x PERIOD_NS / PACKETS).
"""
import re
import sys
from collections import defaultdict


def has(frames, pattern):
    rx = re.compile(pattern)
    return any(rx.search(f) for f in frames)


NAPI = r"^(veth_poll|__napi_poll|net_rx_action|napi_threaded_poll)"
XSK_RX = r"^(__xsk_rcv|xsk_rcv|__xsk_map_redirect|xsk_flush|__xsk_map_flush|xsk_generic_rcv)"
GEN = r"^(bpf_test_run_xdp_live|xdp_test_run_batch|bpf_prog_test_run_xdp|bpf_test_run)"
COPY = r"^(__pi_memcpy|memcpy|__memcpy|memcpy_orig|memcpy_erms|xsk_copy_xdp|copy_page)"
LIVE_XMIT = r"^(veth_xdp_xmit|veth_ndo_xdp_xmit|bq_xmit_all|__dev_flush|dev_map_enqueue)"
TX = r"^(xsk_generic_xmit|__xsk_generic_xmit|__xsk_sendmsg|xsk_sendmsg)"


TRACE = "tracepoint BPF programs (any session's xdp monitor)"


def classifier(own):
    """A mode's classifier: the tracepoint programs first, then the mode's
    own parts (own(frames, leaf), None when none is), then the generator's
    live-frame xmit and its BPF_PROG_RUN, which every mode shares."""
    def part(fr):
        leaf = fr[0] if fr else ""
        if has(fr, r"^(bpf_trace_run|perf_trace_xdp|perf_tp_event)"):
            return TRACE
        p = own(fr, leaf)
        if p is not None:
            return p
        if has(fr, LIVE_XMIT):
            return "veth xmit of live frames (ndo_xdp_xmit)"
        if has(fr, GEN):
            return "generator: BPF_PROG_RUN live frames"
        return None
    return part


@classifier
def part_rxdrop(fr, leaf):
    if has(fr, XSK_RX):
        return "copy into the UMEM (memcpy in xsk_rcv)" if re.search(COPY, leaf) else \
            "xsk_rcv, rest (rings, flush, wake-up)"
    if has(fr, NAPI):
        if has(fr, r"^(bpf_prog_|xdp_do_redirect|bpf_xdp_redirect_map|__bpf_xdp_redirect_map)"):
            return "XDP program + redirect, in veth NAPI"
        return "veth NAPI, rest (veth_poll, ptr_ring consume)"
    return None


@classifier
def part_l2fwd(fr, leaf):
    if has(fr, XSK_RX):
        return "RX: copy into the UMEM (memcpy in xsk_rcv)" if re.search(COPY, leaf) else \
            "RX: xsk_rcv, rest"
    if has(fr, r"^skb_store_bits"):
        return "TX: copy of the frame into the skb (skb_store_bits)"
    if has(fr, r"^(xsk_destruct_skb|sock_wfree|consume_skb|kfree_skb|__kfree_skb|skb_release|kfree_skbmem|xsk_consume_skb)"):
        return "TX: skb free + completion (destructor)"
    if has(fr, r"^(xsk_build_skb|sock_alloc_send_pskb|sock_alloc_send_skb|alloc_skb_with_frags|__alloc_skb)"):
        return "TX: skb alloc + build (xsk_build_skb)"
    if has(fr, NAPI):
        if has(fr, r"^(veth_xdp_rcv_skb|veth_convert_skb_to_xdp_buff)"):
            return "generator end's NAPI: the skb to XDP (drop)"
        return "veth NAPI + XDP, rest (DUT end on CPU0, generator end on CPU1)"
    if has(fr, r"^(veth_xmit|veth_forward_skb|__dev_direct_xmit|dev_direct_xmit|veth_xdp_rx|__dev_forward_skb)"):
        return "TX: veth xmit of the skb (direct xmit)"
    if has(fr, TX):
        return "TX: xsk_generic_xmit, rest (sendmsg, ring)"
    return None


HEADER = re.compile(r"^\s*(\S.*?)\s+(\d+)/(\d+)\s+\[(\d+)\]\s*$")
FRAME = re.compile(r"^\s+([0-9a-f]+)\s+(\S+)")
NOT_OURS = ("idle", "ksoftirqd (any lab's NAPI)", "other tasks (not this lab)")


def main():
    mode, period, packets = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    gen = {int(p) for p in sys.argv[4].split(",") if p}
    app = {int(p) for p in sys.argv[5].split(",") if p}
    part = part_rxdrop if mode == "rxdrop" else part_l2fwd  # txpush: l2fwd's TX parts
    counts = defaultdict(lambda: defaultdict(int))
    leaf = defaultdict(lambda: defaultdict(int))
    chain = defaultdict(lambda: defaultdict(int))
    cur = None

    def flush(s):
        if s is None:
            return
        comm, pid, cpu, fr, user = s
        if pid in gen or pid in app:
            cat = part(fr)
            who = "generator" if pid in gen else "application"
            if cat is None:
                cat = f"{who}: user space" if user else f"{who}: kernel, rest (syscalls)"
            leaf[cpu][" <- ".join(fr[:2]) if fr else "?"] += 1
            chain[cpu][(" <- ".join(fr[:2]), " <- ".join(fr[:7]), cat)] += 1
        elif comm.startswith("swapper") or has(fr, r"^(default_idle|cpuidle_|do_idle|pv_native_safe_halt)"):
            cat = "idle"
        elif comm.startswith("ksoftirqd"):
            cat = "ksoftirqd (any lab's NAPI)"
        else:
            cat = "other tasks (not this lab)"
        counts[cpu][cat] += 1

    for line in sys.stdin:
        m = HEADER.match(line)
        if m:
            flush(cur)
            cur = [m.group(1), int(m.group(2)), int(m.group(4)), [], False]
            continue
        m = FRAME.match(line)
        if m and cur is not None:
            if not cur[3] and not m.group(1).startswith("ffff"):
                cur[4] = True  # the leaf is a user-space address
            cur[3].append(m.group(2).split("+")[0])
    flush(cur)
    if packets <= 0:
        print("no packets counted")
        return
    for c in sorted(counts):
        tot = sum(counts[c].values())
        ours = sum(v for k, v in counts[c].items() if k not in NOT_OURS)
        print(f"CPU{c}: {tot} samples of {period / 1e3:.0f} us; this lab's {ours} "
              f"({100 * ours / tot:.1f}% of the CPU), {ours * period / packets:.1f} ns/packet")
        for k, v in sorted(counts[c].items(), key=lambda kv: -kv[1]):
            share = f"{100 * v / ours:5.1f}%" if ours and k not in NOT_OURS else "     -"
            print(f"  {share}  {v * period / packets:7.1f} ns/pkt  {v:6d}  {k}")
        top = sorted(leaf[c].items(), key=lambda kv: -kv[1])[:8]
        if ours:
            print("  top leaf <- caller of this lab's samples:")
            for s, v in top:
                print(f"    {100 * v / ours:5.1f}%  {s}")
            for s, _ in top[:3]:
                ch = sorted(((k, v) for k, v in chain[c].items() if k[0] == s), key=lambda kv: -kv[1])
                if ch:
                    (_, deep, cat), v = ch[0]
                    print(f"      most common chain of {s.split(' <- ')[0]} ({100 * v / ours:.1f}%, in '{cat}'): {deep}")


if __name__ == "__main__":
    main()
