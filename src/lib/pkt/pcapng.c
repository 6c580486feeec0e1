// SPDX-License-Identifier: BSD-2-Clause
/*
 * pcapng.c - the pcapng blocks that `xdplab dump -w FILE.pcapng` writes.
 *
 * Why our own writer: libpcap 1.10 (Debian 12's, the newest release
 * series when this was written) reads pcapng but writes only classic pcap (pcap_dump_open() has
 * no pcapng form), and no small Debian package writes it (Wireshark's
 * wiretap library does, a large dependency for this). The three block
 * types a capture of one interface needs are small and fixed, so they are
 * written here from the format's specification (IETF draft-ietf-opsawg-pcapng,
 * sections 4.1 to 4.3), checked by reading the files back with libpcap
 * (pcap_open_offline) and tcpdump (unit test_pcapfile, e2e dump-pcapng):
 *
 * - Section Header Block: byte-order magic 0x1A2B3C4D in host order (so a
 *   reader learns the file's endianness), version 1.0, section length -1
 *   (not known while writing), the option shb_userappl "xdplab".
 * - Interface Description Block, one per captured interface: LINKTYPE_ETHERNET, the snapshot length,
 *   the options if_name (the captured interface) and if_tsresol (9:
 *   nanoseconds, or 6: microseconds, the format's default, written anyway).
 * - Enhanced Packet Block per frame: its interface's IDB index, the 64-bit timestamp in
 *   if_tsresol units as two 32-bit halves (high first), the captured and
 *   the original length, the bytes padded to 32 bits; with the hook's
 *   metadata the options epb_flags (inbound or outbound), epb_queue (the RX queue),
 *   epb_verdict (type 2, Linux eBPF XDP: the action as 64 bits; queue and
 *   verdict came into the format with pcapng/pcapng pull request 91) and
 *   opt_comment (the hook).
 *
 * Every block is written with stdio (the writer's buffer), all fields in
 * host order; a write error shows in ferror() at the next flush.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pcapng.h"
#include "xdplab/pcapfile.h"

enum {
	SHB_TYPE = 0x0A0D0D0A,
	IDB_TYPE = 0x00000001,
	EPB_TYPE = 0x00000006,
	BYTE_ORDER_MAGIC = 0x1A2B3C4D,
	OPT_ENDOFOPT = 0,
	OPT_COMMENT = 1,
	OPT_EPB_FLAGS = 2,
	OPT_EPB_QUEUE = 6,
	OPT_EPB_VERDICT = 7,
	OPT_SHB_USERAPPL = 4,
	OPT_IF_NAME = 2,
	OPT_IF_TSRESOL = 9,
	LINKTYPE_ETHERNET = 1,
};

/* Bytes to the next multiple of 4 (options and packet data are padded). */
static uint32_t pad4(uint32_t n)
{
	return (n + 3) & ~3u;
}

/* Append a 16-bit / 32-bit value or an option (code, length, @len bytes
 * of @val, zero padding to 32 bits) to @b at *@n (the caller sized @b). */
static void buf16(uint8_t *b, size_t *n, uint16_t v)
{
	memcpy(b + *n, &v, 2);
	*n += 2;
}

static void buf32(uint8_t *b, size_t *n, uint32_t v)
{
	memcpy(b + *n, &v, 4);
	*n += 4;
}

static void buf_opt(uint8_t *b, size_t *n, uint16_t code, const void *val, uint16_t len)
{
	memcpy(b + *n, &code, 2);
	memcpy(b + *n + 2, &len, 2);
	memcpy(b + *n + 4, val, len);
	memset(b + *n + 4 + len, 0, pad4(len) - len);
	*n += 4 + pad4(len);
}

/* Size on the file of an option holding @len bytes. */
static uint32_t opt_size(uint32_t len)
{
	return 4 + pad4(len);
}

