// SPDX-License-Identifier: BSD-2-Clause
/*
 * The one writer and the one reader of field tables (xdplab/fields.h): a
 * record's members to a JSON object and back, by key, type and offset.
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "xdplab/fields.h"

/* The member of @r at @off, as type @T. */
#define AT(T, r, off) (*(const T *)((const char *)(r) + (off)))
#define AT_W(T, r, off) (*(T *)((char *)(r) + (off)))

/* Whether @f's value in @rec is known (enum xl_field_known; a CALC's: not NaN). */
static bool field_known(const void *rec, const struct xl_field *f)
{
	double d;

	if (f->type == XL_FT_CALC) {
		d = f->num(rec);
		return d == d;
	}
	switch (f->known) {
	case XL_FK_ALWAYS:
		return true;
	case XL_FK_FLAG:
		return AT(bool, rec, f->ok_off);
	case XL_FK_COUNT:
		return f->ok_len == sizeof(uint64_t) ? AT(uint64_t, rec, f->ok_off) != 0 :
						       AT(uint32_t, rec, f->ok_off) != 0;
	case XL_FK_POS:
		return AT(double, rec, f->ok_off) > 0;
	case XL_FK_NONNEG:
		return AT(int64_t, rec, f->ok_off) >= 0;
	}
	return true;
}

/* @f's value in @rec as a new JSON value, known or not. */
static json_t *field_value(const void *rec, const struct xl_field *f)
{
	const char *s;
	json_t *v;

	switch (f->type) {
	case XL_FT_TEXT:
		return json_string((const char *)rec + f->off);
	case XL_FT_NAME:
		s = AT(char *, rec, f->off);
		return json_string(s ? s : "");
	case XL_FT_NAME_NULL:
		s = AT(char *, rec, f->off);
		return s ? json_string(s) : json_null();
	case XL_FT_NAME_OPT:
		s = AT(char *, rec, f->off);
		return s ? json_string(s) : NULL;
	case XL_FT_U32:
		return json_integer(AT(uint32_t, rec, f->off));
	case XL_FT_INT:
		return json_integer(AT(int, rec, f->off));
	case XL_FT_U64:
		return json_integer((json_int_t)AT(uint64_t, rec, f->off));
	case XL_FT_I64:
		return json_integer(AT(int64_t, rec, f->off));
	case XL_FT_REAL:
		return json_real(AT(double, rec, f->off));
	case XL_FT_BOOL:
		return json_boolean(AT(bool, rec, f->off));
	case XL_FT_FUNC:
		return json_string(f->str(rec));
	case XL_FT_CALC:
		return json_real(f->num(rec));
	case XL_FT_OBJ:
		v = json_object();
		if (v && xl_fields_to_json(v, f->sub, f->nsub, (const char *)rec + f->off)) {
			json_decref(v);
			return NULL;
		}
		return v;
	case XL_FT_ARRAY: {
		int i, n = AT(int, rec, f->count_off);
		json_t *e;

		v = json_array();
		for (i = 0; v && i < n && i < f->max; i++) {
			e = json_object();
			if (!e ||
			    xl_fields_to_json(e, f->sub, f->nsub, (const char *)rec + f->off + i * f->len) ||
			    json_array_append_new(v, e)) {
				json_decref(e);
				json_decref(v);
				return NULL;
			}
		}
		return v;
	}
	}
	return NULL;
}

json_t *xl_field_json(const void *rec, const struct xl_field *f)
{
	if (field_known(rec, f))
		return field_value(rec, f);
	if (f->unknown == XL_FU_OMIT)
		return NULL;
	return f->unknown == XL_FU_FALSE ? json_false() : json_null();
}

int xl_fields_to_json(json_t *o, const struct xl_field *t, size_t n, const void *rec)
{
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *v = xl_field_json(rec, &t[i]);

		if (!v) {
			if (t[i].type == XL_FT_NAME_OPT ||
			    (t[i].unknown == XL_FU_OMIT && !field_known(rec, &t[i])))
				continue; /* not written */
			return -ENOMEM;
		}
		if (json_object_set_new(o, t[i].key, v))
			return -ENOMEM;
	}
	return 0;
}

