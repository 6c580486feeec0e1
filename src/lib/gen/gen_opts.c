// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the generator is asked to send (moved from gen.c): the engines'
 * names, the checks of a set of options against each other (one line
 * naming the option and what is accepted), and one flow's header fields
 * (ports, the source address's low 16 bits, checksums) that are written
 * over the template frame, flow by flow.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "gen_priv.h"
#include "xdplab/gen.h"
#include "xdplab/abi/gen.h"
#include "xdplab/abi/latency.h"
#include "xdplab/pkt.h"

const char *xl_gen_engine_name(enum xl_gen_engine e)
{
	return e == XL_ENGINE_PACKET ? "packet" : "live";
}

int xl_gen_flow_make(const struct xl_pkt_spec *spec, uint32_t sport_i, uint32_t dport_i,
		     uint32_t saddr_i, struct xl_gen_flow *f)
{
	uint8_t buf[XL_PKT_MAX_SIZE];
	struct xl_pkt_spec s = *spec;
	struct xl_pkt_layout lo;
	uint32_t saddr_off;
	uint16_t lo16;
	int err;

	s.src_port = spec->src_port + sport_i;
	s.dst_port = spec->dst_port + dport_i;
	if (s.ipv6) {
		lo16 = (uint16_t)(s.src_ip6.s6_addr[14] << 8 | s.src_ip6.s6_addr[15]) + saddr_i;
		s.src_ip6.s6_addr[14] = lo16 >> 8;
		s.src_ip6.s6_addr[15] = lo16 & 0xff;
	} else {
		uint8_t *a = (uint8_t *)&s.src_ip4.s_addr;

		lo16 = (uint16_t)(a[2] << 8 | a[3]) + saddr_i;
		a[2] = lo16 >> 8;
		a[3] = lo16 & 0xff;
	}
	err = xl_pkt_build(&s, buf, sizeof(buf));
	if (err < 0)
		return err;
	xl_pkt_layout(&s, &lo);
	saddr_off = lo.l3_off + (s.ipv6 ? 8 + 14 : 12 + 2);
	memset(f, 0, sizeof(*f));
	memcpy(&f->src_port, buf + lo.l4_off, 2);
	memcpy(&f->dst_port, buf + lo.l4_off + 2, 2);
	memcpy(&f->saddr_lo, buf + saddr_off, 2);
	memcpy(&f->l4_csum, buf + lo.l4_csum_off, 2);
	if (!s.ipv6)
		memcpy(&f->ip_csum, buf + lo.l3_off + 10, 2);
	return 0;
}

int xl_gen_opts_check(const struct xl_gen_opts *o, char *msg, size_t len)
{
	if (o->pcap_path && o->threads > 1) {
		/* Each thread would replay the whole capture: N copies, out of order. */
		snprintf(msg, len, "--threads: '%d' is out of range with --pcap (accepted: 1; an in-order replay is one thread)",
			 o->threads);
		return -EINVAL;
	}
	if (o->pcap_path && o->engine_forced && o->engine == XL_ENGINE_LIVE) {
		snprintf(msg, len, "--pcap needs --engine packet (live frames repeat one frame per call, so an in-order replay is not possible)");
		return -EINVAL;
	}
	if (o->batch && (o->pcap_path || o->engine == XL_ENGINE_PACKET)) {
		snprintf(msg, len, "--batch is for the live engine (the packet engine sends sendmmsg batches of %d)",
			 PKT_BATCH);
		return -EINVAL;
	}
	if (o->imix && (o->pcap_path || o->stamp || (o->flows ?: 1) * (o->dst_ports ?: 1) * (o->src_addrs ?: 1) > 1)) {
		snprintf(msg, len, "--imix sends one flow of its own sizes: not with --pcap, --stamp, --flows, --dyn-ports or --src-addrs");
		return -EINVAL;
	}
	if (o->imix) {
		/* Its smallest frame (60 bytes) must hold the headers: not
		 * IPv6/UDP (62), nor IPv6 or two-tag IPv4 TCP. */
		static const uint32_t sizes[XL_GEN_IMIX_N] = XL_GEN_IMIX;
		struct xl_pkt_layout lo;

		xl_pkt_layout(&o->spec, &lo);
		if (lo.min_size > sizes[0]) {
			snprintf(msg, len, "--imix: its %u-byte frames cannot hold these headers (%s/%s%s%s needs at least %u bytes)",
				 sizes[0], o->spec.ipv6 ? "IPv6" : "IPv4",
				 o->spec.l4 == XL_L4_UDP ? "UDP" : "TCP",
				 o->spec.nvlans ? " with VLAN tags" : "",
				 o->spec.n_ext ? " with extension headers" : "", lo.min_size);
			return -EINVAL;
		}
	}
	if (o->imix && o->engine_forced && o->engine == XL_ENGINE_LIVE) {
		snprintf(msg, len, "--imix needs --engine packet (live frames repeat one frame per call)");
		return -EINVAL;
	}
	if (o->stamp && (o->pcap_path || o->threads > 1)) {
		snprintf(msg, len, "--stamp needs one thread and no --pcap (one sender numbers the frames)");
		return -EINVAL;
	}
	if ((uint64_t)(o->flows ?: 1) * (o->dst_ports ?: 1) * (o->src_addrs ?: 1) > XL_GEN_MAX_FLOWS) {
		snprintf(msg, len, "--flows x --dyn-ports x --src-addrs: %llu flows (accepted: at most %u)",
			 (unsigned long long)(o->flows ?: 1) * (o->dst_ports ?: 1) * (o->src_addrs ?: 1),
			 XL_GEN_MAX_FLOWS);
		return -EINVAL;
	}
	if (o->dst_ports > 1 && (uint32_t)o->spec.dst_port + o->dst_ports - 1 > 65535) {
		snprintf(msg, len, "--dyn-ports: %u ports from --dst-port %u pass port 65535",
			 o->dst_ports, o->spec.dst_port);
		return -EINVAL;
	}
	if (o->src_addrs > 1) {
		const uint8_t *a = o->spec.ipv6 ? o->spec.src_ip6.s6_addr + 12 :
						  (const uint8_t *)&o->spec.src_ip4.s_addr;
		uint32_t lo16 = a[2] << 8 | a[3];

		if (lo16 + o->src_addrs - 1 > 0xffff) {
			snprintf(msg, len, "--src-addrs: %u addresses from the source address pass its last 16 bits (accepted: up to %u)",
				 o->src_addrs, 0x10000 - lo16);
			return -EINVAL;
		}
	}
	if (o->stamp && o->spec.l4 != XL_L4_UDP) {
		snprintf(msg, len, "--stamp is for UDP frames (the latency receiver reads UDP payloads), not --l4 tcp-*");
		return -EINVAL;
	}
	if (o->stamp && o->spec.size < xl_stamp_min_size(&o->spec)) {
		snprintf(msg, len, "--stamp needs --size >= %u for %s%s (the stamp is %u bytes of UDP payload)",
			 xl_stamp_min_size(&o->spec), o->spec.ipv6 ? "IPv6" : "IPv4",
			 o->spec.nvlans || o->spec.n_ext ? " with VLAN tags or extension headers" : "",
			 XL_STAMP_LEN);
		return -EINVAL;
	}
	return 0;
}
