/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file pcaplive.h
 * A libpcap live capture of one interface (AF_PACKET): what `xdplab dump`
 * uses where it has no XDP hook (--hook pcap, or the kernel refused the
 * fentry program: docs/dump.md), as xdp-tools' xdpdump falls back to
 * libpcap where it has no program to trace. Inbound frames (the
 * direction XDP sees), outbound ones or both (pcap_setdirection(), as
 * tcpdump -Q), nanosecond stamps, immediate mode, non-blocking.
 */
#ifndef XDPLAB_PCAPLIVE_H
#define XDPLAB_PCAPLIVE_H

#include <stdint.h>

struct xl_pcap_live;

/**
 * enum xl_live_dir - the frames a live capture takes (tcpdump -Q): what the
 * interface receives (PCAP_D_IN), sends (PCAP_D_OUT) or both (PCAP_D_INOUT:
 * libpcap does not say which way a frame went).
 */
enum xl_live_dir {
	XL_LIVE_IN = 0,
	XL_LIVE_OUT,
	XL_LIVE_INOUT,
};

/**
 * xl_live_frame_fn - one frame: @caplen bytes at @frame (valid during the
 * call only) of a frame of @len bytes, taken at @realtime_ns (ns since
 * the Unix epoch).
 */
typedef void (*xl_live_frame_fn)(void *ctx, uint64_t realtime_ns, uint32_t len, uint32_t caplen,
				 const uint8_t *frame);

/**
 * xl_pcap_live__open() - start capturing the frames of direction @dir on
 * @ifname (current netns), @snaplen bytes a frame, into an 8 MiB socket
 * buffer; frames go to @fn with @ctx from xl_pcap_live__drain().
 * Return: the capture (xl_pcap_live__close()) or NULL with errno (EPERM:
 * not allowed; ENODEV, EIO), logged with libpcap's reason in one line.
 */
struct xl_pcap_live *xl_pcap_live__open(const char *ifname, uint32_t snaplen, enum xl_live_dir dir,
					xl_live_frame_fn fn, void *ctx);

/** xl_pcap_live__fd() - the descriptor to poll(2) for frames (POLLIN). */
int xl_pcap_live__fd(struct xl_pcap_live *l);

/**
 * xl_pcap_live__drain() - wait up to @timeout_ms (0: not at all) for
 * frames, then hand every one the socket holds to the callback.
 * Return: frames handed (>= 0) or -errno (-EIO: libpcap failed, logged).
 */
int xl_pcap_live__drain(struct xl_pcap_live *l, int timeout_ms);

/**
 * xl_pcap_live__dropped() - frames the socket dropped so far (libpcap's
 * ps_drop: its buffer was full); the last value read if the kernel cannot
 * be asked.
 */
uint64_t xl_pcap_live__dropped(struct xl_pcap_live *l);

/** xl_pcap_live__close() - stop and free; NULL is fine. */
void xl_pcap_live__close(struct xl_pcap_live *l);

#endif /* XDPLAB_PCAPLIVE_H */
