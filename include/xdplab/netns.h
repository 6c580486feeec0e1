/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file netns.h
 * The one network-namespace helper (src/lib/core/netns.c): move the
 * calling thread into a namespace and back, the way back checked. setns()
 * moves only the calling thread (threads started later inherit its
 * namespace); a thread left in the wrong namespace resolves every later
 * interface name there, so a failed return is logged and reported.
 */
#ifndef XDPLAB_NETNS_H
#define XDPLAB_NETNS_H

/**
 * struct xl_netns_saved - where the calling thread was before it moved.
 * @fd: that namespace (owned; closed by xl_netns_restore()), -1: it did
 *      not move, nothing to restore.
 */
struct xl_netns_saved {
	int fd;
};

/** xl_netns_self() - an fd (O_CLOEXEC, the caller's) of the calling thread's namespace, or -errno. */
int xl_netns_self(void);

/**
 * xl_netns_enter_fd() - move the calling thread into the namespace @fd
 * (not taken). @saved: NULL (a move for good, as --netns does) or where
 * the thread was, for xl_netns_restore(). @fd < 0: nothing moves, 0.
 * Return: 0, or -errno (nothing moved; @saved->fd is -1).
 */
int xl_netns_enter_fd(int fd, struct xl_netns_saved *saved);

/**
 * xl_netns_enter_path() - the same for a namespace file: "/run/netns/NAME"
 * (ip netns), "/proc/1/ns/net" (the initial one).
 * Return: 0, -ENOENT (no such namespace) or another -errno.
 */
int xl_netns_enter_path(const char *path, struct xl_netns_saved *saved);

/**
 * xl_netns_restore() - back to where @saved says, and close it; nothing
 * saved (fd -1): 0. Return: 0, or -errno when the thread could not go
 * back (logged: it is stranded in the other namespace).
 */
int xl_netns_restore(struct xl_netns_saved *saved);

#endif
