/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file pkt_class.h
 * A frame's packet class: the L2/L3/L4 signature that prog-run sums by,
 * e.g. "ipv4/udp", "ipv6/tcp", "vlan/ipv4/icmp", "vlan/vlan/ipv6/udp",
 * "arp", "eth/0x88cc"; "/malformed" ends the class of a frame the parser
 * (xl_pkt_parse()) found truncated or malformed where it stopped.
 */
#ifndef XDPLAB_PKT_CLASS_H
#define XDPLAB_PKT_CLASS_H

#include <stddef.h>

/** Longest class string including the NUL (bytes). */
#define XL_PKT_CLASS_LEN 48

/**
 * xl_pkt_class() - write the class of the @len-byte @frame into @buf
 * (@buflen bytes, XL_PKT_CLASS_LEN is enough). Never reads past @len.
 * Names: ipv4, ipv6, arp, else eth/0xTYPE; L4: udp, tcp, icmp, icmpv6,
 * gre, esp, ah, sctp, igmp, else proto-N; "frag" for a non-first IPv4
 * fragment or an IPv6 fragment whose L4 header is elsewhere.
 * Return: @buf.
 */
char *xl_pkt_class(const void *frame, size_t len, char *buf, size_t buflen);

#endif /* XDPLAB_PKT_CLASS_H */
