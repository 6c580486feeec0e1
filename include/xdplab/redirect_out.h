/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The redirect commands' text: one interval's line and the end-of-run
 * totals (docs/redirect.md shows both), written to a stream the caller
 * owns. Nothing is read here: the counts come from xl_redirect__read(),
 * xl_redirect__last() and xl_redirect__read_steer().
 */
#ifndef XDPLAB_REDIRECT_OUT_H
#define XDPLAB_REDIRECT_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "xdplab/redirect.h"
#include "xdplab/meter.h"

/**
 * xl_redirect_print_window() - one interval's line to @out: rx/s, err/s,
 * ns/packet, the NAPI CPU's busy share and CPU ns/packet of @w (ending
 * @t seconds into the run); for a cpumap the target CPUs' processed/s and
 * enqueue-drops/s (and each one's share of the steered frames when @nt > 1)
 * between the reads @a and @b (targets @ta and @tb, @nt each); each OUT's
 * frames sent per second. Write errors are the stream's (ferror()).
 */
void xl_redirect_print_window(FILE *out, const struct xl_redirect_opts *o,
			      const struct xl_meter_window *w, const struct xl_redirect_stats *a,
			      const struct xl_redirect_stats *b, const struct xl_steer_target *ta,
			      const struct xl_steer_target *tb, int nt, double t);

/**
 * xl_redirect_print_totals() - the run's totals to @out: packets, bytes,
 * errors and actions of @w; program errors, kernel drops and each OUT's
 * sent and xmit errors (@st); the egress program's counts when loaded; for
 * a cpumap its work (@st->cpu; with one target CPU, what that CPU's own
 * record in @cpu_recs processed: xl_bench_detail_ncpus() records, or NULL
 * to leave it out), the steering policy's unparsed frames (@miss), the
 * --stress-mode replacements (@stress) and a line per target (@t, @nt).
 * Counts in frames since xl_redirect__create().
 */
void xl_redirect_print_totals(FILE *out, const struct xl_redirect_opts *o,
			      const struct xl_meter_window *w, const struct xl_redirect_stats *st,
			      const struct xl_redir_cpu_rec *cpu_recs,
			      const struct xl_steer_target *t, int nt,
			      const struct xl_steer_miss *miss, uint64_t stress);

#endif
