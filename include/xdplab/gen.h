/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file gen.h
 * The traffic generator: engine "live" (BPF_PROG_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES redirecting out of the interface, kernel 5.18+)
 * and engine "packet" (AF_PACKET, PACKET_QDISC_BYPASS, sendmmsg batches),
 * single or many flows, any frame size, pcap replay, rate limiting.
 */
#ifndef XDPLAB_GEN_H
#define XDPLAB_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/pace.h"

#include "xdplab/pkt.h"
#include "xdplab/abi/gen.h"

/** Generator engines. */
enum xl_gen_engine {
	XL_ENGINE_LIVE = 0,   /**< BPF_PROG_RUN live frames + bpf_redirect */
	XL_ENGINE_PACKET = 1, /**< AF_PACKET + PACKET_QDISC_BYPASS + sendmmsg */
};

/** xl_gen_engine_name() - "live" or "packet". */
const char *xl_gen_engine_name(enum xl_gen_engine e);

/** Most generator threads. */
#define XL_GEN_MAX_THREADS 64

/**
 * struct xl_gen_opts - what to send.
 * @engine: the engine; XL_ENGINE_LIVE falls back to packet (with a notice)
 *          when live frames are unavailable, unless @engine_forced.
 * @ifname: interface to send out of, in the namespace @netns_fd (or the
 *          current one when @netns_fd < 0).
 * @spec: the template frame (addresses, ports, size in bytes).
 * @flows: number of L4 source ports, spec.src_port .. +flows-1 (1..65536).
 * @dst_ports: number of destination ports, spec.dst_port .. +dst_ports-1
 *             (--dyn-ports; 0 or 1: one).
 * @src_addrs: number of source addresses, spec's + 0 .. src_addrs-1 in the
 *             low 16 bits (0 or 1: one). @flows x @dst_ports x @src_addrs
 *             flows in all, at most XL_GEN_MAX_FLOWS.
 * @rate_pps: total frames per second over all threads; 0 = as fast as possible.
 * @count: total frames to send over all threads; 0 = no limit.
 * @duration_ns: stop after this long; 0 = no limit.
 * @threads: sending threads (1..XL_GEN_MAX_THREADS), pinned to CPUs
 *           @first_cpu, @first_cpu+1, ... modulo the online CPUs; @first_cpu
 *           < 0 leaves them unpinned.
 * @pcap_path: replay this capture's frames in order instead of @spec
 *             (packet engine); once when neither @count nor @duration_ns is set.
 * @batch: live engine: frames per batch inside one BPF_PROG_RUN call
 *         (the kernel's batch_size: frames run, then the redirects flushed
 *         as devmap bulks of up to 16), 1..XL_GEN_MAX_BATCH; 0 = 64, the
 *         kernel's default. 1 flushes every frame on its own (one
 *         xdp_devmap_xmit event per frame per redirect hop).
 * @imix: send the XL_GEN_IMIX cycle of sizes, @spec's headers at each
 *         (packet engine, one flow: xl_gen_opts_check()), again and again.
 * @stamp: write a stamp (struct xl_stamp, abi/latency.h: the pktgen header
 *         with a sequence number and the CLOCK_MONOTONIC send time) at the
 *         start of the UDP payload of every frame, UDP checksum kept valid,
 *         for the latency receiver (docs/latency.md): the live program
 *         writes it, the packet engine in user space before sendmmsg. One
 *         thread, no pcap, and a frame that holds it (IPv4 >= 62 bytes,
 *         IPv6 >= 82): xl_gen_opts_check().
 */
struct xl_gen_opts {
	enum xl_gen_engine engine;
	bool engine_forced;
	const char *ifname;
	int netns_fd;
	struct xl_pkt_spec spec;
	uint32_t flows;
	uint64_t rate_pps;
	uint64_t count;
	uint64_t duration_ns;
	int threads;
	int first_cpu;
	const char *pcap_path;
	uint32_t batch;
	bool stamp;
	uint32_t dst_ports, src_addrs;
	bool imix;
};

/**
 * XL_GEN_IMIX - the simple IMIX (@imix of struct xl_gen_opts), frame sizes
 * in bytes without FCS, one cycle of 12 in the order sent: 7 of 60, 4 of
 * 590 and 1 of 1514 (64, 594 and 1518 on the wire with the FCS, 7:4:1 as
 * TRex's and MoonGen's imix), interleaved so no size comes in a run of more
 * than two. Mean 357.83 bytes.
 */
