/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file genremote.h
 * The lab's generator on another host (`lab run --dut IFACE --gen-host
 * HOST`): `xdplab gen` started there through ssh for each repetition and
 * stopped after it. ssh runs with the user's own configuration (or
 * --ssh-config FILE) and BatchMode=yes, so it never asks for a password:
 * keys or an agent must let it in. The remote command is a small sh
 * wrapper that starts the generator and waits on its stdin, which is ours:
 * when xdplab closes it, or dies in any way (the ssh client dies with it,
 * struct xl_child), the remote shell reads EOF and SIGINTs the generator;
 * the generator's own --duration bounds it besides. The shell exits with
 * the generator's status as soon as it ends, so a generator that fails
 * there ends ssh at once (xl_gen_remote__ended()) with its message.
 */
#ifndef XDPLAB_GENREMOTE_H
#define XDPLAB_GENREMOTE_H

#include <stdbool.h>
#include <stdint.h>
#include <netinet/in.h>

/**
 * struct xl_gen_remote_opts - where and what to send.
 * @host: ssh destination (a name from ssh_config, user@host, an address).
 * @iface: the generator's interface on @host.
 * @xdplab: xdplab's path on @host (NULL: "xdplab", found on its PATH).
 * @ssh_config: `ssh -F FILE` (NULL: the user's ~/.ssh/config).
 * @dst_mac/@dst_ip/@dst_port: the DUT interface's MAC, an IPv4 address of
 *   it, the UDP port (the frames' destination).
 */
struct xl_gen_remote_opts {
	const char *host, *iface, *xdplab, *ssh_config;
	uint8_t dst_mac[6];
	struct in_addr dst_ip;
	uint16_t dst_port;
};

struct xl_gen_remote;

/**
 * xl_gen_remote__new() - check the options (names with characters a shell
 * would interpret are refused: -EINVAL, logged) and copy them.
 * Return: the object (free with xl_gen_remote__free()), or NULL with errno.
 */
struct xl_gen_remote *xl_gen_remote__new(const struct xl_gen_remote_opts *o);

/**
 * xl_gen_remote__check() - one ssh round trip that runs `XDPLAB gen --help`
 * on the host, so a run fails in seconds, not after minutes of rows.
 * Return: 0, or -EHOSTUNREACH (ssh failed: its first stderr line is
 * logged), -ENOENT (xdplab is not there), -errno.
 */
int xl_gen_remote__check(struct xl_gen_remote *r);

/**
 * xl_gen_remote__start() - start the generator on the host: @size-byte
 * IPv4/UDP frames from @o->iface to the DUT, at most @max_ns long (its
 * --duration, rounded up to seconds). Returns once ssh is started; frames
 * arrive after the connection and the generator's start (the caller waits
 * for them). Return: 0 or -errno (-EBUSY: already running).
 */
int xl_gen_remote__start(struct xl_gen_remote *r, uint32_t size, uint64_t max_ns);

/**
 * xl_gen_remote__stop() - close the generator's stdin (the remote shell
 * then SIGINTs it) and wait up to 10 s for ssh to end, SIGKILL after.
 * Return: 0 when the generator ended well (exit 0), -EIO when it failed
 * (its or ssh's first stderr line is logged), -ETIMEDOUT, or 0 when
 * nothing was running.
 */
int xl_gen_remote__stop(struct xl_gen_remote *r);

/**
 * xl_gen_remote__ended() - true when the started generator's ssh has ended
 * by itself (reaped; xl_gen_remote__stop() then reports how), or nothing
 * was started.
 */
bool xl_gen_remote__ended(struct xl_gen_remote *r);

/** xl_gen_remote__free() - stop if running, delete the temporary files, free. NULL is fine. */
void xl_gen_remote__free(struct xl_gen_remote *r);

/** xl_gen_remote__describe() - "ssh HOST: XDPLAB gen IFACE" for headers. */
const char *xl_gen_remote__describe(const struct xl_gen_remote *r);

#endif /* XDPLAB_GENREMOTE_H */
