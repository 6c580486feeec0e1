// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: `xdplab report` (xl_html_report_write(), the page of
 * xl_html_report()) on arbitrary bytes as the results file, compared with
 * itself as BASE, the page written to a memory stream. Checks (issue 21: no input yields markup outside text): the
 * report either fails with one of its documented errors and a message, or
 * writes a page in which every tag is one the report writes, with only
 * double-quoted attributes, none an event handler ("on..."), no <script>
 * (no flame graph can be drawn here: the results file's directory is
 * /proc/self/fd, whose entries are links, which are not followed) and no
 * '<' inside an attribute value. Built by `make fuzz`.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xdplab/htmlreport.h"
#include "xdplab/log.h"

#include "../src/lib/html/html_priv.h"

/* Every element the report (html.c, html_lat.c, svgchart.c) writes. */
static const char *const tags[] = {
	"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "span", "code",
	"div", "table", "tr", "th", "td", "details", "summary", "svg", "text", "line", "rect", "g",
};

static bool known_tag(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (strlen(tags[i]) == n && !memcmp(tags[i], s, n))
			return true;
	return false;
}

/* One tag at @p (just after '<'); return the end (after '>'), or abort. */
static const char *check_tag(const char *p, const char *end)
{
	const char *n;

	if (p < end && *p == '/')
		p++;
	if (end - p >= 8 && !memcmp(p, "!DOCTYPE", 8)) {
		n = memchr(p, '>', end - p);
		if (!n)
			abort();
		return n + 1;
	}
	for (n = p; p < end && isalnum((unsigned char)*p); p++)
		;
	if (!known_tag(n, p - n))
		abort();
	for (;;) {
		while (p < end && *p == ' ')
			p++;
		if (p < end && *p == '>')
			return p + 1;
		if (end - p >= 2 && p[0] == '/' && p[1] == '>')
			return p + 2;
		for (n = p; p < end && (isalnum((unsigned char)*p) || *p == '-' || *p == ':'); p++)
			;
		if (p == n || (p - n >= 2 && tolower((unsigned char)n[0]) == 'o' &&
			       tolower((unsigned char)n[1]) == 'n'))
			abort(); /* not an attribute of ours, or an event handler */
		if (end - p < 2 || p[0] != '=' || p[1] != '"')
			abort();
		for (p += 2; p < end && *p != '"'; p++)
			if (*p == '<')
				abort();
		if (p == end)
			abort();
		p++;
	}
}

static void check_page(const char *s, size_t len)
{
	const char *p = s, *end = s + len, *style;

	while ((p = memchr(p, '<', end - p))) {
		p = check_tag(p + 1, end);
		/* The style sheet is ours and constant: skip to its end. */
		if (p - s >= 7 && !memcmp(p - 7, "<style>", 7)) {
			style = memmem(p, end - p, "</style>", 8);
			if (!style)
				abort();
			p = style;
		}
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	xl_log_set_level(XL_LOG_SILENT);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int in = -1;
	char ipath[64], err[512] = "", *page = NULL;
	size_t len = 0;
	FILE *o;
	int r;

	if (in < 0)
		in = memfd_create("fuzz.json", 0);
	if (in < 0 || ftruncate(in, 0) || pwrite(in, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(ipath, sizeof(ipath), "/proc/self/fd/%d", in);
	o = open_memstream(&page, &len);
	if (!o)
		abort();
	r = xl_html_report_write(ipath, ipath, o, err, sizeof(err));
	if (fclose(o))
		abort();
	if (r) {
		if (r != -ENOENT && r != -EINVAL && r != -EPROTO && r != -ENOMEM && r != -EIO)
			abort();
		if (!err[0] && r != -ENOMEM && r != -EIO)
			abort();
		free(page);
		return 0;
	}
	if (!len || memmem(page, len, "<script", 7))
		abort();
	check_page(page, len);
	free(page);
	return 0;
}
