/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file nft.h
 * The kernel-stack baseline: an nftables rule that drops UDP in the raw
 * prerouting chain, before routing and conntrack, with no XDP program
 * (the AF_XDP evaluation on netdev compared XDP with
 * `iptables -t raw -A PREROUTING ... -j DROP`). Made, read and deleted
 * through libnftables (Debian's nftables library: the nft command's own
 * parser, in process), so no nft process runs inside a window and the rule's
 * counter is read within microseconds of its timestamp.
 */
#ifndef XDPLAB_NFT_H
#define XDPLAB_NFT_H

#include <stdint.h>

#include "xdplab/abi/bench.h"

struct xl_nft_drop;

/**
 * xl_nft_drop__create() - in the CALLING THREAD's network namespace, add
 * table `inet xdplab_<pid>` with a chain hooked at prerouting, priority raw
 * (-300), holding one rule `udp dport @udp_dport counter drop`. The
 * libnftables context keeps its netlink socket in that namespace, so the
 * object may be read and destroyed from any thread afterwards.
 * Return: the object (free with xl_nft_drop__destroy()), or NULL with
 * errno: EEXIST (the table exists: another run of this process), ENOMEM,
 * or the error nft reported (logged in one line).
 */
struct xl_nft_drop *xl_nft_drop__create(uint16_t udp_dport);

/**
 * xl_nft_drop__counter() - the rule's counter now: packets and bytes it
 * dropped since xl_nft_drop__create(). Return: 0 or -errno (-EIO: nft
 * failed, -EPROTO: its JSON had no counter).
 */
int xl_nft_drop__counter(struct xl_nft_drop *n, uint64_t *packets, uint64_t *bytes);

/**
 * xl_nft_counter_parse() - the one counter in nft's JSON output of a chain
 * (`nft -j list chain ...`: {"nftables": [..., {"rule": {"expr": [...,
 * {"counter": {"packets": N, "bytes": M}}, ...]}}]}) into *@packets and
 * *@bytes. Return: 0, or -EPROTO when @json does not parse or holds no
 * counter or more than one.
 */
int xl_nft_counter_parse(const char *json, uint64_t *packets, uint64_t *bytes);

/**
 * xl_nft_drop__read() - reader for struct xl_counter_src.read: the counter as
 * @total->rx_packets/rx_bytes and actions[XDP_DROP]; nftables keeps no
 * per-CPU split, so @per_cpu (when not NULL, xl_bench_detail_ncpus() records) is
 * zeroed. @ctx is the struct xl_nft_drop. Return: as xl_nft_drop__counter().
 */
xl_counter_read_fn xl_nft_drop__read;

/** xl_nft_drop__table() - the table's name, e.g. "xdplab_4242". */
const char *xl_nft_drop__table(const struct xl_nft_drop *n);

/**
 * xl_nft_drop__destroy() - delete the table (with its chain and rule) and
 * free. NULL is fine. A failure to delete is logged.
 */
void xl_nft_drop__destroy(struct xl_nft_drop *n);

/**
 * xl_nft_sweep() - in the caller's netns, delete the tables `inet
 * xdplab_PID` whose process is dead (a SIGKILLed stack-drop row's).
 * Return: tables deleted, or -errno (-EIO: nft could not list tables).
 */
int xl_nft_sweep(void);

#endif /* XDPLAB_NFT_H */
