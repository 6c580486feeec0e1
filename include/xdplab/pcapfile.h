/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file pcapfile.h
 * Capture files through libpcap: loading the frames of one for replay,
 * writing one (xdplab dump, xsk rxdrop --dump), and tcpdump-syntax filters.
 */
#ifndef XDPLAB_PCAPFILE_H
#define XDPLAB_PCAPFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct xl_pcap_frames - frames in file order, packed in one buffer.
 * @data: all frames back to back (owned; free with xl_frames_free()).
 * @off/@len: offset in @data and length in bytes of frame i.
 * @num: frame i's number in the file, from 1 (frames skipped leave gaps);
 *   NULL when the frames were not read from a file.
 * @n: frames kept; @read: frames in the file; @oversize: skipped as longer
 * than the limit; @runt: skipped as shorter than 14 bytes; @short_frames:
 * kept though shorter than 60 bytes; @truncated: captured shorter than on
 * the wire (caplen < len): replayed as captured.
 */
struct xl_pcap_frames {
	uint8_t *data;
	size_t *off;
	uint32_t *len;
	uint64_t *num;
	size_t n;
	uint64_t read, oversize, runt, short_frames, truncated;
};

/** Most bytes of frames a capture may hold for replay (256 MiB). */
#define XL_PCAP_MAX_BYTES (256u << 20)

/**
 * xl_frames_load_pcap() - read every frame of @path.
 * @max_len: longest frame kept in bytes (MTU + 14); longer ones are counted
 *           in @out->oversize.
 * Return: 0; -ENOENT (missing), -EBADF (not a pcap/pcapng file), -EPROTO
 * (link type not Ethernet), -EFBIG (over XL_PCAP_MAX_BYTES), -ENOMEM. The
 * cause is logged with the file name.
 */
int xl_frames_load_pcap(const char *path, uint32_t max_len,
			struct xl_pcap_frames *out);

/** xl_frames_free() - free what xl_frames_load_pcap() allocated. */
void xl_frames_free(struct xl_pcap_frames *f);

struct xl_pcap_writer;

/**
 * xl_pcap_writer__open() - create @path as an Ethernet (LINKTYPE_ETHERNET)
 * classic pcap file through libpcap's dumper (libpcap 1.10 writes no
 * pcapng). @path "-" writes to standard output (a duplicate of fd 1).
 * Writes go through a @buf_bytes stdio buffer (0: 1 MiB), so the file sees
 * one write() per buffer, not one per frame. The file is written whole or
 * not at all (xdplab/atomicfile.h): a temporary in @path's directory,
 * renamed onto @path by a successful xl_pcap_writer__close(); a device or
 * FIFO (and "-") is written directly.
 * @snaplen: the file header's snapshot length in bytes.
 * @nano: nanosecond timestamps (magic 0xa1b23c4d), else microseconds.
 * Return: the writer (close with xl_pcap_writer__close()) or NULL with
 * errno set (the line "cannot write PATH: CAUSE" logged).
 */
struct xl_pcap_writer *xl_pcap_writer__open(const char *path, uint32_t snaplen, bool nano,
					    size_t buf_bytes);

/**
 * xl_pcap_writer__open_ng() - as xl_pcap_writer__open(), writing pcapng
 * instead (our own writer, src/lib/pkt/pcapng.c: libpcap 1.10 has none): a
 * Section Header Block, one Interface Description Block (Ethernet,
 * @snaplen, if_tsresol 9 with @nano else 6, if_name @ifname when not NULL)
 * and an Enhanced Packet Block per record with its original length.
 * libpcap's pcap_open_offline() and tcpdump -r read the file.
 */
struct xl_pcap_writer *xl_pcap_writer__open_ng(const char *path, uint32_t snaplen, bool nano,
					       size_t buf_bytes, const char *ifname);

/**
 * xl_pcap_writer__open_ng_ifs() - as xl_pcap_writer__open_ng(), with an
 * Interface Description Block per name of @ifnames (@n_ifnames of them,
 * interface ids 0..@n_ifnames-1 in order; 0: one IDB without a name): a
 * record's struct xl_cap_meta @iface says which it was taken on.
 */
