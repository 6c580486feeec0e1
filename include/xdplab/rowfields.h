/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file rowfields.h
 * The field tables (xdplab/fields.h) of a results file's records
 * (docs/results.md), in src/lib/measure/rowfields.c: a row (struct
 * xl_row_result of xdplab/report.h) and its repetitions (struct
 * xl_rep_result), a latency row and its repetitions. The writer
 * (report.c) and the readers (compare's, the report's) walk them or take a
 * member's key from them, so that a member is named and typed once.
 */
#ifndef XDPLAB_ROWFIELDS_H
#define XDPLAB_ROWFIELDS_H

#include <stddef.h>

#include "xdplab/fields.h"

/**
 * enum xl_row_field_id - the members of a results row's JSON object
 * (docs/results.md) that the writer (xl_report_json_write()) and the
 * readers (compare's, the report's) share, each an index of
 * xl_row_fields[]: a member is named and typed there once.
 */
enum xl_row_field_id {
	XL_ROW_F_NAME,
	XL_ROW_F_KIND,
	XL_ROW_F_ACTION,
	XL_ROW_F_OP,
	XL_ROW_F_MODE,
	XL_ROW_F_SIZE,
	XL_ROW_F_WIRING,
	XL_ROW_F_NAPI_CPU,
	XL_ROW_F_GEN_CPU,
	XL_ROW_F_ENGINE,
	XL_ROW_F_JUDGED,
	XL_ROW_F_COUNTER,
	XL_ROW_F_VERDICT,
	XL_ROW_F_NOTE,
	/* written for a row with repetitions only */
	XL_ROW_F_NS_PER_PKT,
	XL_ROW_F_CPU_BUSY,
	XL_ROW_F_CPU_NS_PER_PKT,
	XL_ROW_F_CPU_SOURCE,
	XL_ROW_F_GEN_MPPS,
	XL_ROW_F_XMIT_ERRORS,
	XL_ROW_F_RING_DROP_SHARE,
	XL_ROW_F_DISAGREEMENT,
	XL_ROW_F_MISMATCH,
	XL_ROW_F_PROG_NS,
	/* written for every row, null or false without repetitions (or a control) */
	XL_ROW_F_MPPS,
	XL_ROW_F_VALID,
	XL_ROW_F_REPS,
	XL_ROW_F_HOST_CTL,
	XL_ROW_F_REL_NS,
	XL_ROW_F_REL_CPU_NS,
	XL_ROW_F_STEAL_HIGH_REPS,
	XL_ROW_F_PMU,
	XL_ROW_F_EXTRA,
	XL_ROW_F__COUNT
};

/**
 * xl_row_fields[] - the field table of a results row (struct
 * xl_row_result; src/lib/measure/rowfields.c), indexed by enum
 * xl_row_field_id; "verdict" is XL_FT_FUNC (xl_row_verdict()), the figures
 * are written for a row with repetitions only (XL_FK_COUNT of nreps), its
 * "reps" are records of xl_rep_fields[]. What a row's object has besides
 * is written by hand: "ns_per_pkt_corrected" and
 * "cpu_ns_per_pkt_corrected" (scaled by the run's reference control, not
 * the row's) and each part's member (struct xl_row_part_ops.json).
 */
extern const struct xl_field xl_row_fields[XL_ROW_F__COUNT];

/**
 * xl_lat_row_fields[] - the field table of a latency row, struct
 * xl_lat_rowrec (src/lib/measure/rowfields.c), in the file's order; its
 * "median" and "reps" are records of xl_lat_rep_fields[], struct
 * xl_lat_rep. @xl_lat_row_nfields/@xl_lat_rep_nfields: their lengths.
 * The row's "buckets" are not a member: the writer adds them from the
 * summed histogram (xl_lat_row_json()).
 */
extern const struct xl_field xl_lat_row_fields[], xl_lat_rep_fields[];
extern const size_t xl_lat_row_nfields, xl_lat_rep_nfields;

/**
 * xl_row_field_str() - member @id of the JSON row object @o as text: its
 * string (owned by @o), "" when absent or not a string. For the readers.
 */
const char *xl_row_field_str(const struct json_t *o, enum xl_row_field_id id);

/** xl_row_field_num() - member @id of @o as a number: 0 when absent or not a number. */
double xl_row_field_num(const struct json_t *o, enum xl_row_field_id id);

/**
 * enum xl_rep_field_id - the members of one repetition's JSON object (an
 * element of a row's "reps", or of a single command's "intervals"), each
 * an index of xl_rep_fields[].
 */
enum xl_rep_field_id {
	XL_REP_F_NS,
	XL_REP_F_PACKETS,
	XL_REP_F_RUN_PACKETS,
	XL_REP_F_PPS,
	XL_REP_F_GEN_PPS,
	XL_REP_F_GEN_SENT,
	XL_REP_F_CPU_BUSY,
	XL_REP_F_CPU_NS_PER_PKT,
	XL_REP_F_CHAIN_NS_PER_PKT,
	XL_REP_F_XMIT_EVENTS,
	XL_REP_F_GEN_XMIT_ERRORS,
	XL_REP_F_ETH_PACKETS,
	XL_REP_F_DISAGREEMENT,
	XL_REP_F_SOFTIRQ_RUNS,
	XL_REP_F_HOST_CTL_NS,
	XL_REP_F_REL_NS,
	XL_REP_F_REL_CPU_NS,
	XL_REP_F_STEAL_SHARE,
	XL_REP_F_STEAL_HIGH,
	XL_REP_F_LOAD,
	XL_REP_F_PMU,
	XL_REP_F__COUNT
};

/**
 * xl_rep_fields[] - the field table of a repetition (struct xl_rep_result
 * of xdplab/report.h; src/lib/measure/rowfields.c), indexed by enum
 * xl_rep_field_id: what is not known written null (eth_packets without
 * the kernel's count, xmit_events not counted...); its figures per control
 * run (XL_REP_F_REL_NS, XL_REP_F_REL_CPU_NS) computed, written only.
 */
extern const struct xl_field xl_rep_fields[XL_REP_F__COUNT];

#endif /* XDPLAB_ROWFIELDS_H */