#define XL_GEN_IMIX { 60, 590, 60, 60, 590, 60, 1514, 60, 590, 60, 60, 590 }
#define XL_GEN_IMIX_N 12

/* Largest live-frames batch the kernel accepts (TEST_XDP_MAX_BATCH), and
 * its default (NAPI_POLL_WEIGHT), which is ours. */
#define XL_GEN_MAX_BATCH 256
#define XL_GEN_DEFAULT_BATCH 64

/**
 * struct xl_gen_stats - totals so far, summed over threads.
 * @sent: frames handed to the kernel (live: redirected by the program;
 *        packet: accepted by sendmmsg).
 * @bytes: their bytes (without FCS).
 * @xmit_errors: frames the device failed to transmit (veth: the sum of
 *        tx_queue_N_xdp_xmit_errors deltas over its queues; 0 where unknown).
 * @elapsed_ns: from the start of the threads to the end of the last one
 *        (or to now while one is running); 0 before xl_gen__start().
 * @pcap_frames: frames read from the capture; @pcap_oversize: skipped as
 *        larger than MTU+14; @pcap_runt: skipped as shorter than the 14-byte
 *        Ethernet header; @pcap_short: sent though shorter than 60 bytes;
 *        @pcap_truncated: captured shorter than on the wire (snaplen), sent
 *        as captured.
 * @pace: with a rate, what the threads' pacers did (xdplab/pace.h: the
 *        catch-up after a stall is capped): times they fell behind, frames'
 *        worth of schedule the cap deferred (with a count every frame is
 *        still sent, that much later; without one they are not sent), the
 *        depths summed (each: its rate's frames of 1 ms, at least 8, or of
 *        twice the engine's time per send call when longer) and the largest
 *        catch-up one thread sent at once; all 0 unpaced.
 */
struct xl_gen_stats {
	uint64_t sent;
	uint64_t bytes;
	uint64_t xmit_errors;
	uint64_t elapsed_ns;
	uint64_t pcap_frames;
	uint64_t pcap_oversize;
	uint64_t pcap_runt;
	uint64_t pcap_short;
	uint64_t pcap_truncated;
	struct xl_pace_stats pace;
};

struct xl_gen;

/**
 * xl_gen_opts_check() - the rules between options, which xl_gen__create()
 * also applies (so no caller can skip them): --pcap only with one thread
 * (each thread would replay the whole capture), --pcap not with a forced
 * live engine, --batch only for the live engine, --stamp only with one
 * thread, no pcap and a frame that holds the stamp; --imix with headers
 * its 60-byte frames hold (not IPv6); at most
 * XL_GEN_MAX_FLOWS flows in all, and ranges that stay within 16 bits.
 * Return: 0 or -EINVAL with one line in @msg (@len bytes).
 */
int xl_gen_opts_check(const struct xl_gen_opts *o, char *msg, size_t len);

/**
 * xl_gen__create() - validate, resolve the interface, build the frames,
 * load the BPF program (live) or open the sockets (packet). Nothing is sent.
 * Return: a generator (free with xl_gen__destroy()) or NULL with errno set:
 * ENODEV (no such interface), EINVAL (bad option, message logged),
 * EMSGSIZE (size above MTU+14), EPERM (no BPF/raw socket permission),
 * ENOENT/EBADF (pcap missing/not readable as pcap), EPROTO (pcap link type
 * not Ethernet), ENOMSG (pcap has no sendable frame).
 */
struct xl_gen *xl_gen__create(const struct xl_gen_opts *opts);

/** xl_gen__engine() - the engine actually in use after any fallback. */
enum xl_gen_engine xl_gen__engine(const struct xl_gen *gen);

/**
 * xl_gen__preflight() - first whether the interface can pass traffic at
 * all (xl_link_down_cause(): down, its veth peer down, no carrier); then,
 * for the live engine on veth, the peer's XDP program (netlink,
 * IFLA_TARGET_NETNSID) and GRO state (ethtool, in the peer's namespace when
 * it is a named one): frames redirected into a veth whose peer has no NAPI
 * (no XDP program, GRO off) are all dropped.
 * Sends nothing. Return: 0 (fine, unknown, or not veth), -ENETDOWN (the
 * link cannot pass traffic) or -ENETUNREACH (no NAPI at the peer), with
 * the cause logged; -errno if the generator's namespace cannot be entered.
 */