struct xl_pcap_writer *xl_pcap_writer__open_ng_ifs(const char *path, uint32_t snaplen, bool nano,
						   size_t buf_bytes, const char *const *ifnames,
						   unsigned int n_ifnames);

/**
 * xl_pcap_writer__write() - append one record: @caplen bytes of a frame of
 * @len bytes, taken at @ts_ns (ns since the Unix epoch). Not thread-safe.
 */
void xl_pcap_writer__write(struct xl_pcap_writer *w, uint64_t ts_ns, const void *data,
			   uint32_t caplen, uint32_t len);

/**
 * struct xl_cap_meta - what the capture hook knew of a record, written as
 * pcapng Enhanced Packet Block options (classic pcap has no place for it).
 * @queue: the RX queue (epb_queue), -1: not known.
 * @xdp_action: the XDP action the program returned (epb_verdict type 2),
 *   -1: none (the entry hook).
 * @comment: a short text (opt_comment, up to 255 bytes used), NULL: none.
 * @iface: the interface id (the index of its Interface Description Block,
 *   xl_pcap_writer__open_ng_ifs()); 0 for a file of one interface.
 * @dir: the frame's direction, epb_flags bits 0-1 (pcapng draft, section
 *   "Enhanced Packet Block Flags Word"): XL_CAP_IN (0, the default: what
 *   an XDP hook sees) inbound, XL_CAP_OUT outbound, XL_CAP_DIR_UNKNOWN no
 *   epb_flags written.
 */
struct xl_cap_meta {
	int queue;
	int xdp_action;
	const char *comment;
	uint32_t iface;
	enum { XL_CAP_IN = 0, XL_CAP_OUT, XL_CAP_DIR_UNKNOWN } dir;
};

/**
 * xl_pcap_writer__write_meta() - as xl_pcap_writer__write(), with @meta
 * written as the record's options when the file is pcapng (ignored for
 * pcap). Not thread-safe.
 */
void xl_pcap_writer__write_meta(struct xl_pcap_writer *w, uint64_t ts_ns, const void *data,
				uint32_t caplen, uint32_t len, const struct xl_cap_meta *meta);

/**
 * xl_pcap_writer__flush() - write the buffered records to the file.
 * Return: 0, or the negative errno of the first failed write so far
 * (-ENOSPC: disk full, -EPIPE: the reader of '-' gone), logged once as
 * "cannot write PATH: CAUSE"; from then on nothing more is written.
 */
int xl_pcap_writer__flush(struct xl_pcap_writer *w);

/**
 * xl_pcap_writer__close() - flush, fsync and close, and rename the file
 * into place (xl_afile_commit()); after a failed write the temporary is
 * removed instead and an earlier file at the path stays. NULL is fine.
 * Return: 0, or the negative errno of the first failure (logged once as
 * flush); then no record was saved.
 */
int xl_pcap_writer__close(struct xl_pcap_writer *w);

/**
 * xl_pcap_writer__abort() - close @w and remove its temporary: nothing is
 * saved, an earlier file at the path stays (a capture that failed before
 * it ended). NULL is fine.
 */
void xl_pcap_writer__abort(struct xl_pcap_writer *w);

struct xl_pcap_filter;

/**
 * xl_pcap_filter__compile() - compile @expr (tcpdump syntax, pcap-filter(7))
 * for Ethernet frames captured to @snaplen bytes, optimized, with libpcap's
 * pcap_compile() into a classic BPF program run in user space.
 * Return: the filter (free with xl_pcap_filter__free()) or NULL with errno
 * EINVAL and libpcap's reason copied to @err (@errlen bytes).
 */
struct xl_pcap_filter *xl_pcap_filter__compile(const char *expr, uint32_t snaplen, char *err,
					       size_t errlen);

/**
 * xl_pcap_filter__match() - run the filter on @caplen captured bytes of a
 * frame of @len bytes (pcap_offline_filter()). A filter that reads beyond
 * @caplen rejects the frame, as libpcap does.
 * Return: true when the frame matches.
 */
bool xl_pcap_filter__match(const struct xl_pcap_filter *f, const void *data, uint32_t caplen,
			   uint32_t len);

/** xl_pcap_filter__free() - free a compiled filter. NULL is fine. */
void xl_pcap_filter__free(struct xl_pcap_filter *f);

#endif /* XDPLAB_PCAPFILE_H */
