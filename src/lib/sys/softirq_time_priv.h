/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * softirq_time_priv.h - the insides of src/lib/sys/softirq_time.c that the
 * unit tests reach: how the one instance is loaded, read and freed. The
 * library uses the BPF skeleton; tests/unit/test_softirq_time.c puts fakes
 * in plain memory in its place, to test the references and generations
 * without root.
 */
#ifndef XDPLAB_SOFTIRQ_TIME_PRIV_H
#define XDPLAB_SOFTIRQ_TIME_PRIV_H

#include "xdplab/softirq_time.h"

/**
 * struct xl_sirq_ops - the instance's life cycle.
 * @load:   load and attach; the instance into *@h. Return: 0 or -errno.
 * @read:   copy each possible CPU's record (@ncpus of them) into @recs.
 *          Return: 0 or -errno.
 * @unload: detach and free @h.
 */
struct xl_sirq_ops {
	int (*load)(void **h);
	int (*read)(void *h, struct xl_sirq_rec *recs, int ncpus);
	void (*unload)(void *h);
};

/**
 * xl_sirq__set_ops() - use @ops from the next load on (NULL: the BPF
 * skeleton's), and forget a kept load failure and xl_sirq_source()'s
 * choice (the next call reads XL_SIRQ_ENV again). Return: 0, or -EBUSY while
 * a reference is held (nothing changed).
 */
int xl_sirq__set_ops(const struct xl_sirq_ops *ops);

#endif /* XDPLAB_SOFTIRQ_TIME_PRIV_H */
