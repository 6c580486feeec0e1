/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pcapng.h - the pcapng blocks behind xl_pcap_writer__open_ng() (private to
 * src/lib/pkt/ and its unit tests; pcapng.c says why we write them).
 */
#ifndef XDPLAB_PKT_PCAPNG_H
#define XDPLAB_PKT_PCAPNG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/**
 * xl_pcapng_write_header() - a Section Header Block and @n_ifnames
 * Interface Description Blocks, one per name of @ifnames in order (their
 * interface ids 0..@n_ifnames-1), or one without a name when @n_ifnames is
 * 0 (Ethernet, @snaplen bytes, if_tsresol 9 with @nano else 6, if_name, at
 * most 255 bytes of it, when not NULL) to @f. Errors show in ferror(@f).
 */
void xl_pcapng_write_header(FILE *f, uint32_t snaplen, bool nano, const char *const *ifnames,
			    unsigned int n_ifnames);

struct xl_cap_meta;

/**
 * xl_pcapng_write_epb() - one Enhanced Packet Block on interface
 * @meta->iface (0 without @meta): @caplen
 * bytes of @data, a frame of @len bytes taken at @ts_ns (ns since the Unix
 * epoch; written in ns with @nano, else in us, as the IDB's if_tsresol),
 * and with @meta (may be NULL: no options) its options: epb_flags
 * (inbound), epb_queue, epb_verdict (type 2, an XDP action) and
 * opt_comment, each only when set.
 */
void xl_pcapng_write_epb(FILE *f, uint64_t ts_ns, bool nano, const void *data, uint32_t caplen,
			 uint32_t len, const struct xl_cap_meta *meta);

#endif /* XDPLAB_PKT_PCAPNG_H */
