// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/core/ owns what every other folder uses and that knows nothing
 * of packets: diagnostics (log.c), the clock and interruptible sleep
 * (time.c), entering and leaving network namespaces (netns.c), helper
 * processes (child.c). See docs/architecture.md.
 */
/* Diagnostics to stderr, with libbpf's and libxdp's chatter demoted a level. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "xdplab/log.h"

static enum xl_log_level cur_level = XL_LOG_WARN;

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
		} else if ((*p == '|' || *p == '\\') && (flags & XL_ESC_MD)) {
			unit[0] = '\\', unit[1] = *p, w = 2;
		} else if (*p < 0x80) {
			unit[0] = *p, w = 1;
		} else if ((n = utf8_len(p))) {
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

static void vlog(enum xl_log_level level, const char *fmt, va_list ap)
{
	char buf[1024], out[4 * sizeof(buf)];
	size_t n;

	if (level > cur_level)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	fprintf(stderr, "xdplab: %s\n", xl_term_esc(out, sizeof(out), buf, 0));
}

void xl_log(enum xl_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(level, fmt, ap);
	va_end(ap);
}

/*
 * libbpf's and libxdp's messages, one level down (their warnings are our
 * info, the rest debug) and prefixed by @lib. The two callbacks below
 * only differ in their libraries' level types.
 */
static int lib_print(bool warn, const char *lib, const char *fmt, va_list ap)
{
	enum xl_log_level l = warn ? XL_LOG_INFO : XL_LOG_DEBUG;
	size_t n = strlen(lib);

	char *msg, *out;
	va_list aq;
	int len;

	if (l > cur_level)
		return 0;
	/* Their own messages already start "libbpf: " ("libxdp: "): once. */
	if (!strncmp(fmt, lib, n) && !strncmp(fmt + n, ": ", 2))
		fmt += n + 2;
	/*
	 * Names from the ELF file and the verifier's log are data: escaped,
	 * their lines kept. Any length (a verifier log is megabytes).
	 */
	va_copy(aq, ap);
	len = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	msg = len >= 0 ? malloc(len + 1) : NULL;
	out = msg ? malloc(4 * (size_t)len + 1) : NULL;
	if (!out) {
		fprintf(stderr, "xdplab: %s: (a message lost: out of memory)\n", lib);
		free(msg);
		return 0;
	}
	vsnprintf(msg, len + 1, fmt, ap);
	fprintf(stderr, "xdplab: %s: %s", lib,
		xl_term_esc(out, 4 * (size_t)len + 1, msg, XL_ESC_KEEP_NL));
	free(out);
	free(msg);
	return 0;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	return lib_print(level == LIBBPF_WARN, "libbpf", fmt, ap);
}

static int libxdp_print(enum libxdp_print_level level, const char *fmt,
			va_list ap)
{
	return lib_print(level == LIBXDP_WARN, "libxdp", fmt, ap);
}

void xl_log_set_level(enum xl_log_level level)
{
	cur_level = level;
	libbpf_set_print(libbpf_print);
	libxdp_set_print(libxdp_print);
}

enum xl_log_level xl_log_get_level(void)
{
	return cur_level;
}
