/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The marks of the clsact qdiscs a tc-drop benchmark made (bench_tc.c): a
 * qdisc is no bpf_link, so a SIGKILLed row leaves it; its mark, a file
 * XL_RUN_STATE_DIR/clsact.NETNS.IFINDEX.PID (NETNS: the inode of the
 * network namespace), tells `xdplab cleanup IFACE` and the next tc-drop
 * row that a dead run made it, so it is ours to delete.
 */
#ifndef XDPLAB_TC_MARK_H
#define XDPLAB_TC_MARK_H

#include <stddef.h>

/**
 * xl_tc_mark_set() - mark the qdisc on @ifindex (the calling thread's
 * netns) as made by this process; its path into @path (@len bytes).
 * Return: 0 or -errno (@path is "" then).
 */
int xl_tc_mark_set(int ifindex, char *path, size_t len);

/** xl_tc_mark_clear() - remove the mark at @path ("" : nothing). */
void xl_tc_mark_clear(char *path);

/**
 * xl_tc_mark_take_dead() - remove the marks of @ifindex (the calling
 * thread's netns) whose process is gone.
 * Return: how many (> 0: a killed run made the qdisc there), or -errno.
 */
int xl_tc_mark_take_dead(int ifindex);

#endif
