/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file xsk_dump.h
 * rxdrop's --dump: received frames written to a pcap file through the one
 * pcap writer (xdplab/pcapfile.h), with a mutex (socket threads share one
 * file) and the frames' receive time.
 */
#ifndef XDPLAB_XSK_DUMP_H
#define XDPLAB_XSK_DUMP_H

#include <stdbool.h>
#include <stdint.h>

struct xl_xsk_dump;

/**
 * xl_xsk_dump__open() - create @path as an Ethernet pcap file keeping
 * @snaplen bytes of each frame (0: all; the file's snaplen says which);
 * with @pcapng a pcapng file instead (nanosecond timestamps, if_name
 * @ifname when not NULL), through the same writer as `dump -w FILE.pcapng`.
 * Return: the dumper (close with xl_xsk_dump__close()) or NULL with errno
 * set (the cause logged).
 */
struct xl_xsk_dump *xl_xsk_dump__open(const char *path, uint32_t snaplen, bool pcapng,
				      const char *ifname);

/**
 * xl_xsk_dump__frame() - append one frame of @len bytes. Thread-safe (a
 * mutex: this is a slow path for tests and debugging).
 */
void xl_xsk_dump__frame(struct xl_xsk_dump *d, const uint8_t *data, uint32_t len);

/** xl_xsk_dump__flush() - write buffered frames to the file. */
void xl_xsk_dump__flush(struct xl_xsk_dump *d);

/**
 * xl_xsk_dump__close() - flush, close and rename the file into place
 * (xl_pcap_writer__close()); after a failed write nothing is saved and an
 * earlier file of that name stays. NULL is fine.
 * Return: 0, or the negative errno of the first failure (logged as
 * "cannot write PATH: CAUSE").
 */
int xl_xsk_dump__close(struct xl_xsk_dump *d);

/** xl_xsk_dump__abort() - close without saving (the run did not end). NULL is fine. */
void xl_xsk_dump__abort(struct xl_xsk_dump *d);

#endif /* XDPLAB_XSK_DUMP_H */
