// SPDX-License-Identifier: BSD-2-Clause
/* The packet class of a frame (xl_pkt_class()), from xl_pkt_parse(). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <netinet/in.h>

#include "xdplab/pkt.h"
#include "xdplab/pkt_class.h"

static const char *l4_name(unsigned int proto, char *tmp, size_t len)
{
	switch (proto) {
	case IPPROTO_UDP:
		return "udp";
	case IPPROTO_TCP:
		return "tcp";
	case IPPROTO_ICMP:
		return "icmp";
	case IPPROTO_ICMPV6:
		return "icmpv6";
	case IPPROTO_GRE:
		return "gre";
	case IPPROTO_ESP:
		return "esp";
	case IPPROTO_AH:
		return "ah";
	case IPPROTO_SCTP:
		return "sctp";
	case IPPROTO_IGMP:
		return "igmp";
	case IPPROTO_NONE:
		return "none";
	}
	snprintf(tmp, len, "proto-%u", proto);
	return tmp;
}

char *xl_pkt_class(const void *frame, size_t len, char *buf, size_t buflen)
{
	struct xl_pkt_info info;
	char tmp[16];
	size_t n = 0;
	int err, i;

	err = xl_pkt_parse(frame, len, &info);
	buf[0] = '\0';
	if (len < XL_ETH_HLEN) {
		snprintf(buf, buflen, "runt");
		return buf;
	}
	for (i = 0; i < info.vlans; i++)
		n += snprintf(buf + n, n < buflen ? buflen - n : 0, "vlan/");
	if (n >= buflen)
		return buf;
	if (info.l3_proto == 0x0800 || info.l3_proto == 0x86dd) {
		n += snprintf(buf + n, buflen - n, "%s", info.l3_proto == 0x0800 ? "ipv4" : "ipv6");
		if (n < buflen && !err && info.l4_off)
			n += snprintf(buf + n, buflen - n, "/%s",
				      l4_name(info.l4_proto, tmp, sizeof(tmp)));
		else if (n < buflen && !err && info.l4_proto != IPPROTO_NONE)
			n += snprintf(buf + n, buflen - n, "/frag");
		else if (n < buflen && !err)
			n += snprintf(buf + n, buflen - n, "/none");
	} else if (info.l3_proto == 0x0806) {
		n += snprintf(buf + n, buflen - n, "arp");
	} else {
		n += snprintf(buf + n, buflen - n, "eth/0x%04x", info.l3_proto);
	}
	if (err == -EBADMSG && n < buflen)
		snprintf(buf + n, buflen - n, "/malformed");
	return buf;
}
