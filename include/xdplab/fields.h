/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file fields.h
 * Field tables: the members of a record written to and read from a results
 * file (docs/results.md), each named and typed once, as key, type and
 * offset into the record. One writer and one reader walk any table, so the
 * JSON writer and the readers (compare's, the report's) of a record cannot
 * drift apart. The tables (xdplab/rowfields.h): xl_row_fields[] and
 * xl_rep_fields[] (a results row and one of its repetitions),
 * xl_lat_row_fields[] and xl_lat_rep_fields[] (a latency row and one of its
 * repetitions).
 * The idea is xdp-tools' option tables (DEFINE_OPTION: type, struct, field)
 * applied to a file's members instead of a command's options.
 */
#ifndef XDPLAB_FIELDS_H
#define XDPLAB_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

struct json_t;

/**
 * enum xl_field_type - how a member is held in its record and written.
 * @XL_FT_TEXT: a char array of struct xl_field.len bytes, a string.
 * @XL_FT_NAME: a const char *, written as a string ("" for NULL).
 * @XL_FT_NAME_NULL: a const char *, NULL written as null.
 * @XL_FT_NAME_OPT: a const char *, NULL not written.
 * @XL_FT_U32/@XL_FT_INT/@XL_FT_U64/@XL_FT_I64: uint32_t, int, uint64_t,
 *   int64_t; a uint64_t above INT64_MAX is written as jansson's json_int_t
 *   holds it (negative).
 * @XL_FT_REAL: a double. @XL_FT_BOOL: a bool.
 * @XL_FT_FUNC: not held: struct xl_field.str() of the record, a string.
 * @XL_FT_CALC: not held: struct xl_field.num() of the record, a number
 *   computed from other members (NaN: unknown, struct xl_field.unknown).
 * @XL_FT_OBJ: a record at the offset, its members in struct xl_field.sub:
 *   a JSON object.
 * @XL_FT_ARRAY: struct xl_field.max records of struct xl_field.len bytes
 *   at the offset, as many as the int at struct xl_field.count_off says,
 *   each with the members of struct xl_field.sub: a JSON array of objects.
 * The pointer types (NAME*), FUNC and CALC are written only: a reader has
 * no storage for them and leaves them as they are.
 */
enum xl_field_type {
	XL_FT_TEXT,
	XL_FT_NAME,
	XL_FT_NAME_NULL,
	XL_FT_NAME_OPT,
	XL_FT_U32,
	XL_FT_INT,
	XL_FT_U64,
	XL_FT_I64,
	XL_FT_REAL,
	XL_FT_BOOL,
	XL_FT_FUNC,
	XL_FT_CALC,
	XL_FT_OBJ,
	XL_FT_ARRAY,
};

/**
 * enum xl_field_known - when a member's value is known (struct
 * xl_field.known), tested on the record's member at struct xl_field.ok_off
 * (the member's own offset, or another member's):
 * @XL_FK_ALWAYS: always (the default).
 * @XL_FK_FLAG: the bool there is true (eth_ok: the kernel's count was read).
 * @XL_FK_COUNT: the integer of struct xl_field.ok_len bytes (4 or 8) there
 *   is not 0 (a row's repetitions, a summary's values, a count not made).
 * @XL_FK_POS: the double there is above 0 (a time not measured is 0).
 * @XL_FK_NONNEG: the int64_t there is not negative (-1: not counted).
 */
enum xl_field_known {
	XL_FK_ALWAYS,
	XL_FK_FLAG,
	XL_FK_COUNT,
	XL_FK_POS,
	XL_FK_NONNEG,
};

/**
 * enum xl_field_unknown - how a member whose value is not known is written
 * (struct xl_field.unknown): @XL_FU_NULL null (the default), @XL_FU_OMIT
 * not at all, @XL_FU_FALSE false (a bool). A reader that finds the member
 * null, absent or not of its type's JSON kind reads the member as 0
 * (false, ""), an XL_FK_NONNEG member as -1, and, unless @XL_FU_FALSE
 * (false says nothing of the flag), clears an XL_FK_FLAG member's flag;
 * it sets that flag when the member is there.
 */
enum xl_field_unknown {
	XL_FU_NULL,
	XL_FU_OMIT,
	XL_FU_FALSE,
};

/**
 * struct xl_field - one member of a record.
 * @key: its JSON name. @type: how it is held and written.
 * @off: its offset in the record, bytes (unused for XL_FT_FUNC, XL_FT_CALC).
 * @len: XL_FT_TEXT: the char array's size; XL_FT_ARRAY: one element's size.
 * @known/@ok_off/@ok_len: when its value is known (enum xl_field_known),
 *   tested on the member at @ok_off (@ok_len bytes for XL_FK_COUNT);
 *   @unknown: how it is written when not (enum xl_field_unknown).
 * @str: XL_FT_FUNC: the string written for the record (static or owned by
 *   the record).
 * @num: XL_FT_CALC: the number written for the record, NaN when unknown.
 * @sub/@nsub: XL_FT_OBJ, XL_FT_ARRAY: the table of the nested record.
 * @count_off/@max: XL_FT_ARRAY: the offset of the int holding how many
 *   elements are set, and how many the record has room for.
 */
struct xl_field {
	const char *key;
	enum xl_field_type type;
	size_t off, len;
	enum xl_field_known known;
	enum xl_field_unknown unknown;
	size_t ok_off, ok_len;
	const char *(*str)(const void *rec);
	double (*num)(const void *rec);
	const struct xl_field *sub;
	size_t nsub;
	size_t count_off;
	int max;
};

/**
 * xl_field_json() - member @f of the record @rec as a new JSON value
 * (jansson's; the caller owns it), or NULL when it is not written
 * (XL_FT_NAME_OPT's NULL, an unknown value of XL_FU_OMIT) or on ENOMEM.
 */
struct json_t *xl_field_json(const void *rec, const struct xl_field *f);

/**
 * xl_fields_to_json() - set @o's members from the @n members of table @t
 * of the record @rec, in the table's order (jansson keeps insertion order,
 * so the file's order is the table's). Return: 0, -ENOMEM.
 */
int xl_fields_to_json(struct json_t *o, const struct xl_field *t, size_t n, const void *rec);

/**
 * xl_fields_from_json() - fill the record @rec from the JSON object @o by
 * the @n members of table @t (the written-only types left as they are).
 * A member absent or of the wrong JSON type reads as "" / 0 / false (and
 * as enum xl_field_unknown says of its flag); an
 * integer is truncated toward zero and clamped to its type's range (NaN:
 * 0); an array keeps its first struct xl_field.max objects, skipping any
 * element that is not an object, and sets the count (after every other
 * member: an int member at the same offset cannot set it). @o may be NULL (every
 * member absent). Untrusted input: nothing is read past a record's bounds.
 */
void xl_fields_from_json(const struct json_t *o, const struct xl_field *t, size_t n, void *rec);

/**
 * xl_json_num() - member @key of the JSON object @o as a number, @dflt when
 * absent or not a number (@o may be NULL).
 */
double xl_json_num(const struct json_t *o, const char *key, double dflt);

/**
 * xl_json_clamped() - member @key of @o as an integer: @dflt when absent,
 * not a number or NaN, else truncated toward zero and clamped to [@lo, @hi],
 * the range of the caller's type (a double outside it has no defined
 * conversion, C11 6.3.1.4). A long double holds every int64_t and uint64_t
 * exactly, so the caller's conversion of the result is always defined.
 */
long double xl_json_clamped(const struct json_t *o, const char *key, long double dflt,
			    long double lo, long double hi);

#endif /* XDPLAB_FIELDS_H */
