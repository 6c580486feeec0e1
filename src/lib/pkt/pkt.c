// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/pkt/ owns frames as bytes: building, parsing and checksumming
 * them (pkt.c) and capture files (pcapfile.c). Pure code, no kernel. See
 * docs/architecture.md.
 */
/*
 * pkt.c - build Ethernet/IPv4/UDP and Ethernet/IPv6/UDP frames, parse frames
 * down to the L4 ports, Internet checksums (RFC 1071), MAC address strings.
 *
 * Every header field is read and written byte by byte (or with memcpy), so no
 * buffer needs any alignment. Pure libc, no allocation, no global state: all
 * functions are safe to call from any thread.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "xdplab/pkt.h"
#include "xdplab/abi/latency.h"
#include "xdplab/abi/parse.h"

/* Ethertypes (host order): IPv4, IPv6. */
enum { XL_ET_IPV4 = 0x0800, XL_ET_IPV6 = 0x86dd };

/* Header sizes in bytes (IPv4 and TCP without options). */
enum { XL_IP4_HLEN = 20, XL_IP6_HLEN = 40, XL_UDP_HLEN = 8, XL_TCP_HLEN = 20 };


static uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/*
 * Add @len bytes at @p to the running ones' complement accumulator @acc.
 * Words are loaded in host order: RFC 1071 section 2(B) shows the sum is
 * byte-order independent, so the folded result is in the data's byte order.
 * 32-bit words fold to the same 16-bit sum since 2^16 == 1 (mod 2^16 - 1).
 * A 64-bit accumulator cannot overflow below 16 GiB of data.
 */
static uint64_t csum_add(const void *data, size_t len, uint64_t acc)
{
	const uint8_t *p = data;
	uint32_t w32;
	uint16_t w16;

	for (; len >= 4; p += 4, len -= 4) {
		memcpy(&w32, p, sizeof(w32));
		acc += w32;
	}
	if (len >= 2) {
		memcpy(&w16, p, sizeof(w16));
		acc += w16;
		p += 2;
		len -= 2;
	}
	if (len) {
		/* Odd trailing byte: pad with a zero byte after it. */
		const uint8_t last[2] = { p[0], 0 };

		memcpy(&w16, last, sizeof(w16));
		acc += w16;
	}
	return acc;
}

static uint16_t csum_fold(uint64_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)acc;
}

/*
 * Sum of an IPv4 or IPv6 pseudo-header (@alen = 4 or 16 bytes per address).
 * The tail is always written in the IPv6 form (32-bit length, 3 zero bytes,
 * protocol): as 16-bit words it sums to len_hi + len_lo + proto, which for
 * a 16-bit length equals the IPv4 form (zero, protocol, 16-bit length).
 */
static uint64_t pseudo_sum(const void *saddr, const void *daddr, size_t alen,
			   uint8_t proto, uint32_t len)
{
	uint8_t tail[8] = { 0 };
	uint64_t acc;

	put_be16(tail, len >> 16);
	put_be16(tail + 2, len & 0xffff);
	tail[7] = proto;
	acc = csum_add(saddr, alen, 0);
	acc = csum_add(daddr, alen, acc);
	return csum_add(tail, sizeof(tail), acc);
}

/* Final UDP checksum: invert, and send a computed 0 as 0xffff (RFC 768). */
static uint16_t udp_csum_final(uint64_t acc)
{
	uint16_t csum = (uint16_t)~csum_fold(acc);

	return csum ? csum : 0xffff;
}

uint16_t xl_csum_partial(const void *data, size_t len, uint32_t sum)
{
	return csum_fold(csum_add(data, len, sum));
}

uint16_t xl_csum_ipv4(const void *iph, size_t ihl_bytes)
{
	return (uint16_t)~xl_csum_partial(iph, ihl_bytes, 0);
}

uint16_t xl_csum_udp4(uint32_t saddr, uint32_t daddr, const void *udp,
		      size_t udp_len)
{
	uint64_t acc = pseudo_sum(&saddr, &daddr, 4, IPPROTO_UDP, udp_len);

	return udp_csum_final(csum_add(udp, udp_len, acc));
}

