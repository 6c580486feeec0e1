/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: the MACs of the frames a sender builds (gen, xsk
 * txpush): the link's own (xl_link_macs()) and --src-mac/--dst-mac.
 */
#ifndef XDPLAB_PKT_CLI_H
#define XDPLAB_PKT_CLI_H

#include "opts.h"

struct xl_pkt_spec;
struct xl_link_info;
/**
 * xl_cmd_pkt_macs() - the MACs of the frames a sender builds on @ifname
 * (gen, xsk txpush): source the interface's, destination its veth peer's
 * (another namespace too), else broadcast; each replaced by @src_mac /
 * @dst_mac (the --src-mac/--dst-mac text, NULL: not given).
 * @s: the frame spec whose src_mac/dst_mac are set. @li: out, NULL: not
 * wanted: the interface's facts.
 * Return: 0, -ENODEV (no such interface; nothing printed), or -EINVAL (a
 * MAC that does not parse; one line printed naming @spec's command).
 */
int xl_cmd_pkt_macs(const struct xl_cmd_spec *spec, const char *ifname, const char *src_mac,
		    const char *dst_mac, struct xl_pkt_spec *s, struct xl_link_info *li);

#endif /* XDPLAB_PKT_CLI_H */
