/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file dump.h
 * Capture at the XDP hook (xdplab dump, docs/dump.md): frames an XDP hook
 * sees, copied by bpf/dump.bpf.c into a BPF ring buffer and written to a
 * pcap file with libpcap's writer (pkt/pcapfile.c), optionally through a
 * tcpdump-syntax filter. The hook is our own XDP program on the interface,
 * or fentry/fexit of the XDP program already attached (as xdp-tools'
 * xdpdump does). Every frame the hook saw is accounted for:
 *   seen = written + filtered + after_count + ring_full (+ lost_in_flight)
 * where ring_full is counted by the hook and the rest by user space.
 */
#ifndef XDPLAB_DUMP_H
#define XDPLAB_DUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/attach.h"
#include "xdplab/abi/dump.h"
#include "xdplab/pcaplive.h"

/** Interfaces one capture takes at most (the own hook, xl_dump_opts @ifnames). */
#define XL_DUMP_MAX_IFACES 8

/** Where to capture: --hook. */
enum xl_dump_where {
	XL_DUMP_AUTO = 0, /**< entry if a program is attached, else own */
	XL_DUMP_OWN,	  /**< our XDP program (IFACE must have none) */
	XL_DUMP_ENTRY,	  /**< fentry of the attached program */
	XL_DUMP_EXIT,	  /**< fexit of the attached program */
	XL_DUMP_BOTH,	  /**< fentry and fexit: two records per frame */
	XL_DUMP_PCAP,	  /**< no XDP hook: a libpcap live capture (AF_PACKET, after XDP) */
};

/** The hook field of a record from the libpcap live capture (XL_DUMP_PCAP). */
#define XL_DUMP_HOOK_PCAP XL_DUMP_HOOKS

/**
 * struct xl_dump_opts - one capture.
 * @ifname: the interface (current netns).
 * @ifnames/@n_ifnames: several interfaces instead (2..XL_DUMP_MAX_IFACES;
 *          @ifname unused), captured by our program attached to each, or
 *          by a libpcap capture on each (XL_DUMP_PCAP; each once: -EINVAL if
 *          one is named twice, or with
 *          entry/exit or -p); records carry
 *          the interface's index in @ifnames as the pcapng interface id
 *          (one Interface Description Block each). NULL/0: @ifname alone.
 * @dir: the direction (tcpdump -Q): XL_LIVE_IN (0) what the interface
 *        receives, at any hook; XL_LIVE_OUT what it sends, XL_LIVE_INOUT
 *        both: with libpcap only (XL_DUMP_AUTO becomes XL_DUMP_PCAP; another
 *        hook or @prog_name: -EINVAL, logged). In pcapng, epb_flags says
 *        inbound or outbound, and is left out for XL_LIVE_INOUT (libpcap
 *        does not say which way a frame went).
 * @where: the hook; @mode: attach mode of our program (own hook), or which
 *         attached program to trace (entry/exit).
 * @own_action: XDP_PASS or XDP_DROP, what our program returns.
 * @snaplen: bytes kept per frame, 1..XL_DUMP_MAX_SNAPLEN.
 * @ring_bytes: ring-buffer size in bytes, a power of two >= 4096.
 * @path: capture file to write ("-": standard output).
 * @pcapng: write pcapng (xl_pcap_writer__open_ng(), if_name @ifname),
 *          else classic pcap; nanosecond timestamps either way.
 * @filter: tcpdump-syntax filter, run in user space on each record (NULL:
 *          every frame is written).
 * @prog_name: entry/exit hooks: the program to trace, as xdpdump's -p
 *          names it: its function name (the BTF name, not the kernel's
 *          15-character one), NAME@ID, or "all" (whichever is attached);
 *          NULL: whichever is attached. The attached program must match it,
 *          else -ENOENT with one line naming what is attached. With
 *          XL_DUMP_AUTO it means XL_DUMP_ENTRY. Not with XL_DUMP_OWN
 *          (-EINVAL).
 * @count: stop writing after this many frames (0: no limit).
 * @on_frame: NULL, or called with @frame_ctx for every frame written (after
 *          the filter and --count), in the thread that polls: its header
 *          (@h), @caplen bytes at @frame and the time on CLOCK_REALTIME in
 *          ns (dump -x prints it). The bytes are the ring's: valid during
 *          the call only. With @on_frame, @path may be NULL (no file).
 */
struct xl_dump_opts {
	const char *ifname;
	const char *const *ifnames;
	unsigned int n_ifnames;
	enum xl_live_dir dir;
	enum xl_dump_where where;
	enum xl_xdp_mode mode;
	int own_action;
	uint32_t snaplen;
	uint32_t ring_bytes;
	const char *path;
	bool pcapng;
	const char *filter;
	const char *prog_name;
	uint64_t count;
	void (*on_frame)(void *frame_ctx, const struct xl_dump_hdr *h, const uint8_t *frame,
			 uint32_t caplen, uint64_t realtime_ns);
	void *frame_ctx;
};