uint16_t xl_csum_udp6(const struct in6_addr *saddr,
		      const struct in6_addr *daddr, const void *udp,
		      size_t udp_len)
{
	uint64_t acc = pseudo_sum(saddr, daddr, 16, IPPROTO_UDP, udp_len);

	return udp_csum_final(csum_add(udp, udp_len, acc));
}

static const struct {
	const char *name;
	uint8_t nh;
} ext_names[] = {
	{ "hbh", XL_IP6_EXT_HBH }, { "dst", XL_IP6_EXT_DST },
	{ "rt", XL_IP6_EXT_RT },   { "frag", XL_IP6_EXT_FRAG },
};

const char *xl_pkt_ext_name(uint8_t nh)
{
	size_t i;

	for (i = 0; i < sizeof(ext_names) / sizeof(ext_names[0]); i++)
		if (ext_names[i].nh == nh)
			return ext_names[i].name;
	return "?";
}

/* RFC 8200 4.1: Hop-by-Hop first only, each header once, Destination Options twice. */
static int ext_check(const uint8_t *ext, int n)
{
	int i, j, seen;

	if (n < 0 || n > XL_PKT_MAX_EXT)
		return -E2BIG;
	for (i = 0; i < n; i++) {
		if (!strcmp(xl_pkt_ext_name(ext[i]), "?"))
			return -EINVAL;
		if (ext[i] == XL_IP6_EXT_HBH && i > 0)
			return -EINVAL;
		for (j = seen = 0; j < n; j++)
			seen += ext[j] == ext[i];
		if (seen > (ext[i] == XL_IP6_EXT_DST ? 2 : 1))
			return -EINVAL;
	}
	return 0;
}

int xl_pkt_ext_parse(const char *list, uint8_t ext[XL_PKT_MAX_EXT])
{
	uint8_t tmp[XL_PKT_MAX_EXT];
	const char *p = list;
	int n = 0, err;

	if (!list || !ext)
		return -EINVAL;
	for (;;) {
		size_t len = strcspn(p, ","), i;
		bool found = false;

		for (i = 0; i < sizeof(ext_names) / sizeof(ext_names[0]); i++)
			if (len == strlen(ext_names[i].name) && !strncmp(p, ext_names[i].name, len)) {
				if (n == XL_PKT_MAX_EXT)
					return -E2BIG;
				tmp[n++] = ext_names[i].nh;
				found = true;
			}
		if (!found)
			return -EINVAL; /* an unknown name, or an empty item */
		if (!p[len])
			break;
		p += len + 1;
	}
	err = ext_check(tmp, n);
	if (err)
		return err;
	memcpy(ext, tmp, n);
	return n;
}

void xl_pkt_layout(const struct xl_pkt_spec *spec, struct xl_pkt_layout *lo)
{
	bool tcp = spec->l4 == XL_L4_TCP_SYN || spec->l4 == XL_L4_TCP_EST;
	uint32_t nv = spec->nvlans > 2 ? 2 : spec->nvlans;
	uint32_t next = spec->n_ext > XL_PKT_MAX_EXT ? XL_PKT_MAX_EXT : spec->n_ext;

	lo->l3_off = XL_ETH_HLEN + 4 * nv;
	lo->l4_off = lo->l3_off + (spec->ipv6 ? XL_IP6_HLEN + XL_IP6_EXT_LEN * next : XL_IP4_HLEN);
	lo->l4_csum_off = lo->l4_off + (tcp ? 16 : 6);
	lo->payload_off = lo->l4_off + (tcp ? XL_TCP_HLEN : XL_UDP_HLEN);
	lo->min_size = lo->payload_off > XL_PKT_MIN_SIZE ? lo->payload_off : XL_PKT_MIN_SIZE;
}

