/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file probe.h
 * Pre-flight facts about an interface and this kernel before a lab or a
 * DUT runs on it (`xdplab probe`, docs/cli.md): the kernel, BTF, the
 * interface (kind, state, MTU, queues), what XDP program holds it, whether
 * XDP programs load and attach (native and generic: the kernel's
 * xdp-features where it has them, else a trial attach when nothing is
 * attached), multi-buffer, live frames (gen's engine), ndo_xdp_xmit and a
 * veth peer's NAPI, zero-copy, what VLAN offloads do to the tags XDP sees,
 * AF_XDP sockets, memlock and capabilities; each with a verdict.
 */
#ifndef XDPLAB_PROBE_H
#define XDPLAB_PROBE_H

#include <stdio.h>

#include "xdplab/netlink.h"

/**
 * xl_probe_print() - probe @ifname (@ifindex, its link facts @link from
 * xl_link_get(), in the current namespace) and write a line per fact on
 * @out: "VERDICT WHAT FOUND", VERDICT one of ok, info, WARN, FAIL; then
 * "verdict: ok" or "verdict: FAIL". A trial attach is detached at once;
 * the memlock limit is restored after the trial raise.
 * Return: the number of FAIL lines (0: every fact allows a run).
 */
int xl_probe_print(FILE *out, const char *ifname, int ifindex, const struct xl_link_info *link);

#endif /* XDPLAB_PROBE_H */
