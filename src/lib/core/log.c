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
