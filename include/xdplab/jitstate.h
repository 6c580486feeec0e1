/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file jitstate.h
 * The record of a changed net.core.bpf_jit_kallsyms (--profile sets it to
 * 1 and restores it on exit): a file XL_RUN_STATE_DIR/jit_kallsyms.PID
 * holding the original value, written when the value is changed and
 * removed when it is restored. A SIGKILLed run cannot restore it; `xdplab
 * cleanup` finds its file (its PID is gone) and restores the value.
 */
#ifndef XDPLAB_JITSTATE_H
#define XDPLAB_JITSTATE_H

#include <sys/types.h>

#include "xdplab/tmpdir.h" /* XL_RUN_STATE_DIR: where the record goes */

/**
 * xl_jit_state_save() - record @old, the value bpf_jit_kallsyms had before
 * this process set it, in XL_RUN_STATE_DIR/jit_kallsyms.PID.
 *
 * Return: 0, or -errno (the directory or the file cannot be made).
 */
int xl_jit_state_save(int old);

/** xl_jit_state_clear() - remove this process's record (none: nothing). */
void xl_jit_state_clear(void);

/**
 * xl_jit_state_sweep() - for each record whose process is gone: write its
 * value to /proc/sys/net/core/bpf_jit_kallsyms (of the initial network
 * namespace) unless another live process holds a record (that one restores
 * it), then remove the record.
 * @restored: called per dead record with its PID, its value and whether it
 *            was written (may be NULL).
 *
 * Return: the number of dead records removed, or -errno (the sysctl cannot
 * be written; the record is kept for a later try).
 */
int xl_jit_state_sweep(void (*restored)(pid_t pid, int value, int written, void *ctx), void *ctx);

#endif
