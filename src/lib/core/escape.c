// SPDX-License-Identifier: BSD-2-Clause
/*
 * Untrusted text escaped for XML (xdplab/escape.h): the HTML report, its
 * charts and the flame graphs write names and notes through here.
 */
#include <stdint.h>

#include "xdplab/escape.h"

void xl_xml_escape(FILE *out, const char *s)
{
	xl_xml_escape_n(out, s, SIZE_MAX);
}

void xl_xml_escape_n(FILE *out, const char *s, size_t max)
{
	size_t n = 0;

	for (; s && *s && n < max; s++, n++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			if ((unsigned char)*s >= 0x20)
				fputc(*s, out);
		}
	}
}
