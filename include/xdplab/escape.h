/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file escape.h
 * Untrusted text escaped for where it goes (../shared/STYLE.md, "Untrusted
 * text"): for XML, the HTML report's text and attributes, its SVG charts
 * and the flame graphs (one escaper for every writer of markup); for a
 * terminal, stdout and stderr (one escaper for every printer of names).
 */
#ifndef XDPLAB_ESCAPE_H
#define XDPLAB_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/**
 * xl_xml_escape() - write @s (NULL: nothing) to @out with &, <, >, "
 * escaped and control characters below 0x20 left out: for HTML and SVG
 * element content (<title> included), double-quoted attributes and the
 * JUnit XML of compare --format junit. What is not an XML 1.0 character
 * (W3C XML 1.0, section 2.2) or not valid UTF-8 (a byte of a cut or broken
 * sequence, a C1 control U+0080-U+009F, U+FFFE, U+FFFF) is written as
 * U+FFFD, one per byte of a broken sequence: the output is always
 * well-formed UTF-8. ' is not escaped: no attribute the report, the flame
 * graph or the JUnit writer writes is single-quoted.
 */
void xl_xml_escape(FILE *out, const char *s);

/**
 * xl_xml_escape_n() - xl_xml_escape() of at most the first @max characters
 * of @s (bytes of the input, counted before escaping; a flame graph's
 * labels are cut to their box this way); a character that does not fit
 * whole in @max is left out.
 */
void xl_xml_escape_n(FILE *out, const char *s, size_t max);

/**
 * xl_prom_escape() - @s (NULL: nothing) on @f as the Prometheus text
 * exposition format's label value (the text between the quotes) or, with
 * @help, its HELP text: \ as \\, newline as \n, " as \" (in a label value
 * only, as the format asks); other control characters below 0x20 left out;
 * what is not valid UTF-8, and the C1 controls, as U+FFFD, one per byte
 * (the format is UTF-8). For --prometheus FILE (xdplab/prom.h).
 */
void xl_prom_escape(FILE *f, const char *s, bool help);

/** xl_term_esc() flags. */
enum xl_esc_flags {
	/**
	 * A markdown table cell: also | \ < > & [ get a backslash before them,
	 * so text cannot end a cell nor become markup (HTML, an entity, a link
	 * or image) where the table is rendered (a PR comment).
	 */
	XL_ESC_MD = 1,
	/** Keep newline and tab (a multi-line message from a library, e.g. a verifier log). */
	XL_ESC_KEEP_NL = 2,
};

/**
 * xl_term_esc() - @s as text safe for a terminal (stdout or stderr), into
 * @buf of @len bytes (NUL-terminated; @len >= 1). The one escaper for text
 * that came from a results file, a map file, a capture, an ELF file, /proc
 * or an option: bytes 0x00-0x1f and 0x7f, the UTF-8 encodings of the C1
 * controls U+0080-U+009F and of the bidi embedding, override and isolate
 * controls U+202A-U+202E and U+2066-U+2069, and every byte that is not part of a valid UTF-8
 * sequence (overlong forms, surrogates and > U+10FFFF included) are shown
 * as \xNN, one per byte (lower-case hex); valid UTF-8 is kept as is.
 * A backslash is kept (outside XL_ESC_MD): the output is for a reader, not
 * to be parsed back. When the escaped text does not fit, it ends in "..."
 * and no escape or UTF-8 sequence is cut. @s NULL gives "(null)".
 * Returns @buf, so that it can be a printf() argument; no errors.
 */
const char *xl_term_esc(char *buf, size_t len, const char *s, unsigned int flags);

/** Buffer size XL_ESC() gives: 4 bytes per input byte of up to 255 bytes. */
#define XL_ESC_LEN 1024

/**
 * XL_ESC() - xl_term_esc() into a buffer that lives until the end of the
 * enclosing block (a compound literal): printf("%s %s\n", XL_ESC(a), XL_ESC(b)).
 */
#define XL_ESC(s) xl_term_esc((char[XL_ESC_LEN]){ 0 }, XL_ESC_LEN, (s), 0)
/** XL_ESC_MD() - XL_ESC() for a markdown table cell (XL_ESC_MD). */
#define XL_ESC_MD(s) xl_term_esc((char[XL_ESC_LEN]){ 0 }, XL_ESC_LEN, (s), XL_ESC_MD)

#endif /* XDPLAB_ESCAPE_H */
