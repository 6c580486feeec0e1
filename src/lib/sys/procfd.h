/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * src/lib/sys/procfd.h - which process holds a file descriptor: a walk of
 * /proc/PID/fd that attach.c (who holds an XDP link) and netlink.c (who
 * holds an AF_XDP socket) share. Private to src/lib/sys.
 */
#ifndef XDPLAB_SYS_PROCFD_H
#define XDPLAB_SYS_PROCFD_H

#include <stddef.h>

/*
 * Called for each open file descriptor of each process: @pid, @fd its
 * number as /proc names it ("0", "1"...), @ctx the caller's. Nonzero
 * accepts it.
 */
typedef int (*xl_proc_fd_match)(int pid, const char *fd, void *ctx);

/*
 * xl_proc_fd_owner() - the first process (in /proc's order) with a
 * descriptor that @match accepts, and its name (/proc/PID/comm without the
 * newline) in @comm, @len bytes ("" when it cannot be read). Processes
 * whose fd table this one may not read are passed over.
 * Return: its pid, or 0 (none, or /proc unreadable).
 */
int xl_proc_fd_owner(xl_proc_fd_match match, void *ctx, char *comm, size_t len);

/*
 * xl_proc_fd_links_to() - an xl_proc_fd_match: is descriptor @fd of @pid,
 * a process other than this one, a link to @ctx, a string as
 * /proc/PID/fd shows it ("socket:[INO]", "pipe:[INO]", at most 63 bytes)?
 */
int xl_proc_fd_links_to(int pid, const char *fd, void *ctx);

#endif /* XDPLAB_SYS_PROCFD_H */
