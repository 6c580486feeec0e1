// SPDX-License-Identifier: BSD-2-Clause
/*
 * The members of a results row (xdplab/report.h, docs/results.md), named
 * and typed once (a field table, xdplab/fields.h): the writer walks this
 * table, and compare's and the report's readers take each member's name
 * from it, so that a member is renamed or added in one place.
 */
#include <stddef.h>

#include <jansson.h>

#include "xdplab/report.h"

/* A member of struct xl_row_result: its size too, for a char array. */
#define F(id, k, t, field, m)                                                               \
	[id] = { .key = k, .type = XL_FT_##t, .off = offsetof(struct xl_row_result, field), \
		 .len = sizeof(((struct xl_row_result *)0)->field), .measured = m }

static const char *row_verdict(const void *r)
{
	return xl_row_verdict(r);
}

const struct xl_field xl_row_fields[XL_ROW_F__COUNT] = {
	F(XL_ROW_F_NAME, "name", TEXT, name, false),
	F(XL_ROW_F_KIND, "kind", NAME_OPT, kind, false),
	F(XL_ROW_F_ACTION, "action", NAME_NULL, action, false),
	F(XL_ROW_F_OP, "packet_operation", NAME_NULL, op, false),
	F(XL_ROW_F_MODE, "mode", NAME_OPT, mode, false),
	F(XL_ROW_F_SIZE, "size", U32, size, false),
	F(XL_ROW_F_WIRING, "wiring", NAME, wiring, false),
	F(XL_ROW_F_NAPI_CPU, "napi_cpu", INT, napi_cpu, false),
	F(XL_ROW_F_GEN_CPU, "gen_cpu", INT, gen_cpu, false),
	F(XL_ROW_F_ENGINE, "gen_engine", NAME, engine, false),
	F(XL_ROW_F_JUDGED, "judged_cpu", NAME, judged, false),
	F(XL_ROW_F_COUNTER, "counter", NAME_OPT, counter, false),
	[XL_ROW_F_VERDICT] = { .key = "verdict", .type = XL_FT_FUNC, .str = row_verdict },
	F(XL_ROW_F_NOTE, "note", TEXT, note, false),
	F(XL_ROW_F_NS_PER_PKT, "ns_per_pkt", REAL, ns_per_pkt, true),
	F(XL_ROW_F_CPU_BUSY, "cpu_busy", REAL, cpu_busy, true),
	F(XL_ROW_F_CPU_NS_PER_PKT, "cpu_ns_per_pkt", REAL, cpu_ns_per_pkt, true),
	F(XL_ROW_F_CPU_SOURCE, "cpu_source", NAME_OPT, cpu_source, true),
	F(XL_ROW_F_GEN_MPPS, "gen_mpps", REAL, gen_mpps, true),
	F(XL_ROW_F_XMIT_ERRORS, "gen_xmit_errors", U64, xmit_errors, true),
	F(XL_ROW_F_RING_DROP_SHARE, "ring_drop_share", REAL, ring_drop_share, true),
	F(XL_ROW_F_DISAGREEMENT, "counter_disagreement", REAL, disagreement, true),
	F(XL_ROW_F_MISMATCH, "counter_mismatch", BOOL, mismatch, true),
	F(XL_ROW_F_PROG_NS, "prog_ns_per_run", REAL_POS, prog_ns, true),
};

#undef F

/*
 * A latency repetition (struct xl_lat_rep) and a latency row (struct
 * xl_lat_rowrec): each JSON key is the member's own name. What a latency row's
 * object has besides is written by hand, for a reason: "buckets" (the
 * non-empty buckets of the row's summed histogram, struct xl_lat_totals,
 * with their bounds computed: not a member of the record, and no reader
 * reads them back) in xl_lat_row_json(), and the document's
 * "latency_clock"/"latency_resolution" (constants, not a row's) in
 * xl_lat_clock_json().
 */
#define LREP(m, t) { .key = #m, .type = XL_FT_##t, .off = offsetof(struct xl_lat_rep, m) }
const struct xl_field xl_lat_rep_fields[] = {
	LREP(sent, U64),    LREP(xmit_errors, U64), LREP(received, U64), LREP(lost, U64),
	LREP(gaps, U64),    LREP(reordered, U64),   LREP(duplicates, U64), LREP(min_ns, U64),
	LREP(p50_ns, U64),  LREP(p90_ns, U64),	    LREP(p99_ns, U64),	 LREP(p999_ns, U64),
	LREP(max_ns, U64),  LREP(mean_ns, REAL),    LREP(negative, U64), LREP(unset, U64),
};
#undef LREP
const size_t xl_lat_rep_nfields = sizeof(xl_lat_rep_fields) / sizeof(xl_lat_rep_fields[0]);

#define LREC(m, t)                                                                   \
	{ .key = #m, .type = XL_FT_##t, .off = offsetof(struct xl_lat_rowrec, m), \
	  .len = sizeof(((struct xl_lat_rowrec *)0)->m) }
const struct xl_field xl_lat_row_fields[] = {
	LREC(name, TEXT),
	LREC(path, TEXT),
	LREC(round_trip, BOOL),
	LREC(size, U32),
	LREC(rate_pps, U64),
	LREC(seconds, REAL),
	LREC(batch, U32),
	LREC(wiring, TEXT),
	LREC(delay_ns, U64),
	LREC(nreps, INT),
	LREC(note, TEXT),
	{ .key = "median", .type = XL_FT_OBJ, .off = offsetof(struct xl_lat_rowrec, med),
	  .sub = xl_lat_rep_fields,
	  .nsub = sizeof(xl_lat_rep_fields) / sizeof(xl_lat_rep_fields[0]) },
	{ .key = "reps", .type = XL_FT_ARRAY, .off = offsetof(struct xl_lat_rowrec, reps),
	  .len = sizeof(struct xl_lat_rep), .sub = xl_lat_rep_fields,
	  .nsub = sizeof(xl_lat_rep_fields) / sizeof(xl_lat_rep_fields[0]),
	  .count_off = offsetof(struct xl_lat_rowrec, nreps), .max = XL_MAX_REPS },
};
#undef LREC
const size_t xl_lat_row_nfields = sizeof(xl_lat_row_fields) / sizeof(xl_lat_row_fields[0]);

const char *xl_row_field_str(const json_t *o, enum xl_row_field_id id)
{
	const char *s = json_string_value(json_object_get(o, xl_row_fields[id].key));

	return s ? s : "";
}

double xl_row_field_num(const json_t *o, enum xl_row_field_id id)
{
	return json_number_value(json_object_get(o, xl_row_fields[id].key));
}
