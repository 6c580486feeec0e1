// SPDX-License-Identifier: BSD-2-Clause
/* The MACs of a sender's frames: the link's, then --src-mac/--dst-mac (pkt_cli.h). */
#include <errno.h>

#include "pkt_cli.h"
#include "xdplab/netlink.h"
#include "xdplab/pkt.h"

int xl_cmd_pkt_macs(const struct xl_cmd_spec *spec, const char *ifname, const char *src_mac,
		    const char *dst_mac, struct xl_pkt_spec *s, struct xl_link_info *li)
{
	struct xl_link_info me;

	if (xl_link_macs(ifname, s->src_mac, s->dst_mac, &me))
		return -ENODEV;
	if (src_mac && xl_mac_parse(src_mac, s->src_mac))
		return xl_usage_error(spec, "--src-mac: '%s' is not a MAC address (accepted: aa:bb:cc:dd:ee:ff)",
				      src_mac);
	if (dst_mac && xl_mac_parse(dst_mac, s->dst_mac))
		return xl_usage_error(spec, "--dst-mac: '%s' is not a MAC address (accepted: aa:bb:cc:dd:ee:ff)",
				      dst_mac);
	if (li)
		*li = me;
	return 0;
}
