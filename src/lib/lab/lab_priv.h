/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/lib/lab/lab.c and lab_sweep.c: the names the lab's
 * namespaces live under, the set-up mark of `lab setup`, and removing a
 * namespace.
 */
#ifndef XDPLAB_LAB_PRIV_H
#define XDPLAB_LAB_PRIV_H

#include <stdbool.h>

#define NETNS_DIR "/run/netns"
/* Room for a lab tag parsed from a namespace name ("xlm<pid><letter>"). */
#define XL_LAB_TAG_LEN 24

/**
 * xl_lab_setup_mark() - make (@on) or remove the mark of lab @tag's
 * set-up in XL_LAB_MARK_DIR (see lab_sweep.c).
 * Return: 0 or -errno (making it fails with one line logged; removing a
 * missing mark is 0).
 */
int xl_lab_setup_mark(const char *tag, bool on);

/** xl_lab_del_netns() - `ip netns del @name`; a failure is logged at INFO. */
void xl_lab_del_netns(const char *name);

#endif /* XDPLAB_LAB_PRIV_H */