int xl_pkt_build(const struct xl_pkt_spec *spec, void *buf, size_t buf_len)
{
	struct xl_pkt_layout lo;
	size_t l3_hlen, l4_len, i;
	uint8_t *eth = buf, *ip, *l4, ttl, proto;
	uint16_t csum;
	uint64_t acc;
	bool tcp;
	int v;

	if (!spec || !buf || spec->nvlans > 2 || spec->l4 > XL_L4_TCP_EST)
		return -EINVAL;
	if (spec->n_ext && (!spec->ipv6 || ext_check(spec->ip6_ext, spec->n_ext)))
		return -EINVAL;
	for (v = 0; v < spec->nvlans; v++)
		if (spec->vlan_id[v] > 4095 || spec->vlan_prio[v] > 7)
			return -EINVAL;
	xl_pkt_layout(spec, &lo);
	tcp = spec->l4 != XL_L4_UDP;
	proto = tcp ? IPPROTO_TCP : IPPROTO_UDP;
	l3_hlen = spec->ipv6 ? XL_IP6_HLEN : XL_IP4_HLEN;
	if (spec->size < lo.min_size || spec->size > XL_PKT_MAX_SIZE)
		return -EINVAL;
	if (buf_len < spec->size)
		return -ENOSPC;

	ip = eth + lo.l3_off;
	l4 = eth + lo.l4_off;
	l4_len = spec->size - lo.l4_off;
	ttl = spec->ttl ? spec->ttl : 64;

	memcpy(eth, spec->dst_mac, 6);
	memcpy(eth + 6, spec->src_mac, 6);
	for (v = 0; v < spec->nvlans; v++) {
		uint8_t *tag = eth + 12 + 4 * v;

		put_be16(tag, v == 0 && spec->nvlans == 2 && spec->qinq ? 0x88a8 : 0x8100);
		put_be16(tag + 2, (uint16_t)(spec->vlan_prio[v] << 13 | spec->vlan_id[v]));
	}
	put_be16(eth + 12 + 4 * spec->nvlans, spec->ipv6 ? XL_ET_IPV6 : XL_ET_IPV4);

	if (spec->ipv6) {
		uint8_t *x = ip + XL_IP6_HLEN;

		/* Version 6, traffic class 0, flow label 0. */
		memset(ip, 0, 4);
		ip[0] = 0x60;
		put_be16(ip + 4, spec->size - lo.l3_off - XL_IP6_HLEN);
		ip[6] = spec->n_ext ? spec->ip6_ext[0] : proto;
		ip[7] = ttl;
		memcpy(ip + 8, &spec->src_ip6, 16);
		memcpy(ip + 24, &spec->dst_ip6, 16);
		/* Each extension header names the one after it (or L4). */
		for (v = 0; v < spec->n_ext; v++, x += XL_IP6_EXT_LEN) {
			memset(x, 0, XL_IP6_EXT_LEN);
			x[0] = v + 1 < spec->n_ext ? spec->ip6_ext[v + 1] : proto;
			if (spec->ip6_ext[v] == XL_IP6_EXT_HBH || spec->ip6_ext[v] == XL_IP6_EXT_DST) {
				x[2] = 1; /* PadN, 4 bytes of zeros */
				x[3] = 4;
			} else if (spec->ip6_ext[v] == XL_IP6_EXT_RT) {
				x[2] = 253; /* routing type; x[3]: 0 segments left */
			} else {
				/* Fragment: offset 0, M 0; identification "xl" 1. */
				x[4] = 0x78;
				x[5] = 0x6c;
				x[7] = 1;
			}
		}
	} else {
		/* Version 4, IHL 5, TOS 0, ID 0, no flags, no fragment. */
		memset(ip, 0, XL_IP4_HLEN);
		ip[0] = 0x45;
		put_be16(ip + 2, l3_hlen + l4_len);
		ip[8] = ttl;
		ip[9] = proto;
		memcpy(ip + 12, &spec->src_ip4, 4);
		memcpy(ip + 16, &spec->dst_ip4, 4);
		csum = xl_csum_ipv4(ip, XL_IP4_HLEN);
		memcpy(ip + 10, &csum, 2);
	}

	put_be16(l4, spec->src_port);
	put_be16(l4 + 2, spec->dst_port);
	if (tcp) {
		/* seq, ack, data offset 5 (no options), flags, window 65535. */
		memset(l4 + 4, 0, XL_TCP_HLEN - 4);
		if (spec->l4 == XL_L4_TCP_EST) {
			put_be16(l4 + 6, 1);  /* seq 1 */
			put_be16(l4 + 10, 1); /* ack 1 */
			l4[13] = 0x18;	      /* ACK|PSH */
		} else {
			l4[13] = 0x02; /* SYN */
		}
		l4[12] = 5 << 4;
		put_be16(l4 + 14, 65535);
	} else {
		put_be16(l4 + 4, l4_len);
		put_be16(l4 + 6, 0);
	}
	for (i = 0; i < spec->size - lo.payload_off; i++)
		eth[lo.payload_off + i] = spec->fill_set ? spec->fill : i & 0xff;

	if (spec->ipv6)
		acc = pseudo_sum(&spec->src_ip6, &spec->dst_ip6, 16, proto, l4_len);
	else
		acc = pseudo_sum(&spec->src_ip4.s_addr, &spec->dst_ip4.s_addr, 4, proto, l4_len);
	acc = csum_add(l4, l4_len, acc);
	/* UDP sends a computed 0 as 0xffff (RFC 768); TCP sends it as is. */
	csum = tcp ? (uint16_t)~csum_fold(acc) : udp_csum_final(acc);
	memcpy(eth + lo.l4_csum_off, &csum, 2);
	return (int)spec->size;
}

