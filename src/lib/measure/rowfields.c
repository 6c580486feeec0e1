// SPDX-License-Identifier: BSD-2-Clause
/*
 * The members of a results row and of its repetitions (xdplab/report.h,
 * docs/results.md), named and typed once, with when each is known (field
 * tables, xdplab/fields.h, xdplab/rowfields.h): the writer walks these
 * tables, compare's and the report's readers read the repetitions by them
 * and take each other member's name from them, so that a member is renamed
 * or added in one place.
 */
#include <math.h>
#include <stddef.h>

#include <jansson.h>

#include "xdplab/report.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define OFF(T, m) offsetof(T, m)
#define SIZE(T, m) sizeof(((T *)0)->m)
/*
 * Known when the member @okm of record T says so (XL_FK_*); unknown written
 * as @u (XL_FU_*). REP_KNOWN() and ROW_KNOWN() take their last names.
 */
#define KNOWN(T, kn, okm, u) \
	.known = kn, .ok_off = OFF(T, okm), .ok_len = SIZE(T, okm), .unknown = u
/* A nested record's table. */
#define SUB(t) .sub = t, .nsub = ARRAY_LEN(t)

/* A repetition's figures per control run (null without a control). */
static double rep_rel_ns(const void *rec)
{
	const struct xl_rep_result *p = rec;

	return p->ctl_ns > 0 && p->pps > 0 ? xl_ns_per_pkt(p->pps) / p->ctl_ns : NAN;
}

static double rep_rel_cpu_ns(const void *rec)
{
	const struct xl_rep_result *p = rec;

	return p->ctl_ns > 0 && p->cpu_ns_per_pkt > 0 ? p->cpu_ns_per_pkt / p->ctl_ns : NAN;
}

