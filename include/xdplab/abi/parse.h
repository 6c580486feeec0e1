/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abi/parse.h
 * The one network-layer parser: Ethernet, up to 2 VLAN tags (802.1Q,
 * 802.1ad), IPv4 (IHL, total length, fragment offset) and IPv6 (payload
 * length, up to XL_IP6_MAX_EXT extension headers) to the start of the L4
 * header. The BPF programs' parse-ip (bpf/bpf_helpers_local.h) and the
 * user-space parser xl_pkt_parse() (src/lib/pkt/pkt.c, which adds the
 * checksums and the L4 ports) both call xl_parse_l3(), so the two sides
 * cannot disagree on where L4 starts. Compiles under clang -target bpf
 * (every access is checked against @data_end first, as the verifier wants)
 * and gcc.
 *
 * The extension-header rules follow RFC 8200 section 4: a header's length
 * is given by its own type (a Fragment header is always 8 bytes, the
 * others (Hdr Ext Len + 1) * 8), never by the type of the header after it;
 * Hop-by-Hop is allowed only right after the IPv6 header; a non-first
 * fragment (offset != 0) carries no L4 header.
 */
#ifndef XDPLAB_ABI_PARSE_H
#define XDPLAB_ABI_PARSE_H

#include <linux/types.h>

#ifdef __bpf__
#define XL_PARSE_INLINE static __always_inline
#define XL_PARSE_UNROLL _Pragma("unroll")
#else
#define XL_PARSE_INLINE static inline __attribute__((unused))
#define XL_PARSE_UNROLL
#endif

/** VLAN tags skipped; IPv6 extension headers walked before a frame is malformed. */
#define XL_PARSE_MAX_VLANS 2
#define XL_IP6_MAX_EXT 8

/** xl_parse_l3() results: L4 found (or none by design), not IP, malformed. */
#define XL_PARSE_OK 0
#define XL_PARSE_NOT_IP (-1)
#define XL_PARSE_BAD (-2)

/**
 * struct xl_l3_info - what xl_parse_l3() found; offsets in bytes from the
 * frame start, filled as far as the parse got.
 * @l3_proto: Ethertype after the VLAN tags (host order), 0 if none.
 * @l3_off: the network header. @vlans: tags skipped.
 * @l4_off: the L4 header; 0 when the frame has none (a non-first fragment,
 *   IPv6 next header 59 "no next header").
 * @ip_end: where the IP payload ends (IPv4 total length, IPv6 payload
 *   length): bytes after it are Ethernet padding.
 * @l4_proto: IPv4 protocol / the last IPv6 next header.
 * @fragment: a first fragment with more to come (L4 length and checksum
 *   cannot be checked). @daddr_unknown: an IPv6 routing header with
 *   segments left (the pseudo-header destination is not the one shown).
 * @ext: IPv6 extension headers walked.
 */
struct xl_l3_info {
	__u16 l3_proto;
	__u16 l3_off;
	__u16 l4_off;
	__u16 ip_end;
	__u8 vlans;
	__u8 l4_proto;
	__u8 fragment;
	__u8 daddr_unknown;
	__u8 ext;
};

/** xl_ip6_is_ext() - next-header values that are extension headers walked here. */
XL_PARSE_INLINE int xl_ip6_is_ext(__u8 nh)
{
	return nh == 0 /* Hop-by-Hop */ || nh == 43 /* Routing */ ||
	       nh == 44 /* Fragment */ || nh == 60 /* Destination Options */;
}

/**
 * xl_ip6_ext_len() - length in bytes of an extension header of type @nh
 * (its own type) whose second byte is @hdr_ext_len.
 */
XL_PARSE_INLINE __u32 xl_ip6_ext_len(__u8 nh, __u8 hdr_ext_len)
{
	return nh == 44 ? 8 : ((__u32)hdr_ext_len + 1) * 8;
}

/**
 * xl_parse_be16() - the big-endian 16-bit field at @p. BPF: one 16-bit
 * load and a byte swap (the x86-64 and arm64 JITs load unaligned, and the
 * verifier allows it there without BPF_F_STRICT_ALIGNMENT), where the byte
 * version costs two loads, a shift and an or per field; user space: bytes.
 */
#ifdef __bpf__
XL_PARSE_INLINE __u16 xl_parse_be16(const __u8 *p)
{
	return __builtin_bswap16(*(const __u16 *)p);
}
#else
XL_PARSE_INLINE __u16 xl_parse_be16(const __u8 *p)
{
	return (__u16)(p[0] << 8 | p[1]);
}
#endif

