/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file pcapfile.h
 * Loading the frames of a capture file (libpcap) for replay.
 */
#ifndef XDPLAB_PCAPFILE_H
#define XDPLAB_PCAPFILE_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct xl_frames - frames in file order, packed in one buffer.
 * @data: all frames back to back (owned; free with xl_frames_free()).
 * @off/@len: offset in @data and length in bytes of frame i.
 * @n: frames kept; @read: frames in the file; @oversize: skipped as longer
 * than the limit; @runt: skipped as shorter than 14 bytes; @short_frames:
 * kept though shorter than 60 bytes; @truncated: captured shorter than on
 * the wire (caplen < len): replayed as captured.
 */
struct xl_frames {
	uint8_t *data;
	size_t *off;
	uint32_t *len;
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
			struct xl_frames *out);

/** xl_frames_free() - free what xl_frames_load_pcap() allocated. */
void xl_frames_free(struct xl_frames *f);

#endif /* XDPLAB_PCAPFILE_H */
