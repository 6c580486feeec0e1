/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to the generator (src/lib/gen/gen.c, src/lib/gen/gen_engine.c): the
 * generator's state and its two engines' send and set-up functions.
 */
#ifndef XDPLAB_GEN_PRIV_H
#define XDPLAB_GEN_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "xdplab/gen.h"
#include "xdplab/workers.h"
#include "xdplab/abi/gen.h"
#include "xdplab/pcapfile.h"
#include "xdplab/pace.h"

/*
 * Frames per BPF_PROG_RUN call. Every live-frames call swaps the XDP
 * dispatcher (bpf_prog_change_xdp -> synchronize_rcu, milliseconds), so
 * calls must be long: each is sized to ~LIVE_CALL_NS at the rate the
 * previous call reached, between LIVE_CHUNK_MIN and LIVE_CHUNK_MAX, and
 * never past the --duration deadline.
 */
#define LIVE_CHUNK_MIN 4096
#define LIVE_CHUNK_MAX (1u << 22)
#define LIVE_CALL_NS 200000000ull
#define PKT_BATCH 64

struct gen_thread {
	struct xl_gen *gen;
	struct xl_worker wk; /* its thread: tid, kernel tid, done */
	int idx;
	int cpu;
	int sock;
	uint64_t sent;
	uint64_t bytes;
	uint64_t pcap_pos;
	/*
	 * The packet engine's PKT_BATCH copies of the template, buf_stride
	 * bytes apart (frame_len rounded up to 64), this thread's and this
	 * generator's own: filled once, then only the flows' fields change.
	 * NULL for the live engine and for --pcap. Freed by xl_gen__destroy().
	 */
	uint8_t *bufs;
	uint32_t buf_stride;
	bool bufs_filled;
	double est_pps;
	struct xl_pace pace; /* with a rate: its schedule (xdplab/pace.h) */
	/*
	 * The live engine's count of a call a signal interrupted
	 * (xl_gen_live_count_init()): its copy of gen_state (gen->ncpus
	 * values; NULL: not countable apart), which CPU's count is this
	 * thread's (-1: all of them), and that count when the thread started.
	 */
	struct xl_gen_cpu *cnt_buf;
	int cnt_where;
	uint64_t cnt_base;
	uint64_t end_ns;
	int err;
} __attribute__((aligned(64)));

struct xl_gen {
	struct xl_gen_opts o;
	enum xl_gen_engine engine;
	int ifindex;
	uint32_t mtu;
	uint8_t frame[XL_PKT_MAX_SIZE];
	uint32_t frame_len;
	uint32_t sport_off, csum_off, payload_off, saddr_off, ipcsum_off;
	/* --stamp, packet engine: ~(sum of the template's 20 bytes the stamp
	 * replaces), RFC 1071 folded, for the checksum's update per frame. */
	uint16_t stamp_tmpl_neg;
	uint32_t dports, saddrs, nflows; /* nflows = o.flows x dports x saddrs */
	struct xl_gen_flow *flows;
	struct gen *skel;
	struct xl_gen_cpu *cpu_buf; /* ncpus: one lookup of gen_state */
	bool eintr_said; /* the inexact-count warning after an EINTR, once */
	int ncpus;
	struct xl_pcap_frames pcap;
	int64_t remaining;
	bool counted;
	int stop;
	uint64_t start_ns, deadline_ns;
	bool is_veth;
	int tx_queues;
	int stat_sock;
	uint64_t xmit_err_base;
	int nthreads;
	struct xl_workers workers; /* over th[] */
	struct gen_thread th[];
};

/*
 * The engines. Each send function sends up to @n frames on thread @t and
 * returns the frames sent or -errno; set-up functions return 0 or -errno.
 * xl_gen_send_live: one BPF_PROG_RUN live-frames call of @n frames, then a
 * check that the interface still exists (-ENXIO).
 * xl_gen_send_packet: one sendmmsg of up to PKT_BATCH frames (template with
 * the next flows' ports, or the capture's next frames).
 * xl_gen_setup_live: load the program with the flow table, and check with a
 * dry run (the program drops) that live frames work here.
 * xl_gen_setup_packet: an AF_PACKET socket on @ifindex for thread @t,
 * PACKET_QDISC_BYPASS, and (unless the generator sends a capture) the
 * thread's send buffers (-ENOMEM).
 */
int xl_gen_send_live(struct gen_thread *t, uint64_t n);
/*
 * xl_gen_live_count_init: in the sending thread, after its pinning and
 * before its first call: where its frames are counted apart from the
 * others', and that count now (t->cnt_*); none when unpinned among others.
 */
void xl_gen_live_count_init(struct gen_thread *t);
/*
 * xl_gen_live_frames: the frames the live program has counted (struct
 * xl_gen_cpu.frames, one lookup of gen_state into @buf, gen->ncpus values)
 * on @cpu alone, or on every CPU when @cpu < 0, into @frames.
 * Return: 0, or -ENOENT (no @buf, or the lookup failed).
 */
int xl_gen_live_frames(struct xl_gen *gen, struct xl_gen_cpu *buf, int cpu, uint64_t *frames);
int xl_gen_send_packet(struct gen_thread *t, uint64_t n);
int xl_gen_setup_live(struct xl_gen *gen);
int xl_gen_setup_packet(struct gen_thread *t, int ifindex);

#endif /* XDPLAB_GEN_PRIV_H */
