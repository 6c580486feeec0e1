/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file escape.h
 * Untrusted text escaped for XML: the HTML report's text and attributes,
 * its SVG charts and the flame graphs (../shared/STYLE.md, "Untrusted
 * text"). One escaper for every writer of markup.
 */
#ifndef XDPLAB_ESCAPE_H
#define XDPLAB_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/**
 * xl_xml_escape() - write @s (NULL: nothing) to @out with &, <, >, "
 * escaped and control characters below 0x20 left out: for HTML and SVG
 * element content (<title> included) and double-quoted attributes. ' is
 * not escaped: no attribute the report or the flame graph writes is
 * single-quoted.
 */
void xl_xml_escape(FILE *out, const char *s);

/**
 * xl_xml_escape_n() - xl_xml_escape() of at most the first @max characters
 * of @s (bytes of the input, counted before escaping; a flame graph's
 * labels are cut to their box this way).
 */
void xl_xml_escape_n(FILE *out, const char *s, size_t max);

#endif /* XDPLAB_ESCAPE_H */