/**
 * struct xl_dump_counts - the capture's books, totals since the start.
 * @seen/@seen_bytes: frames (and bytes) the hook(s) saw, all CPUs, all hooks.
 * @ring_full: of those, frames the ring had no room for (the loss).
 * @truncated: records cut to the snaplen (counted apart: they are written).
 * @wakeups: forced wake-ups of the reader.
 * @records: records read from the ring.
 * @written/@written_bytes: records written to the file, or given to
 *   @on_frame when there is no file (captured bytes).
 * @filtered: records the filter rejected.
 * @after_count: records read after --count frames were written.
 * @actions: frames per XDP action at the exit or own hook.
 * @hook_seen: @seen per hook (enum xl_dump_hook).
 * @iface_written: @written per interface, in the order of @ifnames (or
 *   [0] alone for one interface).
 * @write_err: 0, or the negative errno of the capture file's first failed
 *   write (logged as "cannot write PATH: CAUSE"); then nothing is saved
 *   (the file is written whole or not at all) and @written and
 *   @written_bytes are 0.
 */
struct xl_dump_counts {
	uint64_t seen, seen_bytes, ring_full, truncated, wakeups;
	uint64_t records, written, written_bytes, filtered, after_count;
	uint64_t actions[5];
	uint64_t hook_seen[XL_DUMP_HOOKS];
	uint64_t iface_written[XL_DUMP_MAX_IFACES];
	int write_err;
};

struct xl_dump;

/**
 * xl_dump__create() - compile the filter, open the file, load the hook and
 * attach it (own: bpf_link on the interface; entry/exit: fentry/fexit links
 * to the program found there). Nothing stays attached if it fails.
 * XL_DUMP_PCAP, and XL_DUMP_AUTO when the kernel refuses the fentry
 * program (EPERM) on the attached one (xdpdump's fallback: it captures
 * with libpcap where it has no program to trace), capture with libpcap
 * instead: pcap_create() on each interface, direction @dir, nanosecond
 * stamps; that fallback says so in one line (warning). Its books: seen =
 * records read + dropped by the socket (pcap_stats ps_drop, counted as
 * @ring_full: the loss).
 * Return: the capture (free with xl_dump__destroy()) or NULL with errno:
 * EINVAL (filter does not compile; logged), ENODEV (no interface), ENOENT
 * (entry/exit but no program attached), EBUSY (own but a program attached),
 * ENOTSUP (the attached program has no BTF to trace), or a load/attach errno.
 */
struct xl_dump *xl_dump__create(const struct xl_dump_opts *opts);

/** xl_dump__where() - the hook in use (never XL_DUMP_AUTO). */
enum xl_dump_where xl_dump__where(const struct xl_dump *d);

/**
 * xl_dump__target() - the traced program's name and id (entry/exit hooks),
 * "" and 0 for the own hook.
 */
const char *xl_dump__target(const struct xl_dump *d, unsigned int *prog_id);

/**
 * xl_dump__poll() - wait up to @timeout_ms for records and write them
 * (batched: the ring is drained, the file is written through a 1 MiB
 * buffer). Return: records read (>= 0) or -errno (-EIO: write failed).
 */
int xl_dump__poll(struct xl_dump *d, int timeout_ms);

/** xl_dump__done() - --count frames have been written. */
bool xl_dump__done(const struct xl_dump *d);

/**
 * xl_dump__flush() - write the buffered records to the file. Return: 0 or
 * the negative errno of the first failed write (kept: @write_err of
 * struct xl_dump_counts), e.g. -ENOSPC.
 */
int xl_dump__flush(struct xl_dump *d);

/**
 * xl_dump__read() - the books now (@c). The hook's counters are per-CPU map
 * reads. Return: 0 or -errno.
 */
int xl_dump__read(struct xl_dump *d, struct xl_dump_counts *c);

/**
 * xl_dump__stop() - detach the hook, then read the ring until every frame
 * the hook counted is either read or counted as ring-full (waits up to
 * 1 s for records still being written on other CPUs), then write, fsync
 * and rename the file into place (xl_pcap_writer__close()).
 * @c: the final books. Return: 0; -EPROTO when the books do not balance
 * after the wait (@c says by how much); the negative errno of a failed
 * write (@c->write_err: nothing saved, an earlier file of that name kept).
 */
int xl_dump__stop(struct xl_dump *d, struct xl_dump_counts *c);

/** xl_dump__ifindex() - the (first) interface captured on. */
int xl_dump__ifindex(const struct xl_dump *d);

/**
 * xl_dump__destroy() - detach if still attached, free. A file not closed
 * by xl_dump__stop() is not saved (its temporary removed). NULL is fine.
 */
void xl_dump__destroy(struct xl_dump *d);

#endif /* XDPLAB_DUMP_H */
