// SPDX-License-Identifier: BSD-2-Clause
/*
 * Untrusted text escaped (xdplab/escape.h): for XML, the HTML report, its
 * charts and the flame graphs write names and notes through here; for a
 * terminal, the log module and every command's printing of names.
 */
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#include "xdplab/escape.h"

/*
 * The length of the valid UTF-8 sequence at @p (2..4 bytes), 0 when @p does
 * not start one or starts a C1 control (U+0080-U+009F). The ranges of the
 * second byte are RFC 3629's table (no overlong forms, no surrogates, no
 * code point above U+10FFFF).
 */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, lo = p[0] == 0xc2 ? 0xa0 : 0x80; /* C2 80..9F: C1 controls */
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, lo = p[0] == 0xe0 ? 0xa0 : 0x80, hi = p[0] == 0xed ? 0x9f : 0xbf;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, lo = p[0] == 0xf0 ? 0x90 : 0x80, hi = p[0] == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++) /* a NUL stops here too: it is no continuation */
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/*
 * What a markdown table cell gets a backslash before (CommonMark lets any
 * ASCII punctuation be escaped so): | and \ (a cell's end, an escape), <
 * and > (raw HTML, autolinks), & (entities), [ (links and images).
 */
#define MD_SPECIAL "|\\<>&["

/*
 * Whether the valid UTF-8 at @p is a bidirectional embedding, override or
 * isolate control, U+202A-U+202E (E2 80 AA-AE) or U+2066-U+2069 (E2 81
 * A6-A9): kept, they reorder what a terminal shows after them ("Trojan
 * Source", CVE-2021-42574). Escaped byte by byte as invalid UTF-8 is: the
 * lead byte here, the continuation bytes then stand alone.
 */
static bool bidi_control(const unsigned char *p)
{
	return p[0] == 0xe2 && ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) ||
				(p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9));
}

void xl_xml_escape(FILE *out, const char *s)
{
	xl_xml_escape_n(out, s, SIZE_MAX);
}

/* U+FFFD REPLACEMENT CHARACTER: for what XML 1.0 or a UTF-8 format cannot hold. */
#define U_FFFD "\xef\xbf\xbd"

void xl_xml_escape_n(FILE *out, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t done = 0, n;

	for (; p && *p && done < max; p += n, done += n) {
		n = 1;
		switch (*p) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			if (*p < 0x20) /* not an XML 1.0 character */
				break;
			if (*p < 0x80) {
				fputc(*p, out);
				break;
			}
			/*
			 * Invalid UTF-8 (a name cut inside a character), a C1
			 * control and the non-characters U+FFFE and U+FFFF (EF BF
			 * BE/BF, not XML 1.0 characters either) as U+FFFD: one
			 * such byte would make a whole JUnit file unreadable.
			 */
			n = utf8_len(p);
			if (!n || (p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe)) {
				n = n ? n : 1;
				fputs(U_FFFD, out);
			} else if (done + n <= max) {
				fwrite(p, 1, n, out);
			}
		}
	}
}

void xl_prom_escape(FILE *f, const char *s, bool help)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	for (; p && *p; p += n) {
		n = 1;
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '"' && !help)
			fputs("\\\"", f);
		else if (*p < 0x20)
			; /* no control character in a line of the format */
		else if (*p < 0x80)
			fputc(*p, f);
		else if ((n = utf8_len(p)))
			fwrite(p, 1, n, f);
		else
			n = 1, fputs(U_FFFD, f); /* U+FFFD: the format is UTF-8 */
	}
}

const char *xl_term_esc(char *buf, size_t len, const char *s, unsigned int flags)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "(null)");
	size_t o = 0, safe = 0, n;
	char unit[5];

	if (!len)
		return buf;
	for (; *p; p += n) {
		const char *src = unit;
		size_t w;

		n = 1;
		if ((*p == '\n' || *p == '\t') && (flags & XL_ESC_KEEP_NL)) {
			unit[0] = *p, w = 1;
		} else if (*p < 0x20 || *p == 0x7f) {
			w = snprintf(unit, sizeof(unit), "\\x%02x", *p);
		} else if ((flags & XL_ESC_MD) && strchr(MD_SPECIAL, *p)) {
			unit[0] = '\\', unit[1] = *p, w = 2;
		} else if (*p < 0x80) {
			unit[0] = *p, w = 1;
		} else if ((n = utf8_len(p)) && !bidi_control(p)) {
			src = (const char *)p, w = n;
		} else {
			n = 1;
			w = snprintf(unit, sizeof(unit), "\\x%02x", *p);
		}
		if (o + w > len - 1) { /* cut before this unit, with "..." */
			o = safe;
			for (w = 0; w < 3 && o < len - 1; w++)
				buf[o++] = '.';
			break;
		}
		memcpy(buf + o, src, w);
		o += w;
		if (o + 3 <= len - 1)
			safe = o;
	}
	buf[o] = '\0';
	return buf;
}