/*
 * What the L4 parser needs from the network layer: the pseudo-header
 * addresses (@alen bytes each) and whether the L4 segment is whole (not a
 * fragment, so its length and checksum can be checked) and whether the
 * pseudo-header destination is known (an IPv6 routing header with segments
 * left hides the final destination, RFC 8200 section 8.1).
 */
struct l4_ctx {
	const uint8_t *saddr, *daddr;
	size_t alen;
	bool fragment;
	bool daddr_unknown;
};

/* Parse the L4 header at @off; @end is where the IP payload ends. */
static int parse_l4(const uint8_t *p, size_t off, size_t end,
		    const struct l4_ctx *c, struct xl_pkt_info *info)
{
	const uint8_t *l4 = p + off;
	size_t avail = end - off, seg_len, hlen;
	uint8_t proto = info->l4_proto;

	info->l4_off = off;
	if (proto != IPPROTO_UDP && proto != IPPROTO_TCP)
		return 0;
	if (avail < (proto == IPPROTO_UDP ? XL_UDP_HLEN : XL_TCP_HLEN))
		return -EBADMSG;
	info->src_port = get_be16(l4);
	info->dst_port = get_be16(l4 + 2);

	if (proto == IPPROTO_UDP) {
		seg_len = get_be16(l4 + 4);
		if (!c->fragment && (seg_len < XL_UDP_HLEN || seg_len > avail))
			return -EBADMSG;
	} else {
		hlen = (size_t)(l4[12] >> 4) * 4;
		if (hlen < XL_TCP_HLEN || hlen > avail)
			return -EBADMSG;
		seg_len = avail;
	}

	if (c->fragment || c->daddr_unknown)
		return 0;
	if (proto == IPPROTO_UDP && get_be16(l4 + 6) == 0) {
		/* None sent: fine over IPv4 (RFC 768), not over IPv6 (8200). */
		info->l4_csum_ok = c->alen == 4;
		return 0;
	}
	info->l4_csum_ok = csum_fold(csum_add(l4, seg_len,
					      pseudo_sum(c->saddr, c->daddr,
							 c->alen, proto,
							 seg_len))) == 0xffff;
	return 0;
}

/*
 * The network layer is xl_parse_l3() (include/xdplab/abi/parse.h), the
 * same code the BPF programs' parse-ip runs; here come the IPv4 header
 * checksum, the L4 header's length and checksum, and the ports.
 */
