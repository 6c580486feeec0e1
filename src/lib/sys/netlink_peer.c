// SPDX-License-Identifier: BSD-2-Clause
/*
 * A veth peer's facts read where the peer is (xdplab/netlink.h): its GRO
 * state, its ethtool features and a socket of its namespace, the named
 * namespace found by the peer's ifindex, name and MAC.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "xdplab/log.h"
#include "xdplab/netlink.h"
#include "xdplab/netns.h"
#include "xdplab/sysstat.h"

/*
 * GRO state of the veth peer @peer. A peer in another namespace is found
 * by visiting the named namespaces (/run/netns) for a device with its
 * ifindex, name and MAC; the thread returns after each visit (checked).
 * Return: 1 on, 0 off, -1 unknown.
 */
/*
 * @fn(@peer's name, @ctx) run where @peer is: here when @peer_netnsid < 0,
 * else in the named namespace (/run/netns) that has a device of its
 * ifindex, name and MAC. Return: @fn's return, or -1 when not found.
 */
static int in_peer_ns(const struct xl_link_info *peer, int peer_netnsid,
		      int (*fn)(const char *ifname, void *ctx), void *ctx)
{
	struct dirent *d;
	int ret = -1;
	bool found = false;
	DIR *dir;

	if (peer_netnsid < 0)
		return fn(peer->name, ctx);
	dir = opendir("/run/netns");
	if (!dir)
		return -1;
	while (!found && (d = readdir(dir))) {
		struct xl_netns_saved saved;
		struct xl_link_info li;
		char path[300];

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/run/netns/%s", d->d_name);
		if (xl_netns_enter_path(path, &saved))
			continue;
		if (!xl_link_get(peer->ifindex, -1, &li) && !strcmp(li.name, peer->name) &&
		    !memcmp(li.mac, peer->mac, 6)) {
			found = true;
			ret = fn(peer->name, ctx);
		}
		if (xl_netns_restore(&saved)) {
			/* Stranded in another namespace (logged): stop. */
			xl_err("(after visiting namespace %s)", d->d_name);
			ret = -1;
			break;
		}
	}
	closedir(dir);
	return ret;
}

static int gro_fn(const char *ifname, void *ctx)
{
	return xl_link_gro(ifname);
}

int xl_link_peer_gro(const struct xl_link_info *peer, int peer_netnsid)
{
	return in_peer_ns(peer, peer_netnsid, gro_fn, NULL);
}

struct features_args {
	const char *const *names;
	int n;
	int *on;
};

/* xl_ethtool_features() of @ifname here, through a socket of this namespace. */
static int features_fn(const char *ifname, void *ctx)
{
	struct features_args *a = ctx;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return -1;
	err = xl_ethtool_features(fd, ifname, a->names, a->n, a->on);
	close(fd);
	return err ? -1 : 0;
}

int xl_link_features(const char *ifname, const char *const names[], int n, int on[])
{
	struct features_args a = { names, n, on };

	return features_fn(ifname, &a);
}

int xl_link_peer_features(const struct xl_link_info *peer, int peer_netnsid,
			  const char *const names[], int n, int on[])
{
	struct features_args a = { names, n, on };

	return in_peer_ns(peer, peer_netnsid, features_fn, &a);
}

/* A socket of the namespace this runs in (@ifname, @ctx unused). */
static int socket_fn(const char *ifname, void *ctx)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	return fd < 0 ? -1 : fd;
}

int xl_link_peer_socket(const struct xl_link_info *peer, int peer_netnsid)
{
	return in_peer_ns(peer, peer_netnsid, socket_fn, NULL);
}
