/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file pkt.h
 * Packet building, parsing and checksums (user space).
 *
 * Frames are Ethernet II without FCS. All multi-byte fields written into a
 * frame are in network byte order; all sizes are in bytes.
 */
#ifndef XDPLAB_PKT_H
#define XDPLAB_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

/** Smallest frame we build, without FCS (bytes): Ethernet minimum 64 - 4. */
#define XL_PKT_MIN_SIZE 60
/** Largest frame the builder accepts (bytes); callers bound it by MTU+14. */
#define XL_PKT_MAX_SIZE 9216
#define XL_ETH_HLEN 14

/**
 * struct xl_pkt_spec - what to build: addresses, ports, size.
 * @src_mac/@dst_mac: Ethernet addresses (6 bytes each).
 * @ipv6: false for IPv4/UDP, true for IPv6/UDP.
 * @src_ip4/@dst_ip4: IPv4 addresses, network byte order (used when !ipv6).
 * @src_ip6/@dst_ip6: IPv6 addresses (used when ipv6).
 * @src_port/@dst_port: UDP ports, host byte order.
 * @size: frame size in bytes without FCS, XL_PKT_MIN_SIZE..XL_PKT_MAX_SIZE;
 *        must also hold the headers (IPv6: 62 bytes).
 * @ttl: IPv4 TTL / IPv6 hop limit (0 means 64).
 * @nvlans: VLAN tags after the MAC addresses, 0..2; @vlan_id/@vlan_prio:
 *          each tag's VID (0..4095) and PCP (0..7), outermost first.
 * @qinq: with 2 tags the outer one is 802.1ad (TPID 0x88a8, a service tag),
 *        else every tag is 802.1Q (0x8100).
 * @l4: XL_L4_UDP (default), XL_L4_TCP_SYN (a SYN, seq 0, no options) or
 *      XL_L4_TCP_EST (ACK|PSH, seq 1, ack 1: a segment of an established
 *      flow); TCP checksums are correct as UDP's are.
 * @fill: payload byte when @fill_set; else the pattern byte i = i & 0xff.
 * @ip6_ext/@n_ext: IPv6 extension headers between the IPv6 header and L4,
 *      in this order, each given by its next-header value (XL_IP6_EXT_*),
 *      each 8 bytes (xl_pkt_build() says what they hold); IPv6 only.
 */
#define XL_PKT_MAX_EXT 4
#define XL_IP6_EXT_HBH 0   /**< Hop-by-Hop Options */
#define XL_IP6_EXT_RT 43   /**< Routing */
#define XL_IP6_EXT_FRAG 44 /**< Fragment */
#define XL_IP6_EXT_DST 60  /**< Destination Options */
#define XL_IP6_EXT_LEN 8   /**< bytes of each header the builder writes */
enum xl_pkt_l4 { XL_L4_UDP = 0, XL_L4_TCP_SYN = 1, XL_L4_TCP_EST = 2 };

struct xl_pkt_spec {
	uint8_t src_mac[6];
	uint8_t dst_mac[6];
	bool ipv6;
	struct in_addr src_ip4, dst_ip4;
	struct in6_addr src_ip6, dst_ip6;
	uint16_t src_port, dst_port;
	uint32_t size;
	uint8_t ttl;
	uint8_t nvlans;
	uint16_t vlan_id[2];
	uint8_t vlan_prio[2];
	bool qinq;
	enum xl_pkt_l4 l4;
	bool fill_set;
	uint8_t fill;
	uint8_t ip6_ext[XL_PKT_MAX_EXT];
	uint8_t n_ext;
};

/**
 * xl_pkt_ext_parse() - a list of IPv6 extension header names, comma
 * separated, in wire order: "hbh" (Hop-by-Hop Options), "dst" (Destination
 * Options), "rt" (Routing), "frag" (Fragment), into @ext (next-header
 * values, XL_PKT_MAX_EXT of room). The rules of RFC 8200 section 4.1 are
 * kept: Hop-by-Hop only first, each header at most once except
 * Destination Options (twice: before Routing and at the end).
 * Return: the number of headers (1..XL_PKT_MAX_EXT); -EINVAL for an
 * unknown name, an empty item or a broken rule; -E2BIG for more than
 * XL_PKT_MAX_EXT.
 */
