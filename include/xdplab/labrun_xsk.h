/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file labrun_xsk.h
 * Lab rows of the AF_XDP applications (rxdrop, txpush, l2fwd), in the same
 * table, JSON and validity rules as the XDP rows (labrun.h).
 */
#ifndef XDPLAB_LABRUN_XSK_H
#define XDPLAB_LABRUN_XSK_H

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/labrun.h"
#include "xdplab/xsk.h"

/**
 * xl_labrun_xsk() - measure one AF_XDP row: the application @app bound to
 * the DUT end's queue 0 in @mode (copy mode, or zero-copy when
 * @zerocopy), pinned to the CPU after the generator's, @o->reps windows of
 * @o->seconds_ns after @o->warmup_ns.
 *
 * Wiring (docs/afxdp.md): softirq NAPI on the generator's CPU, the
 * application on the other CPU, sleeping in poll() when idle (rxdrop in
 * XDP_DRV) or busy polling the veth's NAPI (rxdrop in XDP_SKB, l2fwd). What is
 * counted: rxdrop, frames the application received; l2fwd, frames that
 * came back to the generator end (an XDP_DROP sink counts them); txpush,
 * frames that arrived at the generator end (same sink), no generator.
 * The validity rule judges the application CPU's busy share (with poll()
 * it is below 95% only when the application waited for frames).
 *
 * A zero-copy row on a driver without zero-copy gets no figure and the
 * note "not supported by DRIVER".
 * Return: 0 (row filled, or the note set), -EINTR when stopped, or -errno
 * (row->note says why). The lab's wiring is restored before returning.
 */
int xl_labrun_xsk(struct xl_lab *lab, const struct xl_labrun_opts *o,
		  enum xl_xsk_app_kind app, enum xl_xdp_mode mode, bool zerocopy,
		  uint32_t size, struct xl_row_result *row);

#endif /* XDPLAB_LABRUN_XSK_H */