/* Assembled in one buffer with the helpers the records use, one write. */
void xl_pcapng_write_header(FILE *f, uint32_t snaplen, bool nano, const char *const *ifnames,
			    unsigned int n_ifnames)
{
	static const char app[] = "xdplab";
	uint64_t section_len = UINT64_MAX; /* -1: not given */
	uint8_t tsresol = nano ? 9 : 6;
	/* SHB: 28 + its option 12 + 4; IDB: 20 + if_name 4 + 256 + if_tsresol 8 + 4 */
	uint8_t b[44 + 292];
	size_t n = 0;
	uint32_t len;
	unsigned int i = 0;

	/* SHB: type, length, magic, major 1, minor 0, section length, options, length. */
	len = 28 + opt_size(sizeof(app) - 1) + 4;
	buf32(b, &n, SHB_TYPE);
	buf32(b, &n, len);
	buf32(b, &n, BYTE_ORDER_MAGIC);
	buf16(b, &n, 1);
	buf16(b, &n, 0);
	memcpy(b + n, &section_len, sizeof(section_len));
	n += sizeof(section_len);
	buf_opt(b, &n, OPT_SHB_USERAPPL, app, sizeof(app) - 1);
	buf32(b, &n, OPT_ENDOFOPT); /* code 0, length 0 */
	buf32(b, &n, len);

	/* An IDB per interface: type, length, link type, reserved, snaplen, options, length. */
	do {
		const char *ifname = i < n_ifnames ? ifnames[i] : NULL;
		uint16_t name_len = ifname ? (uint16_t)strnlen(ifname, 255) : 0;

		len = 20 + (name_len ? opt_size(name_len) : 0) + opt_size(1) + 4;
		buf32(b, &n, IDB_TYPE);
		buf32(b, &n, len);
		buf16(b, &n, LINKTYPE_ETHERNET);
		buf16(b, &n, 0);
		buf32(b, &n, snaplen);
		if (name_len)
			buf_opt(b, &n, OPT_IF_NAME, ifname, name_len);
		buf_opt(b, &n, OPT_IF_TSRESOL, &tsresol, 1);
		buf32(b, &n, OPT_ENDOFOPT);
		buf32(b, &n, len);
		fwrite(b, 1, n, f);
		n = 0;
	} while (++i < n_ifnames);
}

/*
 * Three writes per record, unlocked (the writer is single-threaded): the
 * block's head, the frame, and its padding with the options and the tail,
 * each assembled in place; with one fwrite per field the records at 64 B cost
 * the capture a measurable share (docs/dump.md).
 */
void xl_pcapng_write_epb(FILE *f, uint64_t ts_ns, bool nano, const void *data, uint32_t caplen,
			 uint32_t len, const struct xl_cap_meta *meta)
{
	uint64_t ts = nano ? ts_ns : ts_ns / 1000;
	uint8_t head[28], tail[3 + 8 + 8 + 16 + 4 + 256 + 4 + 4] = { 0 };
	size_t nh = 0, nt = pad4(caplen) - caplen; /* the frame's padding first */
	uint32_t total;

	if (meta) {
		/* epb_flags bits 0-1: 1 inbound, 2 outbound. */
		uint32_t flags = meta->dir == XL_CAP_OUT ? 2 : 1, queue = (uint32_t)meta->queue;
		uint16_t clen = meta->comment ? (uint16_t)strnlen(meta->comment, 255) : 0;

		if (meta->dir != XL_CAP_DIR_UNKNOWN)
			buf_opt(tail, &nt, OPT_EPB_FLAGS, &flags, 4);
		if (meta->queue >= 0)
			buf_opt(tail, &nt, OPT_EPB_QUEUE, &queue, 4);
		if (meta->xdp_action >= 0) {
			/* Verdict type 2: Linux eBPF XDP, then the action as 64 bits. */
			uint8_t verdict[9] = { 2 };
			uint64_t act = (uint64_t)meta->xdp_action;

			memcpy(verdict + 1, &act, sizeof(act));
			buf_opt(tail, &nt, OPT_EPB_VERDICT, verdict, sizeof(verdict));
		}
		if (clen)
			buf_opt(tail, &nt, OPT_COMMENT, meta->comment, clen);
		buf32(tail, &nt, OPT_ENDOFOPT); /* code 0, length 0 */
	}
	total = 32 + caplen + nt;
	buf32(tail, &nt, total);
	buf32(head, &nh, EPB_TYPE);
	buf32(head, &nh, total);
	buf32(head, &nh, meta ? meta->iface : 0); /* the IDB's index */
	buf32(head, &nh, (uint32_t)(ts >> 32));
	buf32(head, &nh, (uint32_t)ts);
	buf32(head, &nh, caplen);
	buf32(head, &nh, len);
	fwrite_unlocked(head, 1, nh, f);
	fwrite_unlocked(data, 1, caplen, f);
	fwrite_unlocked(tail, 1, nt, f);
}