int xl_pkt_ext_parse(const char *list, uint8_t ext[XL_PKT_MAX_EXT]);

/** xl_pkt_ext_name() - "hbh", "dst", "rt", "frag" for a next-header value ("?" else). */
const char *xl_pkt_ext_name(uint8_t nh);

/**
 * struct xl_pkt_layout - where the builder puts things for @spec (bytes from
 * the frame start): the network header, the L4 header, the L4 checksum
 * field, and the payload; @min_size: the smallest frame that holds the
 * headers (at least XL_PKT_MIN_SIZE).
 */
struct xl_pkt_layout {
	uint32_t l3_off, l4_off, l4_csum_off, payload_off, min_size;
};

/** xl_pkt_layout() - the layout xl_pkt_build() uses for @spec. */
void xl_pkt_layout(const struct xl_pkt_spec *spec, struct xl_pkt_layout *lo);

/**
 * xl_pkt_build() - write an Ethernet/IPv4/UDP or Ethernet/IPv6/UDP frame
 * (or TCP, with 0..2 VLAN tags: @spec's shape fields).
 * @spec: what to build (not kept).
 * @buf: caller-owned output, at least @spec->size bytes.
 * @buf_len: size of @buf in bytes.
 *
 * The payload is filled with a deterministic pattern (byte i of the L4
 * payload = i & 0xff) or the @fill byte. IPv6 extension headers
 * (@spec->ip6_ext) are 8 bytes each and what every node accepts: Hop-by-Hop
 * and Destination Options hold one PadN option (RFC 8200 4.2); Routing is
 * type 253 (an experimental type, RFC 4727) with 0 segments left, which a
 * node ignores and goes on to the next header (RFC 8200 4.4); Fragment is
 * an atomic fragment (offset 0, M 0, identification 0x786c0001), a whole
 * packet (RFC 6946). The L4 checksum's pseudo-header length is the L4
 * segment's (without the extension headers), the IPv6 payload length
 * counts them. The IPv4 header checksum and the
 * UDP or TCP checksum (over the IPv4 or IPv6 pseudo-header, RFC 768 /
 * RFC 9293 3.1 / RFC 8200 8.1) are correct.
 *
 * Return: frame length in bytes (= spec->size) on success; -EINVAL if the
 * size is out of range or cannot hold the headers, or the extension
 * headers break xl_pkt_ext_parse()'s rules or are asked for IPv4; -ENOSPC
 * if @buf_len is smaller than spec->size.
 */
int xl_pkt_build(const struct xl_pkt_spec *spec, void *buf, size_t buf_len);

/**
 * xl_csum_partial() - ones' complement sum of @len bytes (RFC 1071), folded
 * to 16 bits but not inverted; @sum is a previous partial result (0 to start).
 * Works for any alignment and odd lengths. Return: the 16-bit partial sum in
 * the byte order of the data (as the kernel's csum_partial).
 */
uint16_t xl_csum_partial(const void *data, size_t len, uint32_t sum);

/**
 * xl_csum_ipv4() - IPv4 header checksum of @ihl_bytes bytes at @iph (the
 * checksum field must be zero or is included as is). Return: the value to
 * store in the header's checksum field, in network byte order.
 */
uint16_t xl_csum_ipv4(const void *iph, size_t ihl_bytes);

/**
 * xl_csum_udp4() - UDP checksum over the IPv4 pseudo-header and @udp_len
 * bytes of UDP header + payload (the checksum field inside must be zero).
 * Addresses in network byte order. Return: the value to store, network byte
 * order; 0 is transmitted as 0xffff (RFC 768).
 */
uint16_t xl_csum_udp4(uint32_t saddr, uint32_t daddr, const void *udp,
		      size_t udp_len);

