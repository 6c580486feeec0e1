// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_log.c - the log module (src/lib/core/log.c): libbpf's own messages,
 * which already start "libbpf: ", reach stderr with that prefix once
 * ("xdplab: libbpf: elf: ..."), and only from -v (their warnings are our info);
 * the terminal escaper xl_term_esc() (core/escape.c) byte for byte, and that every message
 * (ours and libbpf's) goes through it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "xdplab/escape.h"
#include "xdplab/log.h"

/* Open missing object @obj_path at @level; what libbpf logged through us, in @buf. */
static void libbpf_open(const char *obj_path, enum xl_log_level level, char *buf, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	struct bpf_object *obj;
	size_t n;

	assert_non_null(tmp);
	assert_true(saved >= 0);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	xl_log_set_level(level);
	obj = bpf_object__open_file(obj_path, NULL);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	xl_log_set_level(XL_LOG_WARN);
	assert_null(obj);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = 0;
	fclose(tmp);
}

static void libbpf_open_missing(enum xl_log_level level, char *buf, size_t len)
{
	libbpf_open("/nonexistent/xl-test-log.o", level, buf, len);
}

/* What xl_err(@fmt, @arg) wrote to stderr, in @buf. */
static void log_one(const char *fmt, const char *arg, char *buf, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	assert_non_null(tmp);
	assert_true(saved >= 0);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	xl_err(fmt, arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = 0;
	fclose(tmp);
}

#define ESC_EQ(in, flags, want)                                                  \
	do {                                                                      \
		char b_[256];                                                     \
		assert_string_equal(xl_term_esc(b_, sizeof(b_), (in), (flags)), (want)); \
	} while (0)

/* Controls as \xNN; a newline inside a name cannot start a line. */
static void test_esc_controls(void **state)
{
	ESC_EQ("\x1b[2J", 0, "\\x1b[2J");
	ESC_EQ("a\rb", 0, "a\\x0db");
	ESC_EQ("row\nforged 1.000 ok", 0, "row\\x0aforged 1.000 ok");
	ESC_EQ("\x7f", 0, "\\x7f");
	ESC_EQ("\x01\x1f\t", 0, "\\x01\\x1f\\x09");
	ESC_EQ("plain drop/no-touch 64 a\\b|c", 0, "plain drop/no-touch 64 a\\b|c");
	ESC_EQ("", 0, "");
	ESC_EQ(NULL, 0, "(null)");
}

/* Valid UTF-8 kept; C1 controls, invalid and overlong bytes shown per byte. */
static void test_esc_utf8(void **state)
{
	ESC_EQ("h\xc3\xa9llo \xe2\x82\xac \xf0\x9d\x84\x9e", 0, "h\xc3\xa9llo \xe2\x82\xac \xf0\x9d\x84\x9e");
	ESC_EQ("\xc2\xa0\xdf\xbf\xef\xbf\xbd\xf4\x8f\xbf\xbf", 0, "\xc2\xa0\xdf\xbf\xef\xbf\xbd\xf4\x8f\xbf\xbf");
	ESC_EQ("\xc2\x9b" "2J", 0, "\\xc2\\x9b" "2J"); /* U+009B: CSI */
	ESC_EQ("\xc2\x80", 0, "\\xc2\\x80");
	ESC_EQ("\xff\xfe", 0, "\\xff\\xfe");
	ESC_EQ("\xc0\xaf", 0, "\\xc0\\xaf"); /* overlong '/' */
	ESC_EQ("\xe0\x80\xaf", 0, "\\xe0\\x80\\xaf"); /* overlong, 3 bytes */
	ESC_EQ("\xed\xa0\x80", 0, "\\xed\\xa0\\x80"); /* a surrogate */
	ESC_EQ("\xf4\x90\x80\x80", 0, "\\xf4\\x90\\x80\\x80"); /* above U+10FFFF */
	ESC_EQ("\xe2\x82", 0, "\\xe2\\x82"); /* cut short by the end */
	ESC_EQ("\xe2\x82x", 0, "\\xe2\\x82x");
	ESC_EQ("\x80", 0, "\\x80"); /* a lone continuation byte */
}

static void test_esc_flags(void **state)
{
	ESC_EQ("a|b\\c", XL_ESC_MD, "a\\|b\\\\c");
	/* Markup of a rendered PR comment: raw HTML, an entity, a link, an image. */
	ESC_EQ("<img src=x onerror=alert(1)>", XL_ESC_MD, "\\<img src=x onerror=alert(1)\\>");
	ESC_EQ("&amp; [l](http://e) ![i](u)", XL_ESC_MD, "\\&amp; \\[l](http://e) !\\[i](u)");
	ESC_EQ("<b>&[", 0, "<b>&[");
	/* Bidi embedding, override and isolate controls (Trojan Source) as bytes. */
	ESC_EQ("a\xe2\x80\xae" "b", 0, "a\\xe2\\x80\\xaeb");  /* U+202E RLO */
	ESC_EQ("\xe2\x80\xaa\xe2\x81\xa6\xe2\x81\xa9", 0,
	       "\\xe2\\x80\\xaa\\xe2\\x81\\xa6\\xe2\\x81\\xa9"); /* U+202A, U+2066, U+2069 */
	/* Their neighbours are kept: U+2029 (E2 80 A9), U+202F, U+2065, U+206A, an en dash. */
	ESC_EQ("\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xe2\x80\x93", XL_ESC_MD,
	       "\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xe2\x80\x93");
	ESC_EQ("a\nb\x1b", XL_ESC_MD, "a\\x0ab\\x1b");
	ESC_EQ("a\nb\tc\x1b|", XL_ESC_KEEP_NL, "a\nb\tc\\x1b|");
	ESC_EQ("a\rb", XL_ESC_KEEP_NL, "a\\x0db");
}

/* Too long: cut before a whole unit, "..." at the end, always NUL-terminated. */
static void test_esc_truncate(void **state)
{
	char b[8];

	assert_string_equal(xl_term_esc(b, sizeof(b), "abcdefg", 0), "abcdefg");
	assert_string_equal(xl_term_esc(b, sizeof(b), "abcdefgh", 0), "abcd...");
	assert_string_equal(xl_term_esc(b, 6, "ab\x1b", 0), "ab...");
	assert_string_equal(xl_term_esc(b, 7, "ab\x1b", 0), "ab\\x1b");
	assert_string_equal(xl_term_esc(b, 7, "abc\xe2\x82\xac", 0), "abc\xe2\x82\xac");
	assert_string_equal(xl_term_esc(b, 6, "abc\xe2\x82\xac", 0), "ab...");
	assert_string_equal(xl_term_esc(b, 3, "abcd", 0), "..");
	assert_string_equal(xl_term_esc(b, 1, "abcd", 0), "");
}

/* Two XL_ESC() in one call: each its own buffer. */
static void test_esc_macro(void **state)
{
	char out[64];

	snprintf(out, sizeof(out), "%s %s", XL_ESC("a\x1b"), XL_ESC_MD("b|"));
	assert_string_equal(out, "a\\x1b b\\|");
}

/* xl_xml_escape_n() of @s (at most @max bytes) into @buf. */
static const char *xml(char *buf, size_t len, const char *s, size_t max)
{
	FILE *f = fmemopen(buf, len, "w");

	assert_non_null(f);
	xl_xml_escape_n(f, s, max);
	fclose(f);
	return buf;
}

/*
 * The XML escaper: markup as entities, controls out, and what XML 1.0
 * cannot hold (a UTF-8 sequence cut by a fixed-size name field, a stray
 * continuation byte, a C1 control, U+FFFF) as U+FFFD; valid UTF-8 kept.
 */
static void test_xml_escape(void **state)
{
	char b[256];

	assert_string_equal(xml(b, sizeof(b), "a<b>&\"c'\x01\x1b\x7f", SIZE_MAX),
			    "a&lt;b&gt;&amp;&quot;c'\x7f");
	assert_string_equal(xml(b, sizeof(b), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", SIZE_MAX),
			    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	assert_string_equal(xml(b, sizeof(b), "x\xe2\x82", SIZE_MAX), "x\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(xml(b, sizeof(b), "\x80y\xff", SIZE_MAX), "\xef\xbf\xbdy\xef\xbf\xbd");
	assert_string_equal(xml(b, sizeof(b), "\xc2\x85", SIZE_MAX), "\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(xml(b, sizeof(b), "\xef\xbf\xbf\xef\xbf\xbd", SIZE_MAX),
			    "\xef\xbf\xbd\xef\xbf\xbd");
	/* A character that does not fit whole in max is left out. */
	assert_string_equal(xml(b, sizeof(b), "ab\xe2\x82\xac", 4), "ab");
	assert_string_equal(xml(b, sizeof(b), "a&b", 2), "a&amp;");
	xl_xml_escape(NULL, NULL); /* NULL text: nothing written, the stream not touched */
}

/* Our messages: a %s argument's controls and newlines escaped, one line. */
static void test_log_escapes_args(void **state)
{
	char buf[512];

	log_one("map %s: bad", "k\x1b[2J\nxdplab: forged", buf, sizeof(buf));
	assert_string_equal(buf, "xdplab: map k\\x1b[2J\\x0axdplab: forged: bad\n");
	log_one("%s\n\n", "trailing newlines dropped, once added", buf, sizeof(buf));
	assert_string_equal(buf, "xdplab: trailing newlines dropped, once added\n");
}

/*
 * XL_LOG_SILENT: nothing at all, errors included (the fuzz targets set it;
 * before it, "XL_LOG_ERROR - 1" wrapped to the largest level in the
 * unsigned enum and every warning of every input reached stderr).
 */
static void test_log_silent(void **state)
{
	char buf[512];
	enum xl_log_level old = xl_log_get_level();

	xl_log_set_level(XL_LOG_SILENT);
	log_one("%s", "an error nobody should see", buf, sizeof(buf));
	xl_log_set_level(old);
	assert_string_equal(buf, "");
	log_one("%s", "seen again", buf, sizeof(buf));
	assert_string_equal(buf, "xdplab: seen again\n");
}

/* libbpf's messages: a name with ESC in it escaped, the line's newline kept. */
static void test_libbpf_escaped(void **state)
{
	char buf[4096];

	libbpf_open("/nonexistent/xl\x1b[2J.o", XL_LOG_DEBUG, buf, sizeof(buf));
	if (!strstr(buf, "xdplab: libbpf: elf: failed to open /nonexistent/xl\\x1b[2J.o"))
		print_error("stderr was: %s\n", buf);
	assert_non_null(strstr(buf, "xdplab: libbpf: elf: failed to open /nonexistent/xl\\x1b[2J.o"));
	assert_null(strchr(buf, '\x1b'));
	assert_int_equal(buf[strlen(buf) - 1], '\n');
}

static void test_libbpf_prefix_once(void **state)
{
	char buf[4096];

	libbpf_open_missing(XL_LOG_DEBUG, buf, sizeof(buf));
	if (!strstr(buf, "xdplab: libbpf: elf: failed to open /nonexistent/xl-test-log.o") ||
	    strstr(buf, "libbpf: libbpf:"))
		print_error("stderr was: %s\n", buf);
	assert_non_null(strstr(buf, "xdplab: libbpf: elf: failed to open /nonexistent/xl-test-log.o"));
	assert_null(strstr(buf, "libbpf: libbpf:"));
	libbpf_open_missing(XL_LOG_WARN, buf, sizeof(buf));
	assert_string_equal(buf, ""); /* a libbpf warning is our info: not without -v */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libbpf_prefix_once),
		cmocka_unit_test(test_log_silent),
		cmocka_unit_test(test_esc_controls),
		cmocka_unit_test(test_esc_utf8),
		cmocka_unit_test(test_esc_flags),
		cmocka_unit_test(test_esc_truncate),
		cmocka_unit_test(test_esc_macro),
		cmocka_unit_test(test_xml_escape),
		cmocka_unit_test(test_log_escapes_args),
		cmocka_unit_test(test_libbpf_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
