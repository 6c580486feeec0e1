// SPDX-License-Identifier: BSD-2-Clause
/*
 * The members of a results row (xdplab/report.h, docs/results.md), named
 * and typed once: the writer walks this table, and compare's and the
 * report's readers take each member's name from it, so that a member is
 * renamed or added in one place.
 */
#include <stddef.h>

#include <jansson.h>

#include "xdplab/report.h"

#define F(id, k, t, field, m) \
	[id] = { .key = k, .type = t, .off = offsetof(struct xl_row_result, field), .measured = m }

const struct xl_row_field xl_row_fields[XL_ROW_F__COUNT] = {
	F(XL_ROW_F_NAME, "name", XL_ROW_T_TEXT, name, false),
	F(XL_ROW_F_KIND, "kind", XL_ROW_T_NAME_OPT, kind, false),
	F(XL_ROW_F_ACTION, "action", XL_ROW_T_NAME_NULL, action, false),
	F(XL_ROW_F_OP, "packet_operation", XL_ROW_T_NAME_NULL, op, false),
	F(XL_ROW_F_MODE, "mode", XL_ROW_T_NAME_OPT, mode, false),
	F(XL_ROW_F_SIZE, "size", XL_ROW_T_U32, size, false),
	F(XL_ROW_F_WIRING, "wiring", XL_ROW_T_NAME, wiring, false),
	F(XL_ROW_F_NAPI_CPU, "napi_cpu", XL_ROW_T_INT, napi_cpu, false),
	F(XL_ROW_F_GEN_CPU, "gen_cpu", XL_ROW_T_INT, gen_cpu, false),
	F(XL_ROW_F_ENGINE, "gen_engine", XL_ROW_T_NAME, engine, false),
	F(XL_ROW_F_JUDGED, "judged_cpu", XL_ROW_T_NAME, judged, false),
	F(XL_ROW_F_COUNTER, "counter", XL_ROW_T_NAME_OPT, counter, false),
	[XL_ROW_F_VERDICT] = { .key = "verdict", .type = XL_ROW_T_VERDICT },
	F(XL_ROW_F_NOTE, "note", XL_ROW_T_TEXT, note, false),
	F(XL_ROW_F_NS_PER_PKT, "ns_per_pkt", XL_ROW_T_REAL, ns_per_pkt, true),
	F(XL_ROW_F_CPU_BUSY, "cpu_busy", XL_ROW_T_REAL, cpu_busy, true),
	F(XL_ROW_F_CPU_NS_PER_PKT, "cpu_ns_per_pkt", XL_ROW_T_REAL, cpu_ns_per_pkt, true),
	F(XL_ROW_F_CPU_SOURCE, "cpu_source", XL_ROW_T_NAME_OPT, cpu_source, true),
	F(XL_ROW_F_GEN_MPPS, "gen_mpps", XL_ROW_T_REAL, gen_mpps, true),
	F(XL_ROW_F_XMIT_ERRORS, "gen_xmit_errors", XL_ROW_T_U64, xmit_errors, true),
	F(XL_ROW_F_RING_DROP_SHARE, "ring_drop_share", XL_ROW_T_REAL, ring_drop_share, true),
	F(XL_ROW_F_DISAGREEMENT, "counter_disagreement", XL_ROW_T_REAL, disagreement, true),
	F(XL_ROW_F_MISMATCH, "counter_mismatch", XL_ROW_T_BOOL, mismatch, true),
	F(XL_ROW_F_PROG_NS, "prog_ns_per_run", XL_ROW_T_REAL_POS, prog_ns, true),
};

#undef F

/* The member of @r at @off, as type @T. */
#define AT(T, r, off) (*(const T *)((const char *)(r) + (off)))

json_t *xl_row_field_json(const struct xl_row_result *r, const struct xl_row_field *f)
{
	const char *s;

	switch (f->type) {
	case XL_ROW_T_TEXT:
		return json_string((const char *)r + f->off);
	case XL_ROW_T_NAME:
		s = AT(const char *, r, f->off);
		return json_string(s ? s : "");
	case XL_ROW_T_NAME_NULL:
		s = AT(const char *, r, f->off);
		return s ? json_string(s) : json_null();
	case XL_ROW_T_NAME_OPT:
		s = AT(const char *, r, f->off);
		return s ? json_string(s) : NULL;
	case XL_ROW_T_U32:
		return json_integer(AT(uint32_t, r, f->off));
	case XL_ROW_T_INT:
		return json_integer(AT(int, r, f->off));
	case XL_ROW_T_U64:
		return json_integer((json_int_t)AT(uint64_t, r, f->off));
	case XL_ROW_T_REAL:
		return json_real(AT(double, r, f->off));
	case XL_ROW_T_REAL_POS:
		return AT(double, r, f->off) > 0 ? json_real(AT(double, r, f->off)) : NULL;
	case XL_ROW_T_BOOL:
		return json_boolean(AT(bool, r, f->off));
	case XL_ROW_T_VERDICT:
		return json_string(xl_row_verdict(r));
	}
	return NULL;
}

const char *xl_row_field_str(const json_t *o, enum xl_row_field_id id)
{
	const char *s = json_string_value(json_object_get(o, xl_row_fields[id].key));

	return s ? s : "";
}

double xl_row_field_num(const json_t *o, enum xl_row_field_id id)
{
	return json_number_value(json_object_get(o, xl_row_fields[id].key));
}