int xl_gen__preflight(struct xl_gen *gen);

/** xl_gen__start() - start the sending threads. Return 0 or -errno. */
int xl_gen__start(struct xl_gen *gen);

/** xl_gen__stop() - ask the threads to stop (async-signal-safe). */
void xl_gen__stop(struct xl_gen *gen);

/** xl_gen__done() - true once every thread has finished (count/duration reached, stopped or failed). */
bool xl_gen__done(const struct xl_gen *gen);

/**
 * xl_gen__join() - wait for the threads. Return: 0, or the first thread
 * error (-errno, e.g. -ENXIO when the interface vanished).
 */
int xl_gen__join(struct xl_gen *gen);

/**
 * xl_gen__runtime_ns() - CPU time used so far by the sending threads, in ns,
 * summed (/proc/TID/schedstat, steal excluded). A live-frames thread runs
 * the redirect flush and, when the receiving NAPI is in softirq on the same
 * CPU, that NAPI too, inline: its runtime is then the CPU cost of the whole
 * chain. 0 before xl_gen__start() or when a thread's time is unreadable
 * (never a partial sum).
 */
uint64_t xl_gen__runtime_ns(const struct xl_gen *gen);

/**
 * xl_gen__runtime() - as xl_gen__runtime_ns(), telling a failed read apart:
 * Return: 0 with *@ns (0 before the threads run), or -EIO when a running
 * thread's schedstat could not be read (*@ns 0).
 */
int xl_gen__runtime(const struct xl_gen *gen, uint64_t *ns);

/** xl_gen__read() - the totals so far (callable while running). */
void xl_gen__read(struct xl_gen *gen, struct xl_gen_stats *stats);

/** xl_gen__destroy() - stop, join, free everything. NULL is fine. */
void xl_gen__destroy(struct xl_gen *gen);

/**
 * xl_gen_flow_make() - flow @f of the template @spec: source port
 * @spec->src_port + @sport_i, destination port @spec->dst_port + @dport_i,
 * source address @spec's plus @saddr_i in its low 16 bits, and the
 * checksums of the frame xl_pkt_build() makes with them.
 * Return: 0, or the builder's -errno.
 */
int xl_gen_flow_make(const struct xl_pkt_spec *spec, uint32_t sport_i, uint32_t dport_i,
		     uint32_t saddr_i, struct xl_gen_flow *f);

/**
 * xl_gen_live_frame_max() - the longest frame the live engine can send on
 * this kernel (bytes), or 0 when it cannot be told. BPF_PROG_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES puts each frame in one page after XDP's
 * 256-byte headroom and the kernel's struct xdp_page_head, with
 * skb_shared_info at the page's end, and refuses a longer frame with
 * EINVAL (kernel net/bpf/test_run.c, bpf_prog_test_run_xdp()). Measured,
 * not assumed: the linear room of a non-live run of a 4096-byte frame
 * (data_end - data of its context out: a page less the headroom and
 * skb_shared_info) less sizeof(struct xdp_page_head) from the kernel's
 * BTF (112 bytes on 6.18: 3408 on x86-64 with 4 KiB pages). Runs nothing
 * live; the result is kept after the first call.
 */
uint32_t xl_gen_live_frame_max(void);

/**
 * xl_gen_live_check() - whether this host runs BPF_PROG_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES (the live engine): a two-instruction XDP
 * program that returns XDP_DROP (nothing leaves) run once without, then
 * once with the flag, one 64-byte frame each. Some hosts refuse the live
 * run alone with EPERM (a policy of their kernel) while the plain run works.
 * @plain_err: set to the plain run's -errno, or 0 when it worked (may be NULL).
 * Return: 0 when the live run works, else the -errno of the first call that
 * failed (the load's, the plain run's, or the live run's).
 */
int xl_gen_live_check(int *plain_err);

/**
 * xl_gen_live_refusal() - the one line to say that the live engine cannot
 * run here (@err: the -errno of xl_gen_live_check() or of the engine's own
 * check), into @buf (@len bytes): "refused by this host (BPF_PROG_RUN live
 * frames: Operation not permitted, EPERM)" for -EPERM, "unavailable (...)"
 * otherwise. Return: @buf.
 */
const char *xl_gen_live_refusal(int err, char *buf, size_t len);

#endif /* XDPLAB_GEN_H */