/* Hardware counts per packet (struct xl_pmu_pkt): each null when not counted. */
#define PMU_F(id, name)                                                             \
	{ .key = #name "_per_pkt", .type = XL_FT_REAL,                              \
	  .off = OFF(struct xl_pmu_pkt, per_pkt[XL_PMU_##id]),                      \
	  KNOWN(struct xl_pmu_pkt, XL_FK_FLAG, ok[XL_PMU_##id], XL_FU_NULL) },
static const struct xl_field pmu_fields[] = {
	XL_PMU_EVENTS(PMU_F)
	{ .key = "ipc", .type = XL_FT_REAL, .off = OFF(struct xl_pmu_pkt, ipc),
	  KNOWN(struct xl_pmu_pkt, XL_FK_FLAG, ipc_ok, XL_FU_NULL) },
};
#undef PMU_F

/* A summary of repetitions (struct xl_summary); its count is not written. */
#define SUM_F(k, m) { .key = k, .type = XL_FT_REAL, .off = OFF(struct xl_summary, m) }
static const struct xl_field summary_fields[] = {
	SUM_F("median", median), SUM_F("min", min), SUM_F("max", max)
};
#undef SUM_F

/* The --extra-ns busy loop (struct xl_row_extra), as calibrated. */
#define EXTRA_F(k, t, m) { .key = k, .type = XL_FT_##t, .off = OFF(struct xl_row_extra, m) }
static const struct xl_field extra_fields[] = {
	EXTRA_F("target", REAL, target_ns), EXTRA_F("iters", U32, iters),
	EXTRA_F("ns_per_iter", REAL, ns_per_iter), EXTRA_F("set", REAL, set_ns),
	EXTRA_F("check", REAL, check_ns), EXTRA_F("steps", U32, steps),
};
#undef EXTRA_F

/* A member of struct xl_rep_result; REP_KNOWN: when it is known, as KNOWN(). */
#define R(id, k, t, m, ...) \
	[id] = { .key = k, .type = XL_FT_##t, .off = OFF(struct xl_rep_result, m), __VA_ARGS__ }
#define REP_KNOWN(kn, okm, u) KNOWN(struct xl_rep_result, XL_FK_##kn, okm, XL_FU_##u)
const struct xl_field xl_rep_fields[XL_REP_F__COUNT] = {
	R(XL_REP_F_NS, "ns", U64, ns),
	R(XL_REP_F_PACKETS, "packets", U64, packets),
	R(XL_REP_F_RUN_PACKETS, "run_packets", U64, run_packets),
	R(XL_REP_F_PPS, "pps", REAL, pps),
	R(XL_REP_F_GEN_PPS, "gen_pps", REAL, gen_pps),
	R(XL_REP_F_GEN_SENT, "gen_sent", U64, gen_sent),
	R(XL_REP_F_CPU_BUSY, "cpu_busy", REAL, cpu_busy),
	R(XL_REP_F_CPU_NS_PER_PKT, "cpu_ns_per_pkt", REAL, cpu_ns_per_pkt),
	R(XL_REP_F_CHAIN_NS_PER_PKT, "chain_ns_per_pkt", REAL, chain_ns_per_pkt),
	R(XL_REP_F_XMIT_EVENTS, "xmit_events", I64, xmit_events,
	  REP_KNOWN(NONNEG, xmit_events, NULL)),
	R(XL_REP_F_GEN_XMIT_ERRORS, "gen_xmit_errors", U64, gen_xmit_errors),
	R(XL_REP_F_ETH_PACKETS, "eth_packets", U64, eth_packets, REP_KNOWN(FLAG, eth_ok, NULL)),
	R(XL_REP_F_DISAGREEMENT, "counter_disagreement", REAL, disagreement),
	/* the tracepoint source's runs: packets per pair of tracepoint hits */
	R(XL_REP_F_SOFTIRQ_RUNS, "softirq_runs", U64, softirq_runs,
	  REP_KNOWN(COUNT, softirq_runs, OMIT)),
	R(XL_REP_F_HOST_CTL_NS, "host_ctl_ns", REAL, ctl_ns, REP_KNOWN(POS, ctl_ns, NULL)),
	[XL_REP_F_REL_NS] = { .key = "ns_per_pkt_per_ctl", .type = XL_FT_CALC, .num = rep_rel_ns },
	[XL_REP_F_REL_CPU_NS] = { .key = "cpu_ns_per_pkt_per_ctl", .type = XL_FT_CALC,
				  .num = rep_rel_cpu_ns },
	R(XL_REP_F_STEAL_SHARE, "steal_share", REAL, steal_share, REP_KNOWN(FLAG, steal_ok, NULL)),
	R(XL_REP_F_STEAL_HIGH, "steal_high", BOOL, steal_high, REP_KNOWN(FLAG, steal_ok, FALSE)),
	R(XL_REP_F_LOAD, "load", REAL, load, REP_KNOWN(FLAG, load_ok, NULL)),
	R(XL_REP_F_PMU, "pmu", OBJ, pmu, SUB(pmu_fields)),
};
#undef R
#undef REP_KNOWN

static const char *row_verdict(const void *r)
{
	return xl_row_verdict(r);
}

/*
 * A member of struct xl_row_result (its size too, for a char array);
 * ROW_KNOWN: when it is known, as KNOWN(); MEASURED: a figure, written for
 * a row with repetitions only.
 */
#define F(id, k, t, m, ...)                                                        \
	[id] = { .key = k, .type = XL_FT_##t, .off = OFF(struct xl_row_result, m), \
		 .len = SIZE(struct xl_row_result, m), __VA_ARGS__ }
#define ROW_KNOWN(kn, okm, u) KNOWN(struct xl_row_result, XL_FK_##kn, okm, XL_FU_##u)
#define MEASURED ROW_KNOWN(COUNT, nreps, OMIT)
const struct xl_field xl_row_fields[XL_ROW_F__COUNT] = {
	F(XL_ROW_F_NAME, "name", TEXT, name),
	F(XL_ROW_F_KIND, "kind", NAME_OPT, kind),
	F(XL_ROW_F_ACTION, "action", NAME_NULL, action),
	F(XL_ROW_F_OP, "packet_operation", NAME_NULL, op),
	F(XL_ROW_F_MODE, "mode", NAME_OPT, mode),
	F(XL_ROW_F_SIZE, "size", U32, size),
	F(XL_ROW_F_WIRING, "wiring", NAME, wiring),
	F(XL_ROW_F_NAPI_CPU, "napi_cpu", INT, napi_cpu),
	F(XL_ROW_F_GEN_CPU, "gen_cpu", INT, gen_cpu),
	F(XL_ROW_F_ENGINE, "gen_engine", NAME, engine),
	F(XL_ROW_F_JUDGED, "judged_cpu", NAME, judged),
	F(XL_ROW_F_COUNTER, "counter", NAME_OPT, counter),
	[XL_ROW_F_VERDICT] = { .key = "verdict", .type = XL_FT_FUNC, .str = row_verdict },
	F(XL_ROW_F_NOTE, "note", TEXT, note),
	F(XL_ROW_F_NS_PER_PKT, "ns_per_pkt", REAL, ns_per_pkt, MEASURED),
	F(XL_ROW_F_CPU_BUSY, "cpu_busy", REAL, cpu_busy, MEASURED),
	F(XL_ROW_F_CPU_NS_PER_PKT, "cpu_ns_per_pkt", REAL, cpu_ns_per_pkt, MEASURED),
	F(XL_ROW_F_CPU_SOURCE, "cpu_source", NAME_OPT, cpu_source, MEASURED),
	F(XL_ROW_F_GEN_MPPS, "gen_mpps", REAL, gen_mpps, MEASURED),
	F(XL_ROW_F_XMIT_ERRORS, "gen_xmit_errors", U64, xmit_errors, MEASURED),
	F(XL_ROW_F_RING_DROP_SHARE, "ring_drop_share", REAL, ring_drop_share, MEASURED),
	F(XL_ROW_F_DISAGREEMENT, "counter_disagreement", REAL, disagreement, MEASURED),
	F(XL_ROW_F_MISMATCH, "counter_mismatch", BOOL, mismatch, MEASURED),
	/* the program's time: only when measured (above 0) */
	F(XL_ROW_F_PROG_NS, "prog_ns_per_run", REAL, prog_ns, ROW_KNOWN(POS, prog_ns, OMIT)),
	F(XL_ROW_F_MPPS, "mpps", OBJ, mpps, ROW_KNOWN(COUNT, nreps, NULL), SUB(summary_fields)),
	F(XL_ROW_F_VALID, "valid", BOOL, valid, ROW_KNOWN(COUNT, nreps, FALSE)),
	[XL_ROW_F_REPS] = { .key = "reps", .type = XL_FT_ARRAY,
			    .off = OFF(struct xl_row_result, reps),
			    .len = sizeof(struct xl_rep_result), .sub = xl_rep_fields,
			    .nsub = XL_REP_F__COUNT, .count_off = OFF(struct xl_row_result, nreps),
			    .max = XL_MAX_REPS },
	F(XL_ROW_F_HOST_CTL, "host_ctl", OBJ, ctl, ROW_KNOWN(COUNT, ctl.n, NULL),
	  SUB(summary_fields)),
	F(XL_ROW_F_REL_NS, "ns_per_pkt_per_ctl", REAL, rel_ns_per_pkt,
	  ROW_KNOWN(POS, rel_ns_per_pkt, NULL)),
	F(XL_ROW_F_REL_CPU_NS, "cpu_ns_per_pkt_per_ctl", REAL, rel_cpu_ns_per_pkt,
	  ROW_KNOWN(POS, rel_cpu_ns_per_pkt, NULL)),
	F(XL_ROW_F_STEAL_HIGH_REPS, "steal_high_reps", INT, nsteal_high),
	F(XL_ROW_F_PMU, "pmu", OBJ, pmu, SUB(pmu_fields)),
	F(XL_ROW_F_EXTRA, "extra_ns", OBJ, extra, ROW_KNOWN(FLAG, extra.on, OMIT), SUB(extra_fields)),
};
#undef F
#undef ROW_KNOWN
#undef MEASURED
#undef KNOWN
#undef SUB

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