/**
 * xl_parse_l3() - parse the frame [@data, @data_end) to the L4 header.
 * Return: XL_PARSE_OK (@info->l4_off set, or 0 when the frame carries no
 * L4 header by design), XL_PARSE_NOT_IP (well formed up to an Ethertype
 * that is not IPv4/IPv6: @info->l3_proto), XL_PARSE_BAD (truncated or
 * malformed: a header past @data_end or past the IP length, a wrong IP
 * version, an IHL below 5, more than XL_IP6_MAX_EXT extension headers, a
 * Hop-by-Hop header that is not first).
 */
XL_PARSE_INLINE int xl_parse_l3(const void *data, const void *data_end, struct xl_l3_info *info)
{
	const __u8 *p = data, *end = data_end, *pos = p + 14;
	__u16 proto;
	int i;

	__builtin_memset(info, 0, sizeof(*info));
	if (pos > end)
		return XL_PARSE_BAD;
	proto = xl_parse_be16(p + 12);
	XL_PARSE_UNROLL
	for (i = 0; i < XL_PARSE_MAX_VLANS; i++) {
		if (proto != 0x8100 && proto != 0x88a8)
			break;
		if (pos + 4 > end)
			return XL_PARSE_BAD;
		proto = xl_parse_be16(pos + 2); /* after the 16-bit TCI */
		pos += 4;
		info->vlans++;
	}
	info->l3_proto = proto;
	info->l3_off = pos - p;
	if (proto == 0x0800) {
		__u32 ihl, tot_len;

		if (pos + 20 > end || pos[0] >> 4 != 4)
			return XL_PARSE_BAD;
		ihl = (__u32)(pos[0] & 0x0f) * 4;
		info->l4_proto = pos[9];
		tot_len = xl_parse_be16(pos + 2);
		if (ihl < 20 || tot_len < ihl || pos + tot_len > end)
			return XL_PARSE_BAD;
		info->ip_end = info->l3_off + tot_len;
		/* A non-first fragment carries no L4 header: l4_off stays 0. */
		if (xl_parse_be16(pos + 6) & 0x1fff)
			return XL_PARSE_OK;
		info->fragment = !!(pos[6] & 0x20); /* more fragments */
		info->l4_off = info->l3_off + ihl;
		return XL_PARSE_OK;
	}
	if (proto == 0x86dd) {
		__u32 left; /* bytes of the IPv6 payload not yet walked */
		__u8 nh;

		if (pos + 40 > end || pos[0] >> 4 != 6)
			return XL_PARSE_BAD;
		left = xl_parse_be16(pos + 4);
		if (pos + 40 + left > end)
			return XL_PARSE_BAD;
		info->ip_end = info->l3_off + 40 + left;
		nh = pos[6];
		pos += 40;
		XL_PARSE_UNROLL
		for (i = 0; i < XL_IP6_MAX_EXT; i++) {
			__u32 hlen;

			if (!xl_ip6_is_ext(nh))
				break;
			if (nh == 0 && i > 0)
				return XL_PARSE_BAD; /* Hop-by-Hop only first */
			if (left < 8 || pos + 8 > end)
				return XL_PARSE_BAD;
			hlen = xl_ip6_ext_len(nh, pos[1]); /* by its own type */
			if (hlen > left || pos + hlen > end)
				return XL_PARSE_BAD;
			if (nh == 43 && pos[3] != 0)
				info->daddr_unknown = 1; /* segments left */
			info->ext++;
			if (nh == 44) {
				info->l4_proto = pos[0];
				/* Non-first fragment: no L4 header here. */
				if (xl_parse_be16(pos + 2) & 0xfff8)
					return XL_PARSE_OK;
				/* An atomic fragment (M = 0) is a whole packet. */
				info->fragment = pos[3] & 1;
			}
			nh = pos[0];
			pos += hlen;
			left -= hlen;
		}
		info->l4_proto = nh;
		if (xl_ip6_is_ext(nh))
			return XL_PARSE_BAD; /* more than XL_IP6_MAX_EXT */
		if (nh == 59) /* no next header */
			return XL_PARSE_OK;
		info->l4_off = pos - p;
		return XL_PARSE_OK;
	}
	return XL_PARSE_NOT_IP;
}

#endif /* XDPLAB_ABI_PARSE_H */
