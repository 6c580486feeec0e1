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

/**
 * xl_netns_sysfs_write() - write @val (a short string, e.g. "1") to the
 * sysfs file /sys/@rel ("class/net/DEV/threaded") as network namespace
 * @ns_fd sees it (not taken; < 0: the caller's). sysfs shows a netns's
 * devices only through a sysfs mounted in that netns, so the write is done
 * by a child process that enters @ns_fd, unshares its mount namespace and
 * mounts a sysfs there (what `ip netns exec` does; no shell, no exec); the
 * caller's mounts are untouched. Needs CAP_SYS_ADMIN.
 * Return: 0, or -errno: of the child's setns/unshare/mount/open/write
 * (-ENOENT: no such file there; -EOPNOTSUPP: the device refuses the
 * value), of fork or waitpid; -EINTR when the child was killed;
 * -ENAMETOOLONG when @rel is too long.
 */
int xl_netns_sysfs_write(int ns_fd, const char *rel, const char *val);

#endif