double xl_json_num(const json_t *o, const char *key, double dflt)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

_Static_assert(LDBL_MANT_DIG >= 64, "xl_json_clamped() needs a uint64_t exact in a long double");
long double xl_json_clamped(const json_t *o, const char *key, long double dflt, long double lo,
			    long double hi)
{
	double v = xl_json_num(o, key, (double)dflt);

	if (v != v)
		return dflt;
	if (v <= lo)
		return lo;
	if (v >= hi)
		return hi;
	return truncl(v);
}

/* Whether @v is of the JSON kind that @f's type is written as. */
static bool field_kind(const json_t *v, const struct xl_field *f)
{
	switch (f->type) {
	case XL_FT_TEXT:
		return json_is_string(v);
	case XL_FT_BOOL:
		return json_is_boolean(v);
	case XL_FT_OBJ:
		return json_is_object(v);
	case XL_FT_ARRAY:
		return json_is_array(v);
	default:
		return json_is_number(v);
	}
}

static void field_from_json(const json_t *o, const struct xl_field *f, void *rec)
{
	json_t *v = json_object_get(o, f->key), *e;
	size_t i;
	int *count;

	switch (f->type) {
	case XL_FT_TEXT:
		snprintf((char *)rec + f->off, f->len, "%s",
			 json_is_string(v) ? json_string_value(v) : "");
		break;
	case XL_FT_NAME:
	case XL_FT_NAME_NULL:
	case XL_FT_NAME_OPT:
	case XL_FT_FUNC:
	case XL_FT_CALC:
		return; /* written only */
	case XL_FT_U32:
		AT_W(uint32_t, rec, f->off) = (uint32_t)xl_json_clamped(o, f->key, 0, 0, UINT32_MAX);
		break;
	case XL_FT_INT:
		AT_W(int, rec, f->off) = (int)xl_json_clamped(o, f->key, 0, INT_MIN, INT_MAX);
		break;
	case XL_FT_U64:
		AT_W(uint64_t, rec, f->off) = (uint64_t)xl_json_clamped(o, f->key, 0, 0, UINT64_MAX);
		break;
	case XL_FT_I64:
		AT_W(int64_t, rec, f->off) = (int64_t)xl_json_clamped(o, f->key, 0, INT64_MIN,
								      INT64_MAX);
		break;
	case XL_FT_REAL:
		AT_W(double, rec, f->off) = xl_json_num(o, f->key, 0);
		break;
	case XL_FT_BOOL:
		AT_W(bool, rec, f->off) = json_is_true(v);
		break;
	case XL_FT_OBJ:
		xl_fields_from_json(json_is_object(v) ? v : NULL, f->sub, f->nsub,
				    (char *)rec + f->off);
		break;
	case XL_FT_ARRAY:
		count = &AT_W(int, rec, f->count_off);
		*count = 0;
		json_array_foreach(v, i, e)
			if (*count < f->max && json_is_object(e))
				xl_fields_from_json(e, f->sub, f->nsub,
						    (char *)rec + f->off + (*count)++ * f->len);
		break;
	}
	/* What an unknown value says of the record (enum xl_field_unknown). */
	if (f->known == XL_FK_FLAG && f->unknown != XL_FU_FALSE)
		AT_W(bool, rec, f->ok_off) = field_kind(v, f);
	else if (f->known == XL_FK_NONNEG && !field_kind(v, f))
		AT_W(int64_t, rec, f->ok_off) = -1;
}

void xl_fields_from_json(const json_t *o, const struct xl_field *t, size_t n, void *rec)
{
	size_t i;

	/* The arrays last: their count is what they hold, whatever a member read before said. */
	for (i = 0; i < n; i++)
		if (t[i].type != XL_FT_ARRAY)
			field_from_json(o, &t[i], rec);
	for (i = 0; i < n; i++)
		if (t[i].type == XL_FT_ARRAY)
			field_from_json(o, &t[i], rec);
}