int xl_pkt_parse(const void *frame, size_t len, struct xl_pkt_info *info)
{
	const uint8_t *p = frame;
	struct xl_l3_info l3;
	struct l4_ctx c = { 0 };
	int r;

	memset(info, 0, sizeof(*info));
	if (!frame || len < XL_ETH_HLEN)
		return -EBADMSG;
	r = xl_parse_l3(p, p + len, &l3);
	info->l3_proto = l3.l3_proto;
	info->vlans = l3.vlans;
	info->l3_off = l3.l3_off;
	info->l4_proto = l3.l4_proto;
	if (r == XL_PARSE_NOT_IP)
		return -EPROTONOSUPPORT;
	if (l3.l3_proto == XL_ET_IPV4 && len - l3.l3_off >= XL_IP4_HLEN) {
		size_t ihl = (size_t)(p[l3.l3_off] & 0x0f) * 4;

		if (ihl >= XL_IP4_HLEN && ihl <= len - l3.l3_off)
			info->ip_csum_ok = xl_csum_partial(p + l3.l3_off, ihl, 0) == 0xffff;
		c = (struct l4_ctx){ .saddr = p + l3.l3_off + 12, .daddr = p + l3.l3_off + 16,
				     .alen = 4 };
	} else if (l3.l3_proto == XL_ET_IPV6) {
		info->ip_csum_ok = true; /* IPv6 has no header checksum to fail */
		c = (struct l4_ctx){ .saddr = p + l3.l3_off + 8, .daddr = p + l3.l3_off + 24,
				     .alen = 16 };
	}
	if (r != XL_PARSE_OK)
		return -EBADMSG;
	if (!l3.l4_off)
		return 0; /* a non-first fragment, or no next header */
	c.fragment = l3.fragment;
	c.daddr_unknown = l3.daddr_unknown;
	return parse_l4(p, l3.l4_off, l3.ip_end, &c, info);
}

static int hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

int xl_mac_parse(const char *s, uint8_t mac[6])
{
	uint8_t tmp[6];
	int i, hi, lo;

	if (!s || !mac)
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		/* Exactly two hex digits; s[1] is read only if s[0] != '\0'. */
		hi = hex_digit(s[0]);
		if (hi < 0)
			return -EINVAL;
		lo = hex_digit(s[1]);
		if (lo < 0)
			return -EINVAL;
		tmp[i] = (uint8_t)(hi << 4 | lo);
		if (s[2] != (i < 5 ? ':' : '\0'))
			return -EINVAL;
		s += 3;
	}
	memcpy(mac, tmp, sizeof(tmp));
	return 0;
}

void xl_mac_format(const uint8_t mac[6], char *out)
{
	snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
		 mac[2], mac[3], mac[4], mac[5]);
}

void xl_stamp_put(uint8_t *frame, uint32_t payload_off, uint32_t csum_off, uint16_t csum,
		  uint16_t old_neg, uint32_t seq, uint64_t now_ns)
{
	struct xl_stamp st = {
		.magic = htonl(XL_STAMP_MAGIC),
		.seq = htonl(seq),
		.tv_sec = htonl((uint32_t)(now_ns / 1000000000ull)),
		.tv_usec = htonl((uint32_t)(now_ns % 1000000000ull / 1000)),
		.nsec = htons((uint16_t)(now_ns % 1000)),
	};
	uint16_t sum;

	memcpy(frame + payload_off, &st, XL_STAMP_LEN);
	sum = xl_csum_partial(&st, XL_STAMP_LEN, (uint16_t)~csum + (uint32_t)old_neg);
	sum = (uint16_t)~sum;
	sum = sum ? sum : 0xffff;
	memcpy(frame + csum_off, &sum, 2);
}

uint32_t xl_stamp_min_size(const struct xl_pkt_spec *spec)
{
	struct xl_pkt_layout lo;

	xl_pkt_layout(spec, &lo);
	return lo.payload_off + XL_STAMP_LEN;
}