/** xl_csum_udp6() - as xl_csum_udp4() for the IPv6 pseudo-header. */
uint16_t xl_csum_udp6(const struct in6_addr *saddr, const struct in6_addr *daddr,
		      const void *udp, size_t udp_len);

/**
 * xl_stamp_put() - write the latency stamp (struct xl_stamp,
 * xdplab/abi/latency.h: the pktgen header with @seq and @now_ns as
 * CLOCK_MONOTONIC seconds, microseconds and the nanoseconds within the
 * microsecond) at @frame + @payload_off, and fix the UDP checksum at
 * @frame + @csum_off incrementally (RFC 1624: ~(~csum + ~old + new)).
 * @csum: the checksum (raw bytes, as in the frame) that covers the 20
 *   bytes the stamp replaces; @old_neg: ~xl_csum_partial() of those 20
 *   bytes. Both from a template, or both read from the frame itself.
 * A result of 0 is written as 0xffff (RFC 768). The caller checked that
 * the frame holds the stamp (xl_stamp_min_size()). Used by gen --stamp's
 * packet engine and xsk txpush --tstamp; bpf/gen.bpf.c does the same.
 */
void xl_stamp_put(uint8_t *frame, uint32_t payload_off, uint32_t csum_off, uint16_t csum,
		  uint16_t old_neg, uint32_t seq, uint64_t now_ns);

/**
 * xl_stamp_min_size() - the smallest frame (bytes without FCS) built from
 * @spec (its headers: VLAN tags, IPv4/IPv6, extension headers) whose UDP
 * payload holds the 20-byte stamp: 62 for IPv4, 82 for IPv6.
 */
uint32_t xl_stamp_min_size(const struct xl_pkt_spec *spec);

/**
 * struct xl_pkt_info - what xl_pkt_parse() found.
 * @l3_proto: Ethertype of the network header after VLAN tags (host order),
 *            or 0 if the frame ended first.
 * @vlans: number of 802.1Q/802.1ad tags skipped (at most 2 are parsed).
 * @l3_off/@l4_off: offsets in bytes from the frame start (0 if absent).
 * @l4_proto: IP protocol / IPv6 next header of the L4 header (after IPv6
 *            extension headers hop-by-hop, routing, fragment, dest-opts).
 * @src_port/@dst_port: UDP/TCP ports, host order (0 if not UDP/TCP).
 * @ip_csum_ok/@l4_csum_ok: for IPv4, the header checksum verified; for UDP
 *           (v4/v6) the UDP checksum verified (a zero IPv4 UDP checksum
 *           counts as ok).
 */
struct xl_pkt_info {
	uint16_t l3_proto;
	uint8_t vlans;
	uint8_t l4_proto;
	uint16_t l3_off, l4_off;
	uint16_t src_port, dst_port;
	bool ip_csum_ok, l4_csum_ok;
};

/**
 * xl_pkt_parse() - parse Ethernet, up to 2 VLAN tags, IPv4/IPv6 (with
 * extension headers) and the UDP/TCP ports of a frame, never reading past
 * @len. Malformed or truncated frames are reported, never read beyond.
 *
 * Return: 0 when an L4 header was found; -EPROTONOSUPPORT when the frame is
 * well formed but not IPv4/IPv6 (info->l3_proto says what it is);
 * -EBADMSG when truncated or malformed (info holds what was parsed so far).
 */
int xl_pkt_parse(const void *frame, size_t len, struct xl_pkt_info *info);

/**
 * xl_mac_parse() - parse "aa:bb:cc:dd:ee:ff" into 6 bytes.
 * Return: 0, or -EINVAL if @s is not six colon-separated hex bytes.
 */
int xl_mac_parse(const char *s, uint8_t mac[6]);

/** xl_mac_format() - write "aa:bb:cc:dd:ee:ff" into @out (>= 18 bytes). */
void xl_mac_format(const uint8_t mac[6], char *out);

#endif /* XDPLAB_PKT_H */
